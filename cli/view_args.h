// The --view, --style, --max-links, --hub-threshold and --tag-budget options shared by mount,
// render, stats and export.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "render/view.h"

namespace anchorfs::cli {

struct ViewArgs {
  std::string view = "auto";
  std::string style = "paper";
  size_t max_links = render::ViewOptions{}.max_links;
  size_t hub_threshold = 0;
  double tag_budget = 0;
  CLI::Option* view_option = nullptr;
  CLI::Option* style_option = nullptr;
  CLI::Option* hub_threshold_option = nullptr;
  CLI::Option* tag_budget_option = nullptr;

  bool view_given() const { return view_option != nullptr && view_option->count() > 0; }
  bool style_given() const { return style_option != nullptr && style_option->count() > 0; }

  render::ViewOptions options() const;
};

void add_view_args(CLI::App& command, ViewArgs& args);

}  // namespace anchorfs::cli
