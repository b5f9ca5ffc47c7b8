// The analysis entry point: scan result in, resolved Graph out (parse in parallel, resolve once).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/fact_cache.h"
#include "analysis/graph.h"
#include "analysis/language.h"
#include "analysis/source_files.h"
#include "analysis/source_tree.h"

namespace anchorfs::analysis {

class SurveyMemo;     // analysis/source_survey.h
struct GraphBuffers;  // analysis/graph_buffers.h
struct Analysis;

// What each front end kept of the last resolution (LanguageFrontEnd::resolve_again), for a
// caller that analyses one tree again and again (the refresher). Not thread-safe: one analysis
// at a time.
class ResolutionMemo {
 public:
  // One slot per front end, `count` of them (references stay valid until the next call).
  std::vector<std::unique_ptr<ResolutionMemory>>& slots(size_t count) {
    if (by_front_end_.size() < count) by_front_end_.resize(count);
    return by_front_end_;
  }

  // The analysis whose resolution made the memories held, while their cache records are still
  // to be written (analysis/kept_memory.h): set by that analysis, cleared by keep_memories.
  const std::optional<ResolutionKey>& unsaved() const { return unsaved_; }
  void set_unsaved(std::optional<ResolutionKey> key) { unsaved_ = key; }
  // The analysis under whose key the cache may keep memories for front ends holding none (the
  // caller served that analysis's view from a record, with no resolution of its own): the next
  // resolution restores them from there first. Cleared once a resolution ran.
  const std::optional<ResolutionKey>& restore_from() const { return restore_from_; }
  void set_restore_from(std::optional<ResolutionKey> key) { restore_from_ = key; }

 private:
  std::vector<std::unique_ptr<ResolutionMemory>> by_front_end_;
  std::optional<ResolutionKey> unsaved_;
  std::optional<ResolutionKey> restore_from_;
};

// The facts of the last analysis's files by content, for a caller that analyses one tree again
// and again (the refresher): an unchanged file's facts are taken from here instead of being
// decoded from the cache again (about a tenth of a Python refresh's CPU). Holds one analysis's
// facts, decoded. Read concurrently during an analysis, replaced after it; one analysis at a time.
class FactsMemo {
 public:
  struct Key {
    ContentDigest digest;
    size_t front_end = 0;
    std::string version;  // facts version with the grammar variant, as the cache keys them
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const { return key.digest.low ^ key.front_end; }
  };
  using Facts = std::unordered_map<Key, std::shared_ptr<const LanguageFacts>, KeyHash>;

  std::shared_ptr<const LanguageFacts> find(const Key& key) const {
    const auto it = facts_.find(key);
    return it == facts_.end() ? nullptr : it->second;
  }
  void replace(Facts facts) { facts_ = std::move(facts); }

 private:
  Facts facts_;
};

struct AnalysisOptions {
  unsigned threads = 0;              // 0: all cores
  // The graph is built in these buffers' capacity, and the edge sort's second buffer is
  // taken from and left there (analysis/graph_buffers.h); null: fresh ones.
  GraphBuffers* buffers = nullptr;
  FactCache* cache = nullptr;        // optional
  size_t max_file_bytes = 16 << 20;  // larger source files are served unchanged
  // Called from worker threads, possibly concurrently, as files finish parsing.
  std::function<void(size_t done, size_t total)> on_progress;
  // Files whose bytes this accepts join the graph but are never tagged. The renderer passes its
  // own check (in the language's comment syntax), so a file that already holds tag blocks is
  // served unchanged (strip could not tell its blocks from ours).
  std::function<bool(const LanguageFrontEnd& language, std::string_view bytes)> keep_unchanged;
  // Also extract and resolve the dense view's relations (configuration, environment, I/O, ...;
  // docs/dense.md). Only the dense view shows them; without them extraction is ~15% cheaper.
  bool dense = true;
  // The clock stat identities (stat_identity.h) measure files' age by; tests age a tree with it.
  std::function<std::chrono::system_clock::time_point()> now = std::chrono::system_clock::now;
  // With a cache: what the previous analysis's survey learnt, reused for files whose stat
  // identity is unchanged and replaced by this analysis's (a refresher keeps one across builds).
  SurveyMemo* survey_memo = nullptr;
  // With a cache (which gives every file a digest): front ends resolve again from what they
  // kept of the previous resolution, redoing only what changed files can reach.
  ResolutionMemo* resolution_memo = nullptr;
  // With a cache: unchanged files' facts come from here, and this analysis's facts replace them.
  FactsMemo* facts_memo = nullptr;
  // The last analysis of this tree (a refresher keeps it): a file whose facts are the very
  // object that analysis used (FactsMemo), at the same path and as taggable, has its entities
  // copied from that graph instead of built from its facts again (the same entities either way).
  const Analysis* previous = nullptr;
  // With a cache: the result is not stored under its resolution key here (a whole-graph record,
  // seconds on a large tree) but left to the caller (Analysis::graph_record_owed), who writes it
  // once it is idle, if this result is still the latest.
  bool defer_graph_record = false;
  // With a cache: the records of the facts this analysis extracts are not written beside the
  // resolution (serialising every file's facts: a twentieth of a cold Java mount's CPU after the
  // parse, on a core the resolution and the render want) but left to the caller
  // (Analysis::facts_owed, store_owed_facts), who writes them once the view is served.
  bool defer_fact_records = false;
  // Called once, on one of the analysis' threads, while the front ends resolve (on a cold
  // analysis the resolution leaves a core idle): the graph's entities and files are final then,
  // its edges and labels are not. It may only read the entities and files (the render prepares
  // its index of them). Not called when the graph comes whole from the cache. Null: nothing.
  std::function<void(const Graph& graph)> beside_resolution;
  // With a cache: false makes the analysis from the facts even when a whole analysis is cached
  // under its resolution key, for a caller that wants what only that fills (facts_memo,
  // resolution_memo, Analysis::facts): a refresher priming itself behind a view it loaded whole.
  bool whole_from_cache = true;
  // select_sources(tree) of the very tree analysed, when the caller made it already (a refresher
  // selects once per build for its signatures and the git view's patterns too): not made again.
  const std::vector<SourceFile>* sources = nullptr;
  // With a cache: a tree neither its stat alias nor a survey memo knows, and of which the cache
  // holds no facts for a sample of its files (whose whole analysis then cannot be cached either,
  // unless evicted apart), is not surveyed before the parse: the parse reads and digests each
  // file once, starting at once, and the survey's states and key are made from its reads. The
  // result is the same; a cold mount skips a pass over every file before its first parse.
  bool survey_in_parse = false;
};

// A source file that was not analysed, and why (too large, binary, unreadable, syntax errors).
struct SkippedFile {
  std::string path;
  std::string reason;
};

struct AnalysisStats {
  size_t source_files = 0;  // files a front end claimed
  size_t parsed = 0;
  size_t from_cache = 0;  // files whose facts came from the cache (all of them on a graph hit)
  size_t lines = 0;
  // The whole analysis was loaded from the cache under its resolution key: no facts were loaded
  // and nothing was resolved (parse_seconds is then reading and hashing the sources,
  // resolve_seconds loading the graph).
  bool graph_from_cache = false;
  // Sources the survey read and digested (with a cache): the others were known by their stat
  // (stat alias or survey memo). Not kept in cached records.
  size_t survey_reads = 0;
  double parse_seconds = 0;
  double resolve_seconds = 0;
};

// A facts record an analysis owes the cache (AnalysisOptions::defer_fact_records).
struct OwedFacts {
  FactsMemo::Key key;
  std::shared_ptr<const LanguageFacts> facts;
};

struct Analysis {
  Graph graph;
  AnalysisStats stats;
  std::vector<SkippedFile> skipped;
  // The resolution key this result is stored (or was found) under in the cache; null when it is
  // not cached (no cache, no build id, or a file changed while it was analysed).
  std::optional<ResolutionKey> key;
  // With AnalysisOptions::defer_graph_record: `key` is set but nothing is stored under it yet.
  bool graph_record_owed = false;
  // With AnalysisOptions::defer_fact_records: the facts records still to be written, in path order.
  std::vector<OwedFacts> facts_owed;
  // The facts each of graph.files was made from (AnalysisOptions::previous compares them), kept
  // only with AnalysisOptions::facts_memo (which holds them anyway); else empty, as for an
  // analysis loaded from the cache.
  std::vector<std::shared_ptr<const LanguageFacts>> facts;
};

// With options.cache, the whole result is looked up first under the tree's resolution key
// (analysis/resolution_key.h) and stored there after a miss; the result is the same either way.
Analysis analyze(const SourceTree& tree, const AnalysisOptions& options);

// Writes the facts records an analysis deferred (Analysis::facts_owed) and empties the list.
void store_owed_facts(FactCache& cache, std::vector<OwedFacts>& owed);

}  // namespace anchorfs::analysis
