// scan_tree -> analyze -> choose_view -> render_plans, timed, with plans keyed by path.
#include "cli/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "cli/cli_error.h"

namespace anchorfs::cli {

Analysed analyse_repo(const std::string& repo, const PipelineOptions& options) {
  Analysed analysed;
  try {
    analysed.tree = analysis::scan_tree(repo);
  } catch (const std::exception& error) {
    throw CliError("", error.what());
  }
  analysis::AnalysisOptions analysis_options;
  analysis_options.threads = options.threads;
  analysis_options.keep_unchanged = render::has_tag_delimiter;
  analysis_options.cache = options.cache;
  analysis_options.on_progress = options.on_progress;
  analysis_options.dense = options.dense_facts;
  analysed.analysis = analysis::analyze(analysed.tree, analysis_options);
  if (options.cache != nullptr) options.cache->flush();
  return analysed;
}

Prepared prepare(const std::string& repo, const PipelineOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Prepared prepared;
  PipelineOptions analysis_options = options;
  analysis_options.dense_facts = options.view.view == render::View::Dense;
  Analysed analysed = analyse_repo(repo, analysis_options);
  prepared.tree = std::move(analysed.tree);
  prepared.analysis = std::move(analysed.analysis);

  const analysis::Graph& graph = prepared.analysis.graph;
  prepared.choice = render::choose_view(graph, options.view);
  prepared.plans = render::plans_by_path(graph, prepared.choice);
  prepared.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return prepared;
}

const render::TagPlan* find_plan(const Prepared& prepared, const std::string& path) {
  auto it =
      std::lower_bound(prepared.plans.begin(), prepared.plans.end(), path,
                       [](const auto& entry, const std::string& key) { return entry.first < key; });
  if (it == prepared.plans.end() || it->first != path) return nullptr;
  return &it->second;
}

std::string summary(const Prepared& prepared) {
  const analysis::Analysis& result = prepared.analysis;
  std::string skipped;
  if (!result.skipped.empty())
    skipped = fmt::format(" ({} served untagged)", result.skipped.size());
  std::string cached;
  if (result.stats.graph_from_cache) {
    cached = ", graph from cache";
  } else if (result.stats.from_cache > 0) {
    cached = fmt::format(", {} from cache", result.stats.from_cache);
  }
  return fmt::format("{} source files{}{}, {} entities, {} edges; {}; {:.2f} s",
                     result.stats.source_files, skipped, cached, result.graph.entities.size(),
                     result.graph.edges.size(), prepared.choice.reason, prepared.seconds);
}

}  // namespace anchorfs::cli
