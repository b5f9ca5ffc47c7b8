// View policies (none, topo, inv, dense, auto) and rendering a Graph into per-file TagPlans.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/graph.h"
#include "render/tag_plan.h"

namespace anchorfs::render {

enum class View { None, Topo, Inv, Dense, Auto };

std::optional<View> parse_view(std::string_view name);
std::string_view view_name(View view);

struct ViewOptions {
  View view = View::Auto;
  size_t max_links = 12;                // values shown per field before "… (+K more)"
  std::optional<size_t> hub_threshold;  // drop CALLS to entities with in-degree above this
};

// What a view resolves to once `auto` has looked at the graph, and why.
struct ViewChoice {
  View view = View::Topo;  // never Auto
  ViewOptions options;     // the effective options (auto may set a cap)
  std::string reason;      // one line for the mount summary
};

ViewChoice choose_view(const analysis::Graph& graph, const ViewOptions& requested);

// One plan per graph.files entry, same order.
std::vector<TagPlan> render_plans(const analysis::Graph& graph, const ViewChoice& choice);

}  // namespace anchorfs::render
