// View policies (none, topo, inv, dense, auto) and rendering a Graph into per-file TagPlans.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/graph.h"
#include "render/block.h"
#include "render/tag_plan.h"

namespace anchorfs::render {

enum class View { None, Topo, Inv, Dense, Auto };

std::optional<View> parse_view(std::string_view name);
std::string_view view_name(View view);
std::optional<Style> parse_style(std::string_view name);
std::string_view style_name(Style style);

// auto's rule (docs/views.md): mean call out-degree over entities that call anything.
inline constexpr double kAutoTopoBelow = 5.0;  // mean < this: topo
inline constexpr double kAutoInvAbove = 8.0;   // mean > this: inv; in between: topo minus hub calls
inline constexpr size_t kHubDegree = 10;       // a hub has more than this many distinct callers
// Hub-heavy: more than this share of the call edges lands on hubs. auto then prunes CALLS to hubs
// whatever the mean out-degree (the study's guidance: forward links into hubs distract).
inline constexpr double kAutoHubHeavyShare = 0.5;

struct ViewOptions {
  View view = View::Auto;
  Style style = Style::Paper;
  size_t max_links = 8;                 // values shown per field before "… (+K more)"; 0: no cap
  std::optional<size_t> hub_threshold;  // drop CALLS to entities with in-degree above this
  std::optional<double> tag_budget;     // percent of source bytes; choose_view tightens caps
};

// What a view resolves to once `auto` has looked at the graph, and why.
struct ViewChoice {
  View view = View::Topo;  // never Auto
  ViewOptions options;     // the effective options (auto and the budget may set caps)
  std::string reason;      // one line for the mount summary
  // Blocks a tag budget left out when no caps could meet it, by entity index of the graph the
  // choice was made for (null: none).
  std::shared_ptr<const std::vector<bool>> dropped_blocks;
};

// Resolves auto, then fits a tag budget: the options of the first budget step whose tags fit
// (docs/views.md), each step lowering caps and filtering more hub links; when even the last step
// does not fit, whole blocks are left out, lowest-ranked first, until the tags fit.
ViewChoice choose_view(const analysis::Graph& graph, const ViewOptions& requested);

// The call graph's shape as auto sees it.
struct CallShape {
  size_t call_edges = 0;
  size_t callers = 0;          // entities with at least one outgoing call
  double mean_out_degree = 0;  // call_edges / callers (0 without callers)
  size_t max_out_degree = 0;
  analysis::EntityIndex max_out_entity = analysis::kNoEntity;  // lowest index reaching the max
  double hub_call_share = 0;  // share of call edges landing on a hub (in-degree > kHubDegree)
};
CallShape call_shape(const analysis::Graph& graph);

// One plan per graph.files entry, same order. Deterministic whatever the thread count.
// choice.view == Auto is resolved with choose_view first.
std::vector<TagPlan> render_plans(const analysis::Graph& graph, const ViewChoice& choice);

// The non-empty plans keyed by repository-relative path, sorted by path (what fs serves).
using PlansByPath = std::vector<std::pair<std::string, TagPlan>>;
PlansByPath plans_by_path(const analysis::Graph& graph, const ViewChoice& choice);

}  // namespace anchorfs::render
