// Shared helpers for render tests: rendering a fixture and picking out one block.
#pragma once

#include <string>
#include <vector>

#include "analysis/graph.h"
#include "render/view.h"

namespace anchorfs::render::testing {

inline std::vector<TagPlan> render(const analysis::Graph& graph, View view,
                                   size_t max_links = ViewOptions{}.max_links,
                                   std::optional<size_t> hub_threshold = std::nullopt) {
  ViewOptions options;
  options.view = view;
  options.max_links = max_links;
  options.hub_threshold = hub_threshold;
  return render_plans(graph, choose_view(graph, options));
}

// The text inserted at `offset` in the plan of graph.files[file] ("" when none).
inline std::string block_at(const std::vector<TagPlan>& plans, size_t file, uint64_t offset) {
  for (const Insertion& insertion : plans.at(file).insertions) {
    if (insertion.offset == offset) return insertion.text;
  }
  return "";
}

}  // namespace anchorfs::render::testing
