// The --view, --max-links and --hub-threshold options shared by mount, render, stats and export.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "render/view.h"

namespace anchorfs::cli {

struct ViewArgs {
  std::string view = "auto";
  size_t max_links = render::ViewOptions{}.max_links;
  size_t hub_threshold = 0;
  CLI::Option* view_option = nullptr;
  CLI::Option* hub_threshold_option = nullptr;

  bool view_given() const { return view_option != nullptr && view_option->count() > 0; }

  render::ViewOptions options() const;
};

void add_view_args(CLI::App& command, ViewArgs& args);

}  // namespace anchorfs::cli
