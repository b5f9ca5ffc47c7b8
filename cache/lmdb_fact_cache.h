// The persistent FactCache: per-file facts in an LMDB store, one store per repository path.
#pragma once

#include <lmdb.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/fact_cache.h"
#include "cache/cache_location.h"
#include "cache/graph_records.h"
#include "cache/store_info.h"

namespace anchorfs::cache {

struct CacheOptions {
  std::string repo_root;         // the repository whose facts are cached; must exist
  std::string cache_dir;         // the cache root; "" means default_cache_root()
  std::string analyser_version;  // entries written under any other version are never loaded
  WarningSink warn;              // one-line warnings (corruption, unusable default location)
  size_t initial_map_bytes = size_t{1} << 30;  // address space reserved; grows on MDB_MAP_FULL
  // When a flush leaves more entries than this, every entry this process has not loaded or
  // stored is dropped (the contents of the checkout as analysed now survive). 0: automatic,
  // the larger of 20000 and 4 x the entries used so far.
  size_t max_entries = 0;
  // Whole analyses (graphs) kept; each flush that stores one drops the least recently used
  // beyond this many. A few cover a checkout, its edit in progress and a branch or two.
  size_t max_graphs = 4;
};

// Thread-safety: load() and store() may be called from any number of threads at once; flush(),
// info() and the destructor may run concurrently with them too. Two processes may open the same
// store at once (LMDB's own locking serialises their writers).
class LmdbFactCache final : public analysis::FactCache {
 public:
  // Opens (creating, verifying and if needed rebuilding) the store for options.repo_root.
  // Throws CacheError when an explicit cache_dir is unusable or inside the repository. Returns
  // nullptr after a warning when the *default* location is unusable, or when the store cannot be
  // verified for lack of resources (fork failed): run without a cache.
  static std::unique_ptr<LmdbFactCache> open(const CacheOptions& options);

  ~LmdbFactCache() override;  // flushes
  LmdbFactCache(const LmdbFactCache&) = delete;
  LmdbFactCache& operator=(const LmdbFactCache&) = delete;

  // A hit only for an entry written under this analyser version whose checksum verifies.
  std::optional<std::string> load(const analysis::ContentDigest& digest) override;
  // Queued in memory (visible to load() at once); written to disk by flush().
  void store(const analysis::ContentDigest& digest, std::string_view facts) override;
  // Whole analyses by resolution key: the same verification, queueing and flushing as facts.
  std::optional<std::string> load_graph(const analysis::ResolutionKey& key) override;
  void store_graph(const analysis::ResolutionKey& key, std::string_view analysis) override;

  // Commits every queued store, and which graphs were used, in one write transaction. Call it
  // after an analysis pass.
  void flush();

  StoreInfo info() const;
  const std::string& store_dir() const { return dir_; }
  // Entries answered from disk / from the queue since open (for stats and tests).
  uint64_t disk_hits() const { return disk_hits_.load(); }

 private:
  LmdbFactCache(CacheOptions options, std::string dir);
  // The members below require env_mutex_ held exclusively (or no other user yet).
  void open_env();  // opens the store, setting it aside and retrying once if LMDB rejects it
  int try_open_env();
  void close_env();
  int initialise();  // creates the databases, records repo + version, drops other versions
  int write_txn(const std::function<int(MDB_txn*)>& body);  // commit, growing the map if full
  // A verified record of `dbi` (no lock required); a damaged one marks the store corrupt.
  std::optional<std::string> read_record(MDB_dbi dbi, const std::string& key);
  int commit_pending_locked();  // also requires pending_mutex_
  int prune_locked();  // drops unused entries when over max_entries; requires pending_mutex_
  void set_aside(const std::string& why);  // also requires the directory lock
  void rebuild(const std::string& why);    // set aside (unless another process did), reopen

  CacheOptions options_;
  std::string dir_;
  uint64_t version_hash_ = 0;

  mutable std::shared_mutex env_mutex_;  // shared: read transactions; exclusive: env changes
  MDB_env* env_ = nullptr;
  MDB_dbi facts_dbi_ = 0;
  MDB_dbi meta_dbi_ = 0;
  GraphDbs graph_dbs_;
  uint64_t env_device_ = 0;  // identity of the data file we opened, to notice a rebuild by
  uint64_t env_inode_ = 0;   // another process before setting a file aside ourselves

  std::mutex pending_mutex_;
  std::unordered_map<std::string, std::string> pending_;  // encoded key -> facts
  std::unordered_set<std::string> used_;  // keys loaded or stored by this process (for pruning)
  std::unordered_map<std::string, std::string> pending_graphs_;  // encoded key -> analysis
  std::vector<std::string> graphs_used_;  // graph keys loaded or stored, oldest first

  std::atomic<bool> corrupt_{false};  // a read failed verification: stop reading, rebuild on flush
  std::atomic<uint64_t> disk_hits_{0};
};

}  // namespace anchorfs::cache
