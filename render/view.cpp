// View policies: parsing names, auto's choice, and rendering every file's plan in parallel.
#include "render/view.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <memory>
#include <tuple>

#include "analysis/language.h"
#include "render/block.h"
#include "render/graph_index.h"
#include "render/render_index.h"
#include "render/sanitize.h"
#include "sync/mutex.h"

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

constexpr std::array<std::pair<Style, std::string_view>, 2> kStyleNames{{
    {Style::Paper, "paper"},
    {Style::Lean, "lean"},
}};

// The budget's steps, each tighter than the last: a cap on values per field and the in-degree
// above which CALLS into a hub are left out. The highest-ranked links always stay.
struct BudgetStep {
  size_t max_links;
  size_t hub_threshold;
};
constexpr std::array<BudgetStep, 5> kBudgetSteps{{{8, 10}, {5, 10}, {3, 10}, {2, 5}, {1, 3}}};

}  // namespace

BlockPolicy policy_for(const ViewChoice& choice) {
  BlockPolicy policy;
  policy.style = choice.options.style;
  policy.forward_calls = choice.view != View::Inv;
  policy.forward_imports = choice.view != View::Inv;
  policy.dense = choice.view == View::Dense;
  policy.max_links = choice.options.max_links;
  policy.hub_threshold = choice.options.hub_threshold;
  policy.dropped = choice.dropped_blocks.get();
  return policy;
}

std::optional<LineLayout> line_layout(const analysis::FileInfo& info) {
  const analysis::LanguageFrontEnd* front_end = analysis::front_end_named(info.language);
  if (!info.taggable || front_end == nullptr) return std::nullopt;
  const analysis::TagSyntax syntax = front_end->tag_syntax();
  return LineLayout{syntax.line_comment, {}, sanitized_newline(info.newline), info.ascii_tags,
                    syntax.nesting_shown_by_indent, syntax.separate_blocks};
}

void render_file_tags(const GraphIndex& index, size_t file_info, const BlockPolicy& policy,
                      BlockScratch& scratch, FileTags& tags) {
  tags.clear();
  const analysis::Graph& graph = index.graph();
  std::optional<LineLayout> found = line_layout(graph.files[file_info]);
  if (!found) return;
  LineLayout& layout = *found;

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
    if (policy.dropped != nullptr && p.entity < policy.dropped->size() && (*policy.dropped)[p.entity]) {
      continue;
    }
    indent = sanitized_indent(graph.entities[p.entity].anchor->indent);
    layout.indent = indent;
    // Every block is written at the end of `texts`: the last insertion's text when it shares its
    // offset, else a new insertion's (append_block writes nothing for a block it leaves out).
    const bool joins_last = !tags.offsets.empty() && tags.offsets.back() == p.offset;
    if (!append_block(tags.texts, index, p.entity, policy, layout, scratch)) continue;
    if (layout.separate_blocks) tags.texts.append(layout.newline);
    if (joins_last) {
      tags.ends.back() = tags.texts.size();
    } else {
      tags.offsets.push_back(p.offset);
      tags.ends.push_back(tags.texts.size());
    }
  }
}

TagPlan render_file(const GraphIndex& index, size_t file_info, const BlockPolicy& policy,
                    BlockScratch& scratch) {
  FileTags tags;
  const size_t recorded = scratch.references != nullptr ? scratch.references->size() : 0;
  render_file_tags(index, file_info, policy, scratch, tags);
  TagPlan plan;
  plan.insertions.reserve(tags.offsets.size());
  for (size_t k = 0; k < tags.offsets.size(); ++k) {
    const uint64_t begin = k == 0 ? 0 : tags.ends[k - 1];
    plan.insertions.push_back({tags.offsets[k], tags.texts.substr(begin, tags.ends[k] - begin)});
  }
  if (scratch.references != nullptr) {
    // Recorded at offsets within `texts`: made relative to their insertion's text.
    size_t k = 0;
    for (size_t r = recorded; r < scratch.references->size(); ++r) {
      RecordedReference& ref = (*scratch.references)[r];
      while (tags.ends[k] <= ref.offset) ++k;
      ref.offset -= k == 0 ? 0 : tags.ends[k - 1];
      ref.insertion = static_cast<uint32_t>(k);
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

std::optional<Style> parse_style(std::string_view name) {
  for (const auto& [style, text] : kStyleNames) {
    if (text == name) return style;
  }
  return std::nullopt;
}

std::string_view style_name(Style style) {
  for (const auto& [candidate, text] : kStyleNames) {
    if (candidate == style) return text;
  }
  return "?";
}

CallShape call_shape(const analysis::Graph& graph) {
  CallShape shape;
  const size_t n = graph.entities.size();
  std::vector<uint32_t> out_degree(n, 0);
  std::vector<uint32_t> in_degree(n, 0);
  for (const analysis::Edge& edge : graph.edges) {
    if (edge.relation != analysis::Relation::Calls || edge.from >= n || edge.to >= n) continue;
    ++shape.call_edges;
    ++out_degree[edge.from];
    ++in_degree[edge.to];
  }
  size_t into_hubs = 0;
  for (uint32_t degree : in_degree) {
    if (degree > kHubDegree) into_hubs += degree;
  }
  if (shape.call_edges > 0) {
    shape.hub_call_share = static_cast<double>(into_hubs) / static_cast<double>(shape.call_edges);
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

// 16 keep a large tree's tasks cheap to hand out, but in a tree of few files (TypeScript's nine,
// six of them 6-11.5 MB bundles) 16 made one task of all, rendered on one core while the other
// idled.
size_t files_per_task(size_t files) {
  const auto threads = static_cast<size_t>(tbb::this_task_arena::max_concurrency());
  return files >= 64 * threads ? 16 : 1;
}

namespace {

ViewChoice resolve_auto(const analysis::Graph& graph, const ViewOptions& requested) {
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
  } else if (shape.mean_out_degree < kAutoTopoBelow &&
             shape.hub_call_share > kAutoHubHeavyShare) {
    choice.view = View::Topo;
    choice.options.hub_threshold = requested.hub_threshold.value_or(kHubDegree);
    choice.reason = fmt::format(
        "auto: mean call out-degree {:.2f} < {} but {:.0f}% of calls land on hubs (> {:.0f}%) -> "
        "topo without CALLS to hubs (in-degree > {})",
        shape.mean_out_degree, kAutoTopoBelow, 100 * shape.hub_call_share,
        100 * kAutoHubHeavyShare, *choice.options.hub_threshold);
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

uint64_t total_tag_bytes(const std::vector<TagPlan>& plans) {
  uint64_t total = 0;
  for (const TagPlan& plan : plans) total += plan.added_bytes();
  return total;
}

std::string caps_text(const ViewOptions& options) {
  std::string text = options.max_links == 0 ? "no cap" : fmt::format("max {}", options.max_links);
  if (options.hub_threshold) text += fmt::format(", hub > {}", *options.hub_threshold);
  return text;
}

// One entity's block as a budget sees it.
struct BlockCost {
  uint64_t bytes = 0;
  uint64_t links = 0;  // values shown
};

// Every entity's block under `choice` (zero for entities without one).
std::vector<BlockCost> block_costs(const GraphIndex& index, const ViewChoice& choice) {
  const analysis::Graph& graph = index.graph();
  std::vector<BlockCost> costs(graph.entities.size());
  const BlockPolicy policy = policy_for(choice);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, graph.files.size(),
                                                files_per_task(graph.files.size())),
                    [&](const tbb::blocked_range<size_t>& range) {
                      BlockScratch scratch;
                      std::string text, indent;
                      for (size_t f = range.begin(); f != range.end(); ++f) {
                        std::optional<LineLayout> layout = line_layout(graph.files[f]);
                        if (!layout) continue;
                        for (EntityIndex e : index.entities_of(f)) {
                          const analysis::Entity& entity = graph.entities[e];
                          if (!entity.anchor) continue;
                          indent = sanitized_indent(entity.anchor->indent);
                          layout->indent = indent;
                          text.clear();
                          const uint64_t shown = scratch.counters.shown;
                          if (append_block(text, index, e, policy, *layout, scratch)) {
                            costs[e] = {text.size(), scratch.counters.shown - shown};
                          }
                        }
                      }
                    });
  return costs;
}

// Leaves out whole blocks, lowest-ranked first, until the tags fit in `allowed` bytes: blocks in
// test code first, then those showing the fewest values, then by id from the last. Returns the
// number of blocks left out and the bytes that stay.
std::pair<size_t, uint64_t> drop_blocks(const GraphIndex& index, ViewChoice& choice,
                                        double allowed) {
  std::vector<BlockCost> costs = block_costs(index, choice);
  std::vector<EntityIndex> blocks;
  uint64_t bytes = 0;
  for (size_t e = 0; e < costs.size(); ++e) {
    if (costs[e].bytes == 0) continue;
    blocks.push_back(static_cast<EntityIndex>(e));
    bytes += costs[e].bytes;
  }
  std::sort(blocks.begin(), blocks.end(), [&](EntityIndex a, EntityIndex b) {
    return std::make_tuple(!index.is_test(a), costs[a].links, index.rank(b)) <
           std::make_tuple(!index.is_test(b), costs[b].links, index.rank(a));
  });
  auto dropped = std::make_shared<std::vector<bool>>(costs.size(), false);
  size_t count = 0;
  for (EntityIndex e : blocks) {
    if (static_cast<double>(bytes) <= allowed) break;
    (*dropped)[e] = true;
    bytes -= costs[e].bytes;
    ++count;
  }
  choice.dropped_blocks = std::move(dropped);
  return {count, bytes};
}

// The first budget step (the options as given first) whose tags fit in the budget; when none
// does, the last step with the lowest-ranked blocks left out.
void fit_budget(const analysis::Graph& graph, ViewChoice& choice) {
  const double percent = *choice.options.tag_budget;
  uint64_t source = 0;
  for (const analysis::FileInfo& info : graph.files) source += info.size;
  const double allowed = percent / 100.0 * static_cast<double>(source);
  auto share = [&](uint64_t bytes) {
    return source == 0 ? 0.0 : 100.0 * static_cast<double>(bytes) / static_cast<double>(source);
  };
  GraphIndex index(graph);
  ViewChoice candidate = choice;
  uint64_t bytes = total_tag_bytes(render_plans(index, candidate));
  if (static_cast<double>(bytes) <= allowed) {
    choice.reason += fmt::format("; tag budget {}% met as is ({:.1f}%)", percent, share(bytes));
    return;
  }
  for (const BudgetStep& step : kBudgetSteps) {
    ViewOptions& options = candidate.options;
    options.max_links = options.max_links == 0 ? step.max_links
                                               : std::min(options.max_links, step.max_links);
    options.hub_threshold = std::min(options.hub_threshold.value_or(step.hub_threshold),
                                     step.hub_threshold);
    bytes = total_tag_bytes(render_plans(index, candidate));
    if (static_cast<double>(bytes) <= allowed) break;
  }
  std::string dropped;
  if (static_cast<double>(bytes) > allowed) {
    const auto [count, kept] = drop_blocks(index, candidate, allowed);
    bytes = kept;
    dropped = fmt::format(", {} lowest-ranked blocks left out", count);
  }
  choice.options = candidate.options;
  choice.dropped_blocks = candidate.dropped_blocks;
  choice.reason += fmt::format("; tag budget {}% met: {}{} -> {:.1f}%", percent,
                               caps_text(choice.options), dropped, share(bytes));
}

}  // namespace

ViewChoice choose_view(const analysis::Graph& graph, const ViewOptions& requested) {
  ViewChoice choice = resolve_auto(graph, requested);
  if (choice.view != View::None && requested.tag_budget) fit_budget(graph, choice);
  return choice;
}

std::vector<TagPlan> render_plans(const GraphIndex& index, const ViewChoice& choice,
                                  LinkCounters* counters) {
  const analysis::Graph& graph = index.graph();
  std::vector<TagPlan> plans(graph.files.size());
  if (choice.view == View::Auto) {
    return render_plans(index, choose_view(graph, choice.options), counters);
  }
  if (choice.view == View::None) return plans;
  BlockPolicy policy = policy_for(choice);
  sync::Mutex counters_mutex;  // serialises the workers' additions to *counters
  tbb::parallel_for(tbb::blocked_range<size_t>(0, graph.files.size(),
                                                files_per_task(graph.files.size())),
                    [&](const tbb::blocked_range<size_t>& range) {
                      BlockScratch scratch;
                      for (size_t f = range.begin(); f != range.end(); ++f) {
                        plans[f] = render_file(index, f, policy, scratch);
                      }
                      if (counters != nullptr) {
                        const sync::MutexLock lock(counters_mutex);
                        counters->add(scratch.counters);
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
