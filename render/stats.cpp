// Computing repository statistics: graph shape, hubs, auto's choice and per-view tag cost.
#include "render/stats.h"

#include <sys/stat.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "render/delimiter.h"
#include "render/graph_index.h"
#include "render/render_index.h"
#include "render/sanitize.h"

namespace anchorfs::render {

using analysis::EntityIndex;
using analysis::EntityKind;
using analysis::Relation;

namespace {

constexpr size_t kTopHubs = 10;

// Two delimiter lines per paper block, one header line per lean block.
size_t count_blocks(const std::vector<TagPlan>& plans) {
  size_t delimiters = 0;
  size_t headers = 0;
  for (const TagPlan& plan : plans) {
    for (const Insertion& insertion : plan.insertions) {
      std::string_view text = insertion.text;
      size_t pos = 0;
      while (pos < text.size()) {
        size_t end = text.find_first_of("\r\n", pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (delimiter_kind(line)) ++delimiters;
        if (is_lean_header(line)) ++headers;
        pos = end + 1;
      }
    }
  }
  return delimiters / 2 + headers;
}

// Tokens of each file's inserted text (every block is whole lines at line starts), their sum and
// spread over the files with tags.
void count_tokens(const std::vector<TagPlan>& plans, const TokenCounter& counter, ViewCost& cost) {
  std::vector<uint64_t> per_file(plans.size(), 0);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, plans.size(), 8),
                    [&](const tbb::blocked_range<size_t>& range) {
                      for (size_t f = range.begin(); f != range.end(); ++f) {
                        for (const Insertion& insertion : plans[f].insertions) {
                          per_file[f] += counter.count(insertion.text);
                        }
                      }
                    });
  std::vector<uint64_t> tagged;
  for (size_t f = 0; f < plans.size(); ++f) {
    cost.tag_tokens += per_file[f];
    if (!plans[f].insertions.empty()) tagged.push_back(per_file[f]);
  }
  if (tagged.empty()) return;
  std::sort(tagged.begin(), tagged.end());
  auto at = [&](double q) {
    return tagged[std::min(tagged.size() - 1, static_cast<size_t>(q * static_cast<double>(tagged.size())))];
  };
  cost.per_file = {at(0.5), at(0.9), tagged.back()};
}

}  // namespace

namespace {

// Per-language rows: each file's language, counted over its entities, the edges leaving them and
// the tag bytes its plans add.
std::vector<LanguageStats> language_stats(const analysis::Graph& graph,
                                          const std::vector<ViewPlans>& views) {
  std::map<std::string, LanguageStats> by_name;
  std::unordered_map<EntityIndex, LanguageStats*> of_file;
  for (size_t i = 0; i < graph.files.size(); ++i) {
    const analysis::FileInfo& info = graph.files[i];
    LanguageStats& language = by_name[info.language];
    language.name = info.language;
    language.tag_bytes.resize(views.size());
    ++language.files;
    language.taggable_files += info.taggable;
    language.source_bytes += info.size;
    for (size_t v = 0; v < views.size(); ++v) {
      if (i < views[v].plans.size()) language.tag_bytes[v] += views[v].plans[i].added_bytes();
    }
    of_file[info.entity] = &language;
  }
  auto language_of = [&](EntityIndex e) -> LanguageStats* {
    if (e >= graph.entities.size()) return nullptr;
    auto found = of_file.find(graph.entities[e].file);
    return found == of_file.end() ? nullptr : found->second;
  };
  for (EntityIndex e = 0; e < graph.entities.size(); ++e) {
    LanguageStats* language = language_of(e);
    if (language == nullptr) continue;
    language->classes += graph.entities[e].kind == EntityKind::Class;
    language->functions += graph.entities[e].kind == EntityKind::Function;
  }
  for (const analysis::Edge& edge : graph.edges) {
    const auto relation = static_cast<size_t>(edge.relation);
    if (relation >= kRelationCount) continue;
    if (LanguageStats* language = language_of(edge.from)) ++language->edges[relation];
  }
  std::vector<LanguageStats> result;
  for (auto& [name, language] : by_name) result.push_back(std::move(language));
  return result;
}

}  // namespace

uint64_t source_bytes(const analysis::SourceTree& tree, const analysis::Graph& graph) {
  std::unordered_set<std::string_view> paths;
  for (const analysis::FileInfo& info : graph.files) {
    if (info.entity < graph.entities.size()) paths.insert(graph.entities[info.entity].name);
  }
  uint64_t total = 0;
  for (const analysis::TreeEntry& entry : tree.entries) {
    if (S_ISREG(entry.mode) && paths.contains(entry.path)) total += entry.size;
  }
  return total;
}

std::vector<ViewPlans> render_views(const analysis::Graph& graph, const ViewOptions& options,
                                    const StatsRequest& request) {
  std::vector<View> views = request.views;
  if (views.empty()) views = {View::Topo, View::Inv, View::Dense, View::Auto};
  std::vector<Style> styles = request.styles;
  if (styles.empty()) styles = {Style::Paper, Style::Lean};
  std::vector<std::optional<double>> budgets = {std::nullopt};
  if (request.budget) budgets.push_back(request.budget);
  GraphIndex index(graph);
  std::vector<ViewPlans> result;
  for (View view : views) {
    for (Style style : styles) {
      for (const std::optional<double>& budget : budgets) {
        ViewOptions requested = options;
        requested.view = view;
        requested.style = style;
        requested.tag_budget = budget;
        ViewPlans plans;
        plans.requested = view;
        plans.budget = budget;
        plans.choice = choose_view(graph, requested);
        plans.plans = render_plans(index, plans.choice, &plans.links);
        if (style != Style::Paper) plans.coverage = word_coverage(index, plans.choice);
        result.push_back(std::move(plans));
      }
    }
  }
  return result;
}

RepoStats compute_stats(const analysis::Graph& graph, const analysis::AnalysisStats& analysis_stats,
                        uint64_t source_bytes, const ViewOptions& options,
                        const std::vector<ViewPlans>& views, const TokenInput& tokens) {
  RepoStats stats;
  stats.languages = language_stats(graph, views);
  const size_t n = graph.entities.size();
  stats.files = graph.files.size();
  stats.taggable_files = static_cast<size_t>(std::count_if(
      graph.files.begin(), graph.files.end(), [](const auto& info) { return info.taggable; }));
  stats.lines = analysis_stats.lines;
  stats.source_bytes = source_bytes;
  for (const analysis::FileInfo& info : graph.files) {
    if (!info.taggable || info.error_regions == 0) continue;
    ++stats.files_with_errors;
    for (size_t e = info.entity; e < n && graph.entities[e].file == info.entity; ++e) {
      ++stats.error_file_entities;
      stats.error_file_entities_anchored += graph.entities[e].anchor.has_value();
    }
  }

  for (const analysis::Entity& entity : graph.entities) {
    switch (entity.kind) {
      case EntityKind::File:
        ++stats.file_entities;
        break;
      case EntityKind::Class:
        ++stats.classes;
        break;
      case EntityKind::Function:
        ++stats.functions;
        break;
    }
  }

  std::vector<uint32_t> call_in(n, 0);
  std::vector<bool> in_call_graph(n, false);
  for (const analysis::Edge& edge : graph.edges) {
    auto relation = static_cast<size_t>(edge.relation);
    if (relation >= kRelationCount || edge.from >= n || edge.to >= n) continue;
    ++stats.edges[relation];
    if (edge.relation == Relation::Calls) {
      ++call_in[edge.to];
      in_call_graph[edge.from] = in_call_graph[edge.to] = true;
    }
  }
  for (const analysis::Label& label : graph.labels) {
    auto relation = static_cast<size_t>(label.relation);
    if (relation < kRelationCount && label.entity < n) ++stats.labels[relation];
  }

  CallShape shape = call_shape(graph);
  stats.callers = shape.callers;
  stats.mean_call_out_degree = shape.mean_out_degree;
  stats.max_call_out_degree = shape.max_out_degree;
  stats.hub_threshold = options.hub_threshold.value_or(kHubDegree);

  std::vector<std::string> ids(n);
  auto id_of = [&](EntityIndex e) -> const std::string& {
    if (ids[e].empty()) ids[e] = escaped(graph.id(e));
    return ids[e];
  };
  // The smallest id among the entities reaching the maximum out-degree.
  if (shape.max_out_degree > 0) {
    std::vector<uint32_t> out_degree(n, 0);
    for (const analysis::Edge& edge : graph.edges) {
      if (edge.relation == Relation::Calls && edge.from < n && edge.to < n) ++out_degree[edge.from];
    }
    for (size_t e = 0; e < n; ++e) {
      if (out_degree[e] != shape.max_out_degree) continue;
      const std::string& id = id_of(static_cast<EntityIndex>(e));
      if (stats.max_call_out_id.empty() || id < stats.max_call_out_id) stats.max_call_out_id = id;
    }
  }

  size_t participants = 0;
  size_t calls_into_hubs = 0;
  std::vector<Hub> hubs;
  for (size_t e = 0; e < n; ++e) {
    if (in_call_graph[e]) ++participants;
    if (call_in[e] > stats.hub_threshold) {
      ++stats.hubs;
      calls_into_hubs += call_in[e];
      hubs.push_back({id_of(static_cast<EntityIndex>(e)), call_in[e]});
    }
  }
  size_t call_edges = stats.edges[static_cast<size_t>(Relation::Calls)];
  if (participants > 0) {
    stats.hub_share = static_cast<double>(stats.hubs) / static_cast<double>(participants);
  }
  if (call_edges > 0) {
    stats.hub_call_share = static_cast<double>(calls_into_hubs) / static_cast<double>(call_edges);
  }
  std::sort(hubs.begin(), hubs.end(), [](const Hub& a, const Hub& b) {
    return a.in_degree != b.in_degree ? a.in_degree > b.in_degree : a.id < b.id;
  });
  if (hubs.size() > kTopHubs) hubs.resize(kTopHubs);
  stats.top_hubs = std::move(hubs);

  ViewOptions automatic = options;
  automatic.view = View::Auto;
  stats.auto_choice = choose_view(graph, automatic);

  if (tokens.counter != nullptr) {
    stats.tokenizer = tokens.counter->name();
    stats.source_tokens = tokens.source_tokens;
  }
  for (const ViewPlans& plans : views) {
    ViewCost cost;
    cost.requested = plans.requested;
    cost.budget = plans.budget;
    cost.choice = plans.choice;
    cost.links = plans.links;
    cost.coverage = plans.coverage;
    if (tokens.counter != nullptr) count_tokens(plans.plans, *tokens.counter, cost);
    if (stats.source_tokens > 0) {
      cost.token_share =
          static_cast<double>(cost.tag_tokens) / static_cast<double>(stats.source_tokens);
    }
    for (const TagPlan& plan : plans.plans) {
      uint64_t added = plan.added_bytes();
      cost.tag_bytes += added;
      if (added > 0) ++cost.tagged_files;
    }
    cost.blocks = count_blocks(plans.plans);
    if (source_bytes > 0) {
      cost.share = static_cast<double>(cost.tag_bytes) / static_cast<double>(source_bytes);
    }
    stats.views.push_back(std::move(cost));
  }
  for (ViewCost& cost : stats.views) {
    if (cost.choice.options.style == Style::Paper) continue;
    for (const ViewCost& paper : stats.views) {
      if (paper.choice.options.style == Style::Paper && paper.requested == cost.requested &&
          paper.budget == cost.budget && paper.tag_bytes > 0) {
        cost.vs_paper = static_cast<double>(cost.tag_bytes) / static_cast<double>(paper.tag_bytes);
      }
    }
  }
  return stats;
}

RepoStats compute_stats(const analysis::Graph& graph, const analysis::AnalysisStats& analysis_stats,
                        uint64_t source_bytes, const ViewOptions& options,
                        const StatsRequest& request, const TokenInput& tokens) {
  return compute_stats(graph, analysis_stats, source_bytes, options,
                       render_views(graph, options, request), tokens);
}

}  // namespace anchorfs::render
