// The analysis half of every command: scan, analyse, choose the view, render the tag plans.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/source_tree.h"
#include "cache/lmdb_fact_cache.h"
#include "render/tag_plan.h"
#include "render/view.h"

namespace anchorfs::cli {

struct PipelineOptions {
  render::ViewOptions view;
  unsigned threads = 0;                             // 0: all cores
  cache::LmdbFactCache* cache = nullptr;            // optional; flushed after the analysis
  std::function<void(size_t, size_t)> on_progress;  // from worker threads
  bool dense_facts = true;  // extract the dense view's facts (about 15% of extraction)
};

struct Analysed {
  analysis::SourceTree tree;
  analysis::Analysis analysis;
};

struct Prepared {
  analysis::SourceTree tree;
  analysis::Analysis analysis;
  render::ViewChoice choice;
  render::PlansByPath plans;  // non-empty plans, by path
  double seconds = 0;         // scan to plans, wall clock
};

// Scans and analyses `repo` (a canonical directory path); options.view is not used.
Analysed analyse_repo(const std::string& repo, const PipelineOptions& options);

// Scans, analyses, chooses the view and renders every file's tag plan. Dense facts are
// extracted only for the dense view, the one view that shows them.
Prepared prepare(const std::string& repo, const PipelineOptions& options);

// The tag plan of `path` (repository-relative), or nullptr when the file is served unchanged.
const render::TagPlan* find_plan(const Prepared& prepared, const std::string& path);

// "N files (S skipped), E entities, L edges; view V (reason); T s" for summaries.
std::string summary(const Prepared& prepared);

}  // namespace anchorfs::cli
