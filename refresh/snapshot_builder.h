// Building a served snapshot from the repository as it is now: scan, analyse, render, lay out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/graph_buffers.h"
#include "analysis/source_survey.h"
#include "cache/lmdb_fact_cache.h"
#include "fs/git_view.h"
#include "fs/snapshot.h"
#include "render/plan_map.h"
#include "render/tag_plan.h"
#include "refresh/pipeline.h"
#include "render/view.h"

namespace anchorfs::refresh {

struct BuildOptions {
  std::string repo;  // canonical absolute path of the repository
  unsigned threads = 0;
  render::ViewOptions view;
  cache::LmdbFactCache* cache = nullptr;  // optional; flushed after every analysis
  // Give every snapshot the plan maps traces need (mount --trace); analyses even under view
  // none, so a baseline trace still maps reads to definitions.
  bool plan_maps = false;
  // Files parsed so far / total, from analysis worker threads, during the first build only (the
  // mount's start-up progress; refreshes report through the refresher's log instead).
  std::function<void(size_t done, size_t total)> on_progress;
  // Serve the repository's `.git` as the view's own (fs/git_view.h) with this filter command;
  // nullopt serves `.git` as scanned. The filter patterns are filled in from the source files.
  std::optional<fs::GitViewOptions> git_view;
  // A refresher will build again (a watching mount): each build keeps a copy of its scan, for the
  // next build to patch (build's `changed`) and for prime_in_background().
  bool will_refresh = false;
};

struct Built {
  std::shared_ptr<const fs::Snapshot> snapshot;
  bool changed = true;      // false: the whole tree is as in the previous build (same snapshot)
  bool reanalysed = false;  // false: no source file or directory changed, the plans were reused
  bool analysed = true;     // false under view none, which tags nothing: no analysis is run
  analysis::AnalysisStats stats;  // of the last analysis (the one whose plans are served)
  std::vector<analysis::SkippedFile> skipped_files;  // served untagged by that analysis, and why
  size_t entities = 0;
  size_t edges = 0;
  size_t analysed_files = 0;  // files in the graph
  size_t rendered_files = 0;  // plans rendered by this build (the others were kept)
  std::string view_reason;
  bool view_prefetched = false;  // the view record was copied while the tree was scanned
  double seconds = 0;  // this build, wall clock
};

// Thread-safety: build() from one thread at a time. The cache may be shared with other users.
class SnapshotBuilder {
 public:
  explicit SnapshotBuilder(BuildOptions options);
  ~SnapshotBuilder();  // waits for prime_in_background()'s work
  SnapshotBuilder(const SnapshotBuilder&) = delete;
  SnapshotBuilder& operator=(const SnapshotBuilder&) = delete;

  // Rescans the repository. When nothing at all changed since the previous build, returns the
  // previous snapshot with `changed` false. When the source files (path, size, times, inode) and
  // directories are as in the previous build, reuses its tag plans; otherwise analyses again
  // (unchanged file contents come from the cache) and renders. Throws std::exception on failure
  // (the repository vanished, a file changed under the scan so a plan no longer fits); the caller
  // retries. `on_directory` is handed to the scan (analysis::ScanOptions::on_directory).
  // `changed`: every repository-relative path changed since the previous build's scan started
  // (the watcher's events; null when not all are known): the tree is then that scan patched at
  // them (analysis/rescan_paths.h), no listing of the whole repository.
  Built build(const std::function<void(const std::string&, int)>& on_directory = {},
              const std::vector<std::string>* changed = nullptr);
  // Writes the last analysis's graph and rendered view to the cache (the graph record and
  // view_record.h) and what its resolution kept for the next (analysis/kept_memory.h: a later
  // mount's first refresh starts from it), those not there yet, names that view as the one this
  // repository served last (view_prefetch.h: the next mount's first build copies it while it
  // scans), and commits what build() left pending (the facts its analyses made): called once the
  // view is served and the tree is quiet, so neither a mount nor a refresh waits for them, and a
  // burst of refreshes writes only its last records (each is seconds on a large tree). From the
  // thread that calls build().
  void keep_records();

  // When the last build served a view loaded whole from the cache (a warm mount: no analysis
  // behind it, so the next refresh would load and resolve every file's facts and render every
  // file, seconds on the kernel), starts making that view's analysis again from the facts on a
  // thread of its own (refresh/pipeline.h, analyse_behind_view); the next refresh then starts
  // from it as from a refresh's own. Else does nothing. build() and keep_records() wait for it,
  // so call it once the view is served (the mount's first build needs none of it). Needs
  // BuildOptions::will_refresh.
  void prime_in_background();
  // Blocks until prime_in_background()'s work is done (benchmarks, tests).
  void wait_primed();

  // From now on, never enter directories on `device` (the mount serving this tree, should it be
  // reachable from inside it). Call between builds.
  void skip_device(uint64_t device) { skip_device_ = device; }

  // The last snapshot built was not published: the next build returns a snapshot (changed) even
  // when the tree is the same.
  void forget_published() { previous_tree_signature_ = {0, 0}; }

 private:
  void prime(const analysis::SourceTree& tree);
  // Keeps `analysis`'s deferred facts records for keep_records.
  void take_owed_facts(analysis::Analysis& analysis);

  BuildOptions options_;
  // The last build served a view record with no analysis behind it (BuildOptions::will_refresh).
  bool unprimed_ = false;
  // Runs prime(); the only thread touching the memos and previous_* until wait_primed().
  std::thread primer_;
  uint64_t skip_device_ = 0;
  // The last successful build's scan (before any .git graft), which build(changed) patches.
  std::optional<analysis::SourceTree> previous_scan_;
  // select_sources(*previous_scan_), set and reset with it: a scan patched without adding,
  // removing or retyping an entry selects the same sources (sizes aside) without a path sort.
  std::vector<analysis::SourceFile> previous_sources_;
  bool have_previous_ = false;
  bool progress_reported_ = false;
  std::pair<uint64_t, uint64_t> previous_signature_{0, 0};       // sources and directories
  std::pair<uint64_t, uint64_t> previous_tree_signature_{0, 0};  // every entry
  analysis::SurveyMemo survey_memo_;  // what the last analysis read, for the next to skip
  analysis::ResolutionMemo resolution_memo_;  // what the last resolution can lend the next
  analysis::FactsMemo facts_memo_;            // the last analysis's facts, decoded
  // The vectors of the analysis before previous_analysis_, emptied, which the next analysis
  // fills (its own would be fresh pages: on the kernel a third of a refresh's CPU).
  analysis::GraphBuffers graph_buffers_;
  std::shared_ptr<const render::LaidOutPlans> previous_plans_ =
      std::make_shared<const render::LaidOutPlans>();
  // The analysis and choice previous_plans_ were rendered from (the next renders only what
  // changed against them; its graph record may still be owed); none when the view was loaded
  // whole from the cache.
  std::optional<analysis::Analysis> previous_analysis_;
  render::ViewChoice previous_choice_;
  // The analysis key of previous_plans_ when they were loaded from a view record (no analysis
  // kept): the next analysis loads that graph record as previous_analysis_.
  std::optional<analysis::ResolutionKey> record_analysis_;
  std::optional<analysis::ResolutionKey> unsaved_view_;  // of previous_plans_
  // The facts records the analyses since the last keep_records made and deferred (each build's,
  // whether or not its analysis is still kept).
  std::vector<analysis::OwedFacts> owed_facts_;
  // The key of the view previous_plans_ are, which keep_records names as the one served last
  // (view_prefetch.h); none when their analysis had no key.
  std::optional<analysis::ResolutionKey> served_view_;
  size_t previous_analysed_files_ = 0;
  render::PlanMapsByPath previous_maps_;
  Built previous_;
};

// One line for logs and mount summaries: summary_line (refresh/pipeline.h) of the last analysis,
// or "no source changed, tags reused" when the plans were reused.
std::string describe(const Built& built);

}  // namespace anchorfs::refresh
