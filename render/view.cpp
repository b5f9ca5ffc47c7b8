// View policies: parsing names, auto's choice, and rendering every file's plan in parallel.
#include "render/view.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>

#include "analysis/language.h"
#include "render/block.h"
#include "render/graph_index.h"
#include "render/render_index.h"
#include "render/sanitize.h"

namespace anchorfs::render {

using analysis::EntityIndex;
using analysis::EntityKind;

namespace {

constexpr std::array<std::pair<View, std::string_view>, 5> kViewNames{{
    {View::None, "none"},
    {View::Topo, "topo"},
    {View::Inv, "inv"},
    {View::Dense, "dense"},
    {View::Auto, "auto"},
}};

}  // namespace

BlockPolicy policy_for(const ViewChoice& choice) {
  BlockPolicy policy;
  policy.forward_calls = choice.view != View::Inv;
  policy.forward_imports = choice.view != View::Inv;
  policy.dense = choice.view == View::Dense;
  policy.max_links = choice.options.max_links;
  policy.hub_threshold = choice.options.hub_threshold;
  return policy;
}

TagPlan render_file(const GraphIndex& index, size_t file_info, const BlockPolicy& policy,
                    BlockScratch& scratch) {
  const analysis::Graph& graph = index.graph();
  const analysis::FileInfo& info = graph.files[file_info];
  TagPlan plan;
  const analysis::LanguageFrontEnd* front_end = analysis::front_end_named(info.language);
  if (!info.taggable || front_end == nullptr) return plan;
  const analysis::TagSyntax syntax = front_end->tag_syntax();
  LineLayout layout{syntax.line_comment, {}, sanitized_newline(info.newline), info.ascii_tags};

  struct Placed {
    uint64_t offset;
    bool not_file;
    EntityIndex entity;
  };
  std::vector<Placed> placed;
  for (EntityIndex e : index.entities_of(file_info)) {
    const analysis::Entity& entity = graph.entities[e];
    if (entity.anchor) {
      placed.push_back({entity.anchor->offset, entity.kind != EntityKind::File, e});
    }
  }
  // Blocks sharing an offset are merged into one insertion: file block first, then source order.
  std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
    return std::tie(a.offset, a.not_file, a.entity) < std::tie(b.offset, b.not_file, b.entity);
  });
  std::string indent;
  for (const Placed& p : placed) {
    indent = sanitized_indent(graph.entities[p.entity].anchor->indent);
    layout.indent = indent;
    const size_t recorded = scratch.references != nullptr ? scratch.references->size() : 0;
    if (!plan.insertions.empty() && plan.insertions.back().offset == p.offset) {
      append_block(plan.insertions.back().text, index, p.entity, policy, layout, scratch);
    } else {
      std::string text;
      if (append_block(text, index, p.entity, policy, layout, scratch)) {
        plan.insertions.push_back({p.offset, std::move(text)});
      }
    }
    if (scratch.references != nullptr) {
      for (size_t r = recorded; r < scratch.references->size(); ++r) {
        (*scratch.references)[r].insertion = static_cast<uint32_t>(plan.insertions.size() - 1);
      }
    }
  }
  return plan;
}

std::optional<View> parse_view(std::string_view name) {
  for (const auto& [view, view_text] : kViewNames) {
    if (view_text == name) return view;
  }
  return std::nullopt;
}

std::string_view view_name(View view) {
  for (const auto& [candidate, text] : kViewNames) {
    if (candidate == view) return text;
  }
  return "?";
}

CallShape call_shape(const analysis::Graph& graph) {
  CallShape shape;
  const size_t n = graph.entities.size();
  std::vector<uint32_t> out_degree(n, 0);
  for (const analysis::Edge& edge : graph.edges) {
    if (edge.relation != analysis::Relation::Calls || edge.from >= n || edge.to >= n) continue;
    ++shape.call_edges;
    ++out_degree[edge.from];
  }
  for (size_t e = 0; e < n; ++e) {
    if (out_degree[e] == 0) continue;
    ++shape.callers;
    if (out_degree[e] > shape.max_out_degree) {
      shape.max_out_degree = out_degree[e];
      shape.max_out_entity = static_cast<EntityIndex>(e);
    }
  }
  if (shape.callers > 0) {
    shape.mean_out_degree =
        static_cast<double>(shape.call_edges) / static_cast<double>(shape.callers);
  }
  return shape;
}

ViewChoice choose_view(const analysis::Graph& graph, const ViewOptions& requested) {
  ViewChoice choice;
  choice.options = requested;
  if (requested.view != View::Auto) {
    choice.view = requested.view;
    choice.reason = fmt::format("view {} (requested)", view_name(requested.view));
    return choice;
  }
  CallShape shape = call_shape(graph);
  if (shape.callers == 0) {
    choice.view = View::Topo;
    choice.reason = "auto: no resolved calls -> topo";
  } else if (shape.mean_out_degree < kAutoTopoBelow) {
    choice.view = View::Topo;
    choice.reason = fmt::format("auto: mean call out-degree {:.2f} < {} -> topo",
                                shape.mean_out_degree, kAutoTopoBelow);
  } else if (shape.mean_out_degree > kAutoInvAbove) {
    choice.view = View::Inv;
    choice.reason = fmt::format("auto: mean call out-degree {:.2f} > {} -> inv",
                                shape.mean_out_degree, kAutoInvAbove);
  } else {
    choice.view = View::Topo;
    choice.options.hub_threshold = requested.hub_threshold.value_or(kHubDegree);
    choice.reason = fmt::format(
        "auto: mean call out-degree {:.2f} in [{}, {}] -> topo without CALLS to hubs "
        "(in-degree > {})",
        shape.mean_out_degree, kAutoTopoBelow, kAutoInvAbove, *choice.options.hub_threshold);
  }
  choice.options.view = choice.view;
  return choice;
}

std::vector<TagPlan> render_plans(const GraphIndex& index, const ViewChoice& choice) {
  const analysis::Graph& graph = index.graph();
  std::vector<TagPlan> plans(graph.files.size());
  if (choice.view == View::Auto) return render_plans(index, choose_view(graph, choice.options));
  if (choice.view == View::None) return plans;
  BlockPolicy policy = policy_for(choice);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, graph.files.size(), 16),
                    [&](const tbb::blocked_range<size_t>& range) {
                      BlockScratch scratch;
                      for (size_t f = range.begin(); f != range.end(); ++f) {
                        plans[f] = render_file(index, f, policy, scratch);
                      }
                    });
  return plans;
}

std::vector<TagPlan> render_plans(const analysis::Graph& graph, const ViewChoice& choice) {
  if (choice.view == View::None) return std::vector<TagPlan>(graph.files.size());
  GraphIndex index(graph);
  return render_plans(index, choice);
}

PlansByPath plans_by_path(const analysis::Graph& graph, const ViewChoice& choice) {
  std::vector<TagPlan> plans = render_plans(graph, choice);
  PlansByPath by_path;
  for (size_t i = 0; i < plans.size(); ++i) {
    if (!plans[i].insertions.empty()) {
      by_path.emplace_back(graph.entities[graph.files[i].entity].name, std::move(plans[i]));
    }
  }
  std::sort(by_path.begin(), by_path.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return by_path;
}

}  // namespace anchorfs::render
