// Repository statistics for `anchorfs stats`: graph shape, hubs, auto's choice, tag cost per view.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/graph.h"
#include "analysis/source_tree.h"
#include "render/block.h"
#include "render/coverage.h"
#include "render/tag_plan.h"
#include "render/token_count.h"
#include "render/view.h"

namespace anchorfs::render {

inline constexpr size_t kRelationCount = 11;  // analysis::Relation::Registers + 1

// A view and style (and budget) and the plans rendered under it (one plan per graph.files entry).
struct ViewPlans {
  View requested = View::Topo;       // as asked (may be Auto)
  std::optional<double> budget;      // --tag-budget applied to this row
  ViewChoice choice;                 // what it resolved to
  std::vector<TagPlan> plans;
  LinkCounters links;                // what ranking and caps did
  std::optional<WordCoverage> coverage;  // of paper's words, for styles other than paper
};

// Extra tokens an agent reads with a whole tagged file, over the files with tags.
struct TokenSpread {
  uint64_t median = 0;
  uint64_t p90 = 0;
  uint64_t max = 0;
};

// What one view costs: tag bytes and tokens added, as shares of the analysed sources.
struct ViewCost {
  View requested = View::Topo;   // as asked (may be Auto)
  std::optional<double> budget;  // the tag budget asked for this row (percent), if any
  ViewChoice choice;             // what it resolved to
  uint64_t tag_bytes = 0;        // sum of TagPlan::added_bytes over all files
  size_t tagged_files = 0;       // files with a non-empty plan
  size_t blocks = 0;             // tag blocks written
  double share = 0;              // tag_bytes / source_bytes (0 when source_bytes is 0)
  uint64_t tag_tokens = 0;       // tokens of the inserted text (0 without a token counter)
  double token_share = 0;        // tag_tokens / source_tokens
  TokenSpread per_file;          // extra tokens per tagged file
  LinkCounters links;
  std::optional<WordCoverage> coverage;  // of paper's words (rows of other styles)
  std::optional<double> vs_paper;  // tag_bytes / the paper row's (same request), other styles
};

struct Hub {
  std::string id;
  size_t in_degree = 0;  // distinct resolved callers
};

// One language's share of the repository: its files, definitions, the edges leaving its entities
// and the tag bytes each view row adds to its files.
struct LanguageStats {
  std::string name;  // the front end's name (analysis::FileInfo::language)
  size_t files = 0;
  size_t taggable_files = 0;
  uint64_t source_bytes = 0;
  size_t classes = 0;
  size_t functions = 0;
  std::array<size_t, kRelationCount> edges{};  // by analysis::Relation, counted at `from`
  std::vector<uint64_t> tag_bytes;             // per row of RepoStats::views
};

struct RepoStats {
  // Files
  size_t files = 0;           // analysed source files (graph.files)
  size_t taggable_files = 0;  // of which parsed cleanly
  // Taggable files whose trees have syntax errors (analysis/error_regions.h), their entities
  // (the files' own included) and how many of those still have an anchor: the ones tagged.
  size_t files_with_errors = 0;
  size_t error_file_entities = 0;
  size_t error_file_entities_anchored = 0;
  size_t lines = 0;           // AnalysisStats::lines
  uint64_t source_bytes = 0;  // bytes of the analysed source files

  // Entities and edges
  size_t file_entities = 0;
  size_t classes = 0;
  size_t functions = 0;
  std::array<size_t, kRelationCount> edges{};   // by analysis::Relation
  std::array<size_t, kRelationCount> labels{};  // by analysis::Relation

  // Call graph shape (the inputs of auto's rule; see docs/views.md)
  size_t callers = 0;               // entities with at least one resolved outgoing call
  double mean_call_out_degree = 0;  // call edges / callers
  size_t max_call_out_degree = 0;
  std::string max_call_out_id;  // an entity reaching the max (smallest id), "" if none
  size_t hub_threshold = 0;     // in-degree above which an entity is a hub
  size_t hubs = 0;              // entities with call in-degree > hub_threshold
  double hub_share = 0;         // hubs / entities taking part in any call edge
  double hub_call_share = 0;    // share of call edges that land on a hub
  std::vector<Hub> top_hubs;    // highest in-degree first, then by id; at most 10

  ViewChoice auto_choice;       // what `auto` picks for this graph (with the given options)
  std::string tokenizer;        // what counted tokens ("" when none did)
  uint64_t source_tokens = 0;   // tokens of the analysed source files
  std::vector<ViewCost> views;  // in the order given
  std::vector<LanguageStats> languages;  // by name
};

// What `stats` renders: views x styles, each without a budget and, when `budget` is set, with it.
struct StatsRequest {
  std::vector<View> views;    // default: topo, inv, dense, auto
  std::vector<Style> styles;  // default: paper, lean
  std::optional<double> budget;
};

// How tokens are counted for stats: the counter and the sources' own token count.
struct TokenInput {
  const TokenCounter* counter = nullptr;  // nullptr: no token counts
  uint64_t source_tokens = 0;
};

// Sum of the sizes (from the scan) of the files listed in graph.files.
uint64_t source_bytes(const analysis::SourceTree& tree, const analysis::Graph& graph);

// Renders `graph` for every row of `request` (options other than view, style and budget taken
// from `options`).
std::vector<ViewPlans> render_views(const analysis::Graph& graph, const ViewOptions& options,
                                    const StatsRequest& request);

// The statistics; `options` gives max_links/hub_threshold for auto's choice.
RepoStats compute_stats(const analysis::Graph& graph, const analysis::AnalysisStats& analysis_stats,
                        uint64_t source_bytes, const ViewOptions& options,
                        const std::vector<ViewPlans>& views, const TokenInput& tokens = {});

// Convenience for the CLI: render_views(graph, options, request), then the above.
RepoStats compute_stats(const analysis::Graph& graph, const analysis::AnalysisStats& analysis_stats,
                        uint64_t source_bytes, const ViewOptions& options,
                        const StatsRequest& request = {}, const TokenInput& tokens = {});

// A human-readable table (several lines, ends with a newline).
std::string format_table(const RepoStats& stats);

// The JSON document described in docs/views.md (pretty-printed, ends with a newline).
std::string format_json(const RepoStats& stats);

}  // namespace anchorfs::render
