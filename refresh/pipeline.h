// The analysis half of every command (mount, refresh, export, render, stats, graph): options,
// analysis, view choice, tag plans and the one summary line, in one place.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/source_tree.h"
#include "cache/lmdb_fact_cache.h"
#include "render/laid_out_plans.h"
#include "render/plan_map.h"
#include "render/plans_again.h"
#include "render/tag_plan.h"
#include "render/view.h"

namespace anchorfs::refresh {

class ViewPrefetch;

struct PipelineOptions {
  render::ViewOptions view;
  unsigned threads = 0;                   // 0: all cores
  cache::LmdbFactCache* cache = nullptr;  // optional; flushed after every analysis
  // Files parsed so far / total, from analysis worker threads.
  std::function<void(size_t done, size_t total)> on_progress;
  // Also build the plan maps traces need (mount --trace); analyses even under view none, so a
  // baseline trace still maps reads to definitions.
  bool plan_maps = false;
  // Kept by a caller that analyses one tree again and again (the refresher): see
  // AnalysisOptions::survey_memo.
  analysis::SurveyMemo* survey_memo = nullptr;
  // Likewise: see AnalysisOptions::resolution_memo.
  analysis::ResolutionMemo* resolution_memo = nullptr;
  // Likewise: see AnalysisOptions::facts_memo.
  analysis::FactsMemo* facts_memo = nullptr;
  // Likewise: see AnalysisOptions::buffers.
  analysis::GraphBuffers* graph_buffers = nullptr;
  // Neither the rendered view, the graph nor the facts the analysis made are written to the
  // cache here: Prepared::unsaved_view, Analysis::graph_record_owed and Analysis::facts_owed say
  // what the caller keeps once it is idle (SnapshotBuilder::keep_records, which flushes the
  // cache), off the latency path.
  bool defer_records = false;
  // The view the caller serves now, rendered from the graph it keeps: files whose plans cannot
  // have changed keep theirs (render/plans_again.h). Null: every file is rendered.
  const render::RenderedView* previous = nullptr;
  // The analysis `previous` was rendered from (see AnalysisOptions::previous). Null: none.
  const analysis::Analysis* previous_analysis = nullptr;
  // The view record copied while the tree was scanned (view_prefetch.h): used when its key is the
  // one this survey computes, else the record is loaded here. Null: loaded here.
  ViewPrefetch* prefetch = nullptr;
  // See AnalysisOptions::sources.
  const std::vector<analysis::SourceFile>* sources = nullptr;
};

// What analysis needs to serve `view`: nothing under view none (it tags nothing), the dense
// facts only for the dense view (the one view that shows them; about 15% of extraction).
bool view_needs_analysis(const render::ViewOptions& view);
bool view_needs_dense(const render::ViewOptions& view);

// The analysis options every command uses: the renderer's own tag-block check keeps files that
// already hold blocks unchanged.
analysis::AnalysisOptions analysis_options(const PipelineOptions& options, bool dense);

// Analyses `tree` whatever the view (the graph and stats commands report the graph itself) and
// flushes the cache. When records came from the remote tier, every anchor of the result is checked
// against the repository's bytes first (analysis/anchor_check.h); a misfit rejects them
// (LmdbFactCache::reject_remote) and the tree is analysed again without them.
analysis::Analysis analyse(const analysis::SourceTree& tree, const PipelineOptions& options,
                           bool dense);

struct Prepared {
  bool analysed = false;  // false under view none: nothing was analysed
  // Empty graph when !analysed (stats.source_files still set) or when the rendered view came
  // from the cache (view_record.h; then only its key is set); the counts below are set either
  // way.
  analysis::Analysis analysis;
  size_t analysed_files = 0;
  size_t entities = 0;
  size_t edges = 0;
  render::ViewChoice choice;  // only its reason when the view came from the cache
  bool from_view_record = false;  // the plans were loaded whole (view_record.h): no graph
  size_t rendered_files = 0;      // plans rendered here (the others were kept from `previous`)
  // Non-empty plans, by path, laid out as snapshots serve them (never null).
  std::shared_ptr<const render::LaidOutPlans> plans = std::make_shared<const render::LaidOutPlans>();
  render::PlanMapsByPath maps;  // with options.plan_maps only
  // With options.defer_records: the key the rendered view may be kept under (view_record.h).
  std::optional<analysis::ResolutionKey> unsaved_view;
  // The key of the view these plans are (loaded or rendered; none when the analysis has no key).
  std::optional<analysis::ResolutionKey> served_view;
  bool view_prefetched = false;  // loaded from the record options.prefetch copied
};

// Analyses `tree` as options.view needs (not at all for view none unless plan maps are asked
// for), chooses the view and renders every file's tag plan (and plan map). With a cache, the
// rendered view of an unchanged tree is loaded whole instead (view_record.h), and a view
// rendered here is kept for the next run (or left to the caller: defer_records).
Prepared prepare(const analysis::SourceTree& tree, const PipelineOptions& options);

// The analysis a view loaded whole from its record (Prepared::from_view_record) was rendered
// from, made again from the facts (never loaded whole) so that options' memos hold what a refresh
// reuses: a refresher primes itself with it once that view is served, and its first refresh then
// renders only what changed. Nullopt when `tree` no longer keys `served_view` (it changed since)
// or the result could not be keyed (a file changed under it). Writes no record; what it parsed
// (facts the cache had lost) is left for the caller's next flush.
std::optional<analysis::Analysis> analyse_behind_view(const analysis::SourceTree& tree,
                                                      const PipelineOptions& options,
                                                      const analysis::ResolutionKey& served_view);

// The tag plan of `path` (repository-relative), or nullopt when the file is served unchanged.
std::optional<render::TagPlan> find_plan(const render::LaidOutPlans& plans, const std::string& path);

// What the summary line says about one run of the pipeline.
struct RunSummary {
  bool analysed = false;
  analysis::AnalysisStats stats;
  size_t untagged = 0;  // source files served unchanged (skipped), for any reason
  size_t entities = 0;
  size_t edges = 0;
  std::string view_reason;
};

RunSummary summarize(const Prepared& prepared);

// One line for logs, summaries and mount messages: "N source files (P parsed, S untagged,
// C from cache), E entities, L edges; <view reason>; T s"; "(graph from cache, ...)" on a whole
// analysis cache hit; "N source files (not analysed: <reason>); T s" under view none.
std::string summary_line(const RunSummary& run, double seconds);

}  // namespace anchorfs::refresh
