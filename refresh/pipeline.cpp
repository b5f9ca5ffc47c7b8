// scan_tree -> analyze (as the view needs) -> choose_view -> render_plans, and its summary line.
#include "refresh/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/anchor_check.h"
#include "analysis/language.h"
#include "analysis/source_files.h"
#include "analysis/survey.h"
#include "render/graph_index.h"
#include "refresh/view_prefetch.h"
#include "refresh/view_record.h"

namespace anchorfs::refresh {

bool view_needs_analysis(const render::ViewOptions& view) {
  return view.view != render::View::None;
}

bool view_needs_dense(const render::ViewOptions& view) {
  return view.view == render::View::Dense;
}

analysis::AnalysisOptions analysis_options(const PipelineOptions& options, bool dense) {
  analysis::AnalysisOptions result;
  result.threads = options.threads;
  result.cache = options.cache;
  result.on_progress = options.on_progress;
  result.dense = dense;
  result.survey_memo = options.survey_memo;
  result.resolution_memo = options.resolution_memo;
  result.facts_memo = options.facts_memo;
  result.buffers = options.graph_buffers;
  result.defer_graph_record = options.defer_records;
  result.defer_fact_records = options.defer_records;
  result.previous = options.previous_analysis;
  result.sources = options.sources;
  result.survey_in_parse = true;
  result.keep_unchanged = [](const analysis::LanguageFrontEnd&, std::string_view bytes) {
    return render::has_tag_delimiter(bytes);
  };
  return result;
}

namespace {

// analyse() without the flush: prepare() adds its rendered view to the same commit.
// `whole_from_cache` false: see AnalysisOptions::whole_from_cache.
// `entity_index`, when given, receives the render's index of the result's entities
// (GraphIndex::WithoutEdges) when they were resolved here, built beside the resolution
// (AnalysisOptions::beside_resolution); it is left empty when the graph came whole from the cache.
analysis::Analysis analyse_unflushed(const analysis::SourceTree& tree,
                                     const PipelineOptions& options, bool dense,
                                     analysis::Survey survey, bool whole_from_cache = true,
                                     std::optional<render::GraphIndex>* entity_index = nullptr) {
  analysis::AnalysisOptions analysis_options_now = analysis_options(options, dense);
  analysis_options_now.whole_from_cache = whole_from_cache;
  if (entity_index != nullptr) {
    analysis_options_now.beside_resolution = [entity_index](const analysis::Graph& graph) {
      entity_index->emplace(graph, render::GraphIndex::WithoutEdges{});
    };
  }
  analysis::Analysis result = analysis::analyze(tree, analysis_options_now, std::move(survey));
  if (options.cache != nullptr && options.cache->took_remote()) {
    // What another machine computed is used only once its anchors fit these very bytes (tags are
    // spliced there): else it is dropped, the remote tier turned off, and the analysis made here.
    if (const std::optional<std::string> misfit = analysis::misplaced_anchor(
            tree.root, result.graph, analysis_options_now.max_file_bytes)) {
      options.cache->reject_remote(*misfit);
      if (entity_index != nullptr) entity_index->reset();  // of the graph dropped here
      result = analysis::analyze(tree, analysis_options_now);
    }
  }
  return result;
}

// The view cached for the analysis `survey` keys, when there is one.
std::optional<Prepared> cached_view(const PipelineOptions& options,
                                    const analysis::Survey& survey) {
  if (options.cache == nullptr || options.plan_maps || !survey.key) return std::nullopt;
  const analysis::ResolutionKey key = view_key(*survey.key, options.view);
  std::optional<std::string> stored;
  if (options.prefetch != nullptr) stored = options.prefetch->take(key);
  const bool prefetched = stored.has_value();
  if (!stored) stored = options.cache->load_derived(key);
  if (!stored) return std::nullopt;
  std::optional<Prepared> view = decode_view(std::move(*stored));
  if (!view || view->analysis.stats.source_files != survey.sources.size()) return std::nullopt;
  view->analysis.stats.parse_seconds = survey.seconds;
  view->analysis.stats.survey_reads = survey.read;
  view->from_view_record = true;
  // The analysis the record was rendered from, with no graph: a caller may find what that
  // analysis kept under its key (analysis/kept_memory.h).
  view->analysis.key = survey.key;
  view->served_view = key;
  view->view_prefetched = prefetched;
  analysis::keep_survey(*options.cache, survey);
  return view;
}

}  // namespace

analysis::Analysis analyse(const analysis::SourceTree& tree, const PipelineOptions& options,
                           bool dense) {
  const analysis::AnalysisOptions analysis_options_now = analysis_options(options, dense);
  analysis::Analysis result =
      analyse_unflushed(tree, options, dense, analysis::survey(tree, analysis_options_now));
  if (options.cache != nullptr) options.cache->flush();
  return result;
}

Prepared prepare(const analysis::SourceTree& tree, const PipelineOptions& options) {
  Prepared prepared;
  std::optional<render::GraphIndex> entity_index;
  prepared.analysed = view_needs_analysis(options.view) || options.plan_maps;
  if (prepared.analysed) {
    const bool dense = view_needs_dense(options.view);
    analysis::Survey survey = analysis::survey(tree, analysis_options(options, dense));
    if (std::optional<Prepared> cached = cached_view(options, survey)) {
      // Deferred, the survey and what was used are committed by keep_records, not before the
      // view is served (a commit and its fsync).
      if (!options.defer_records) options.cache->flush();
      return std::move(*cached);
    }
    // Every file will be rendered: the render's index of the entities is built while the graph's
    // edges are resolved, on the core the resolution leaves idle (a cold sympy mount: ~20 ms
    // of a serial step between the resolution and the render).
    const bool render_all = options.previous == nullptr && !options.plan_maps &&
                            options.view.view != render::View::None;
    prepared.analysis = analyse_unflushed(tree, options, dense, std::move(survey), true,
                                          render_all ? &entity_index : nullptr);
  } else {
    prepared.analysis.stats.source_files = options.sources != nullptr
                                               ? options.sources->size()
                                               : analysis::select_sources(tree).size();
  }
  const analysis::Graph& graph = prepared.analysis.graph;
  prepared.analysed_files = graph.files.size();
  prepared.entities = graph.entities.size();
  prepared.edges = graph.edges.size();
  prepared.choice = render::choose_view(graph, options.view);
  prepared.plans =
      render::lay_out_plans(graph, prepared.choice, options.previous, &prepared.rendered_files,
                            entity_index ? &*entity_index : nullptr);
  if (options.plan_maps) prepared.maps = render::plan_maps_by_path(graph, prepared.choice);
  if (options.cache != nullptr && prepared.analysis.key && !options.plan_maps) {
    const analysis::ResolutionKey key = view_key(*prepared.analysis.key, options.view);
    prepared.served_view = key;
    if (options.defer_records) {
      prepared.unsaved_view = key;
    } else {
      options.cache->store_derived(key, encode_view(view_parts(prepared)));
    }
  }
  // Deferred, the facts this analysis made are committed with the records (one LMDB commit and
  // its fsync, about a second on the kernel) once the view is served.
  if (options.cache != nullptr && prepared.analysed && !options.defer_records) {
    options.cache->flush();
  }
  return prepared;
}

std::optional<analysis::Analysis> analyse_behind_view(const analysis::SourceTree& tree,
                                                      const PipelineOptions& options,
                                                      const analysis::ResolutionKey& served_view) {
  const bool dense = view_needs_dense(options.view);
  analysis::AnalysisOptions analysis_options_now = analysis_options(options, dense);
  analysis_options_now.survey_in_parse = false;  // the served view's key is wanted first
  analysis::Survey survey = analysis::survey(tree, analysis_options_now);
  if (!survey.key || !(view_key(*survey.key, options.view) == served_view)) return std::nullopt;
  PipelineOptions from_facts = options;
  from_facts.defer_records = true;  // the graph record is the view's own, stored with it or not
  analysis::Analysis analysis = analyse_unflushed(tree, from_facts, dense, std::move(survey), false);
  if (!analysis.key) return std::nullopt;
  analysis.graph_record_owed = false;
  return analysis;
}

std::optional<render::TagPlan> find_plan(const render::LaidOutPlans& plans,
                                         const std::string& path) {
  const render::LaidOutPlan* plan = plans.find(path);
  if (plan == nullptr) return std::nullopt;
  return plan->plan();
}

RunSummary summarize(const Prepared& prepared) {
  RunSummary run;
  run.analysed = prepared.analysed;
  run.stats = prepared.analysis.stats;
  run.untagged = prepared.analysis.skipped.size();
  run.entities = prepared.entities;
  run.edges = prepared.edges;
  run.view_reason = prepared.choice.reason;
  return run;
}

std::string summary_line(const RunSummary& run, double seconds) {
  if (!run.analysed) {
    return fmt::format("{} source files (not analysed: {}); {:.2f} s", run.stats.source_files,
                       run.view_reason, seconds);
  }
  // A graph cache hit loaded no per-file facts at all: say so rather than "N from cache", and
  // how many sources the survey had to read to know it (none when their stat told).
  std::string how = run.stats.graph_from_cache
                        ? fmt::format("graph from cache, {} read", run.stats.survey_reads)
                        : fmt::format("{} parsed", run.stats.parsed);
  if (run.untagged > 0) how += fmt::format(", {} untagged", run.untagged);
  if (!run.stats.graph_from_cache && run.stats.from_cache > 0) {
    how += fmt::format(", {} from cache", run.stats.from_cache);
  }
  return fmt::format("{} source files ({}), {} entities, {} edges; {}; {:.2f} s",
                     run.stats.source_files, how, run.entities, run.edges, run.view_reason,
                     seconds);
}

}  // namespace anchorfs::refresh
