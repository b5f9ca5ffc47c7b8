// SnapshotBuilder: the scan -> analyse -> render -> snapshot pipeline, skipping analysis when the
// sources did not change.
#include "refresh/snapshot_builder.h"

#include <fmt/format.h>
#include <malloc.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <string_view>

#include "analysis/chunked_hash.h"
#include "analysis/rescan_paths.h"
#include "analysis/source_files.h"
#include "analysis/source_tree.h"
#include "analysis/graph_serialize.h"
#include "analysis/kept_memory.h"
#include "refresh/view_prefetch.h"
#include "refresh/view_record.h"

namespace anchorfs::refresh {

namespace {

struct Signatures {
  std::pair<uint64_t, uint64_t> sources;  // what analysis depends on
  std::pair<uint64_t, uint64_t> tree;     // everything a reader can see
};

// Sources: the path, identity and version of every file analysis would read (which also fixes
// the package structure that matters); other files may change freely without re-analysis.
// Tree: every entry's attributes as served (access times excepted: reads through the mount
// change them).
Signatures signatures(const analysis::SourceTree& tree,
                      const std::vector<analysis::SourceFile>& selected) {
  analysis::ChunkedXxh128 sources;
  analysis::ChunkedXxh128 all;
  for (const analysis::TreeEntry& entry : tree.entries) {
    const int64_t fields[] = {static_cast<int64_t>(entry.mode),
                              static_cast<int64_t>(entry.size),
                              entry.mtime_ns,
                              entry.ctime_ns,
                              static_cast<int64_t>(entry.inode),
                              static_cast<int64_t>(entry.nlink),
                              static_cast<int64_t>(entry.uid),
                              static_cast<int64_t>(entry.gid)};
    all.update(entry.path.data(), entry.path.size() + 1);  // with its NUL
    all.update(fields, sizeof fields);
    all.update(entry.symlink_target.data(), entry.symlink_target.size() + 1);
  }
  for (const analysis::SourceFile& source : selected) {
    const analysis::TreeEntry& entry = tree.entries[source.entry];
    const int64_t fields[] = {static_cast<int64_t>(entry.size), entry.mtime_ns, entry.ctime_ns,
                              static_cast<int64_t>(entry.inode)};
    sources.update(entry.path.data(), entry.path.size() + 1);
    sources.update(fields, sizeof fields);
  }
  return {sources.digest(), all.digest()};
}

// gitattributes patterns covering the files a front end claims: "*.ext" per extension, the exact
// path for a file without one.
std::vector<std::string> filter_patterns(const std::vector<analysis::SourceFile>& sources) {
  std::vector<std::string> patterns;
  for (const analysis::SourceFile& source : sources) {
    const std::string_view path = source.path;
    const std::string_view base = path.substr(path.rfind('/') + 1);
    const size_t dot = base.rfind('.');
    patterns.push_back(dot == std::string_view::npos || dot == 0
                           ? "/" + std::string(path)
                           : "*" + std::string(base.substr(dot)));
  }
  std::sort(patterns.begin(), patterns.end());
  patterns.erase(std::unique(patterns.begin(), patterns.end()), patterns.end());
  return patterns;
}

// Whether `patched` (rescan_paths of `before`, `origin` its entries' origins) has every entry of
// `before` at the same index and of the same type, and no other: then select_sources, which reads
// only the paths, types and nesting of entries, selects the same sources from both.
bool same_layout(const analysis::SourceTree& before, const analysis::SourceTree& patched,
                 const std::vector<uint32_t>& origin) {
  if (patched.entries.size() != before.entries.size() || origin.size() != patched.entries.size()) {
    return false;
  }
  for (size_t i = 0; i < origin.size(); ++i) {
    if (origin[i] != i || ((patched.entries[i].mode ^ before.entries[i].mode) & S_IFMT) != 0 ||
        patched.entries[i].parent != before.entries[i].parent) {
      return false;
    }
  }
  return true;
}

// The last selection, with each source's size as `tree` has it now.
std::vector<analysis::SourceFile> resized(std::vector<analysis::SourceFile> sources,
                                          const analysis::SourceTree& tree) {
  for (analysis::SourceFile& source : sources) source.size = tree.entries[source.entry].size;
  return sources;
}

// The analysis stored under `key` (its graph record), without facts: AnalysisOptions::previous
// then copies no entities, but the renderer compares graphs with it.
std::optional<analysis::Analysis> recorded_analysis(cache::LmdbFactCache& cache,
                                                    const analysis::ResolutionKey& key) {
  const std::optional<std::string> stored = cache.load_graph(key);
  if (!stored) return std::nullopt;
  return analysis::deserialize_analysis(*stored);
}

}  // namespace

SnapshotBuilder::SnapshotBuilder(BuildOptions options) : options_(std::move(options)) {}

SnapshotBuilder::~SnapshotBuilder() {
  wait_primed();
}

void SnapshotBuilder::wait_primed() {
  if (primer_.joinable()) primer_.join();
}

void SnapshotBuilder::prime_in_background() {
  wait_primed();
  if (!unprimed_ || !previous_scan_) return;
  unprimed_ = false;
  // The thread reads previous_scan_ and writes the memos and previous_*: build() and
  // keep_records() wait for it before touching them.
  primer_ = std::thread([this] {
    try {
      prime(*previous_scan_);
    } catch (const std::exception&) {
      // Nothing is lost: the next refresh analyses without it, as it would have unprimed.
    }
  });
}

void SnapshotBuilder::prime(const analysis::SourceTree& tree) {
  if (!served_view_ || previous_analysis_) return;
  PipelineOptions options;
  options.view = options_.view;
  options.threads = options_.threads;
  options.cache = options_.cache;
  options.survey_memo = &survey_memo_;
  options.resolution_memo = &resolution_memo_;
  options.facts_memo = &facts_memo_;
  options.graph_buffers = &graph_buffers_;
  std::optional<analysis::Analysis> analysis = analyse_behind_view(tree, options, *served_view_);
  if (!analysis) return;
  take_owed_facts(*analysis);
  // The first refresh would otherwise fill fresh pages (no analysis before this one to leave it
  // its buffers): made here, off its latency, as large as the refreshes after it keep.
  graph_buffers_.make_room_like(analysis->graph);
  // The served plans were rendered from this very graph (the record is keyed by its resolution
  // key), so the next refresh compares against it as against the graph of a refresh of its own.
  previous_choice_ = render::choose_view(analysis->graph, options_.view);
  previous_analysis_ = std::move(*analysis);
  ::malloc_trim(0);  // the resolution's scratch: the daemon lives on for hours
}

Built SnapshotBuilder::build(const std::function<void(const std::string&, int)>& on_directory,
                             const std::vector<std::string>* changed) {
  wait_primed();
  unprimed_ = false;
  const auto start = std::chrono::steady_clock::now();
  // A mount's first build: the view it served last is most likely the one this tree still keys,
  // and copying its record (hundreds of MB on the kernel) is as long as the scan; both at once.
  std::optional<ViewPrefetch> prefetch;
  if (!have_previous_ && options_.cache != nullptr && !options_.plan_maps &&
      view_needs_analysis(options_.view)) {
    prefetch.emplace(*options_.cache, options_.repo, options_.view);
  }
  const analysis::ScanOptions scan_options{
      .skip_device = skip_device_, .on_directory = on_directory, .threads = options_.threads};
  std::optional<analysis::SourceTree> patched;
  bool same_entries = false;
  if (changed != nullptr && previous_scan_ && !on_directory) {
    std::vector<uint32_t> origin;
    patched = analysis::rescan_paths(*previous_scan_, *changed, scan_options, &origin);
    same_entries = patched && same_layout(*previous_scan_, *patched, origin);
  }
  // Set again once this build succeeds; till then its memory is the copy's below.
  std::optional<analysis::SourceTree> scanned = std::move(previous_scan_);
  previous_scan_.reset();
  std::vector<analysis::SourceFile> last_sources = std::move(previous_sources_);
  previous_sources_.clear();
  analysis::SourceTree tree =
      patched ? std::move(*patched) : analysis::scan_tree(options_.repo, scan_options);
  // Kept for the next build to patch and for prime() (a copy: the snapshot takes the tree; far
  // cheaper than listing every directory and an lstat of every entry of a large tree again),
  // assigned over the last one: its entries and their paths are written in place (on the kernel
  // 84 k paths not allocated again, and no fresh pages).
  if (!options_.will_refresh) {
    scanned.reset();
  } else if (scanned) {
    *scanned = tree;
  } else {
    scanned = tree;
  }
  // Selected once for the git view's patterns, the signatures and the survey (on the kernel each
  // selection, 55 k paths claimed, copied and sorted, was ~0.15 G instructions); after an edit
  // that added, removed or retyped no entry, the last build's selection with the sizes read again.
  std::vector<analysis::SourceFile> sources =
      same_entries && !last_sources.empty() ? resized(std::move(last_sources), tree)
                                            : analysis::select_sources(tree);
  fs::VirtualFiles git_files;
  if (options_.git_view) {
    fs::GitViewOptions git_view = *options_.git_view;
    git_view.filter_patterns = filter_patterns(sources);
    git_files = fs::graft_git_view(tree, git_view);
  }
  const Signatures signature = signatures(tree, sources);

  Built built;
  if (have_previous_ && signature.tree == previous_tree_signature_ && previous_.snapshot) {
    built = previous_;
    built.changed = false;
    built.reanalysed = false;
    previous_scan_ = std::move(scanned);
    if (previous_scan_) previous_sources_ = std::move(sources);
    built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return built;
  }
  if (have_previous_ && signature.sources == previous_signature_) {
    built = previous_;
    built.reanalysed = false;
  } else {
    PipelineOptions options;
    options.view = options_.view;
    options.threads = options_.threads;
    options.cache = options_.cache;
    if (!progress_reported_) {
      options.on_progress = options_.on_progress;
      progress_reported_ = true;
    }
    options.plan_maps = options_.plan_maps;
    options.survey_memo = &survey_memo_;
    options.resolution_memo = &resolution_memo_;
    options.facts_memo = &facts_memo_;
    options.graph_buffers = &graph_buffers_;
    options.defer_records = true;
    options.sources = &sources;
    // The view was loaded from its record: its graph record (written beside it) lets this
    // analysis render only the plans that change instead of every one.
    if (!previous_analysis_ && record_analysis_ && !options_.plan_maps) {
      previous_analysis_ = recorded_analysis(*options_.cache, *record_analysis_);
      if (previous_analysis_) {
        previous_choice_ = render::choose_view(previous_analysis_->graph, options_.view);
      }
    }
    record_analysis_.reset();
    const render::RenderedView previous{
        previous_analysis_ ? &previous_analysis_->graph : nullptr, &previous_choice_,
        previous_plans_.get()};
    if (previous_analysis_ && !options_.plan_maps) options.previous = &previous;
    if (previous_analysis_) options.previous_analysis = &*previous_analysis_;
    if (prefetch) options.prefetch = &*prefetch;
    Prepared prepared = prepare(tree, options);
    take_owed_facts(prepared.analysis);
    unsaved_view_ = prepared.unsaved_view;
    served_view_ = prepared.served_view;
    previous_analysed_files_ = prepared.analysed_files;
    previous_plans_ = std::move(prepared.plans);
    if (options_.plan_maps) previous_maps_ = std::move(prepared.maps);
    built.analysed = prepared.analysed;
    built.reanalysed = true;
    built.stats = prepared.analysis.stats;
    built.skipped_files = prepared.analysis.skipped;
    built.entities = prepared.entities;
    built.edges = prepared.edges;
    built.analysed_files = prepared.analysed_files;
    built.rendered_files = prepared.rendered_files;
    built.view_reason = prepared.choice.reason;
    built.view_prefetched = prepared.view_prefetched;
    // Its graph's buffers are the next analysis's (this one's are prepared.analysis's now).
    if (previous_analysis_) graph_buffers_.keep(std::move(previous_analysis_->graph));
    graph_buffers_.let_kernel_reclaim();
    previous_analysis_.reset();
    // Served from a record, the view has no resolution behind it in this process: the first
    // refresh starts from the memory the analysis that rendered it kept in the cache.
    if (prepared.from_view_record) {
      resolution_memo_.set_restore_from(prepared.analysis.key);
      record_analysis_ = prepared.analysis.key;
    }
    if (!prepared.from_view_record && prepared.analysed) {
      previous_analysis_ = std::move(prepared.analysis);
      previous_choice_ = std::move(prepared.choice);
    }
    unprimed_ = prepared.from_view_record && options_.will_refresh;
    // Only after the plans are in hand: a failed analysis must not mark the sources as seen.
    previous_signature_ = signature.sources;
    have_previous_ = true;
    previous_ = built;
  }
  // The analysis (resolver state; all but the facts memo and the graph) is gone by now; the daemon lives
  // for hours on the snapshot and the facts, so hand the freed heap back instead of keeping its
  // peak resident.
  if (built.reanalysed) ::malloc_trim(0);
  try {
    built.snapshot =
        fs::make_snapshot_from(std::move(tree), previous_plans_, previous_maps_, std::move(git_files));
  } catch (...) {
    have_previous_ = false;  // a file changed between scan and read: analyse afresh next time
    previous_.snapshot.reset();
    throw;
  }
  built.changed = true;
  previous_tree_signature_ = signature.tree;
  previous_scan_ = std::move(scanned);
  if (previous_scan_) previous_sources_ = std::move(sources);
  previous_.snapshot = built.snapshot;
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return built;
}

void SnapshotBuilder::take_owed_facts(analysis::Analysis& analysis) {
  if (owed_facts_.empty()) {
    owed_facts_ = std::move(analysis.facts_owed);
  } else {
    std::move(analysis.facts_owed.begin(), analysis.facts_owed.end(),
              std::back_inserter(owed_facts_));
  }
  analysis.facts_owed.clear();
}

void SnapshotBuilder::keep_records() {
  wait_primed();
  if (options_.cache == nullptr) return;
  analysis::store_owed_facts(*options_.cache, owed_facts_);
  if (previous_analysis_ && previous_analysis_->graph_record_owed) {
    options_.cache->store_graph(*previous_analysis_->key,
                                analysis::serialize_analysis(*previous_analysis_));
    previous_analysis_->graph_record_owed = false;
  }
  if (unsaved_view_) {
    options_.cache->store_derived(
        *unsaved_view_,
        encode_view({previous_.stats, previous_analysed_files_, previous_.entities, previous_.edges,
                     previous_.view_reason, previous_.skipped_files, *previous_plans_}));
    unsaved_view_.reset();
  }
  analysis::keep_memories(*options_.cache, resolution_memo_);
  // Written every time, not only when it moved: it is then as recent as the view it names.
  if (served_view_) {
    remember_served_view(*options_.cache, options_.repo, options_.view, *served_view_);
  }
  options_.cache->flush();
}

std::string describe(const Built& built) {
  if (!built.reanalysed) {
    return fmt::format("no source changed, tags reused; {:.2f} s", built.seconds);
  }
  RunSummary run;
  run.analysed = built.analysed;
  run.stats = built.stats;
  run.untagged = built.skipped_files.size();
  run.entities = built.entities;
  run.edges = built.edges;
  run.view_reason = built.view_reason;
  return summary_line(run, built.seconds);
}

}  // namespace anchorfs::refresh
