// The persistent FactCache: one LMDB store per cache root shared by every repository, bounded by
// a size cap with least-recently-used eviction, optionally backed by a shared Redis tier.
#pragma once

#include <lmdb.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/fact_cache.h"
#include "cache/cache_location.h"
#include "cache/lru_index.h"
#include "cache/remote_address.h"
#include "cache/store_info.h"
#include "sync/mutex.h"
#include "sync/shared_mutex.h"

namespace anchorfs::cache {

class RedisTier;

// 2 GiB: about 40 million lines of Python facts (sympy's 753k lines take 38 MB) plus a few
// hundred sympy-sized graphs; see docs/cache.md, "Sizing".
inline constexpr uint64_t kDefaultMaxBytes = uint64_t{2} << 30;
inline constexpr uint64_t kMinMaxBytes = uint64_t{1} << 20;

struct CacheOptions {
  std::string repo_root;  // the repository being analysed ("" = none): the cache lies outside it
  std::string cache_dir;  // the cache root; "" means default_cache_root()
  uint64_t max_bytes = kDefaultMaxBytes;  // the store's data file never grows beyond this
  std::optional<RemoteAddress> remote;    // a shared Redis tier, read through and written back
  // The farm key (the bytes of the key file every machine of the farm reads): remote records are
  // sealed with it and used only when they open with it. Without one (or one shorter than
  // kMinFarmKeyBytes) the remote tier is not used, with one warning.
  std::string farm_key;
  std::chrono::milliseconds remote_timeout{400};
  WarningSink warn;  // one-line warnings (corruption, a full disk, an unusable remote)
};

// Thread-safety: load(), store(), load_graph() and store_graph() may be called from any number
// of threads at once; flush(), info() and the destructor may run concurrently with them too. Any
// number of processes may open one root at once (LMDB's own locking serialises their writers).
// No cache failure is ever fatal: a full disk, a damaged store or a failing remote costs the
// cache (one warning), never the command.
class LmdbFactCache final : public analysis::FactCache {
 public:
  // Opens (creating, verifying and if needed rebuilding) the store below the cache root. Throws
  // CacheError when an explicit cache_dir is unusable or inside the repository. Returns nullptr
  // after a warning when the *default* location is unusable, or when the store cannot be opened
  // for lack of resources (no fork, no space): run without a cache.
  static std::unique_ptr<LmdbFactCache> open(const CacheOptions& options);

  ~LmdbFactCache() override;  // flushes
  LmdbFactCache(const LmdbFactCache&) = delete;
  LmdbFactCache& operator=(const LmdbFactCache&) = delete;

  // A hit only for a record under exactly this key whose checksum verifies; a local miss asks
  // the remote tier, whose answer is verified the same way and kept locally.
  std::optional<std::string> load(const analysis::FactsKey& key) override;
  // Queued in memory (visible to load() at once); written to disk (and the remote) by flush().
  void store(const analysis::FactsKey& key, std::string_view facts) override;
  std::optional<std::string> load_graph(const analysis::ResolutionKey& key) override;
  void store_graph(const analysis::ResolutionKey& key, std::string analysis) override;
  // Kept in the graph table under a namespace of their own (record_codec.h), local only.
  std::optional<std::string> load_alias(const analysis::ResolutionKey& alias) override;
  void store_alias(const analysis::ResolutionKey& alias, std::string_view survey) override;
  // Kept like aliases, in a namespace of their own; each store replaces the record.
  std::optional<std::string> load_survey_memo(const analysis::ResolutionKey& key) override;
  void replace_survey_memo(const analysis::ResolutionKey& key, std::string_view memo) override;
  // Kept like aliases, in a namespace of their own; a hit counts as a graph hit.
  std::optional<std::string> load_derived(const analysis::ResolutionKey& key) override;
  void store_derived(const analysis::ResolutionKey& key, std::string bytes) override;
  // load_derived in two steps, for a read the caller may throw away (a prefetch started before
  // it knows which record it needs): peek_derived neither counts a hit nor marks the record used;
  // use_derived does both, once the caller uses what it peeked.
  std::optional<std::string> peek_derived(const analysis::ResolutionKey& key);
  void use_derived(const analysis::ResolutionKey& key);
  // A derived record its key does not determine (it names another record: view_prefetch.h):
  // replaces whatever the key held, where store_derived keeps the first value written.
  void replace_derived(const analysis::ResolutionKey& key, std::string_view bytes);

  // Commits every queued record, the recency of what was used and the hit counters in one write
  // transaction, evicting the least recently used records beyond the cap; then writes back to
  // the remote tier what was computed here. Call it after an analysis pass.
  void flush();

  // Evicts until the store holds at most `target_bytes` (default: the cap). Returns the number
  // of records removed.
  size_t trim(std::optional<uint64_t> target_bytes = std::nullopt);

  StoreInfo info() const;
  const std::string& store_dir() const { return dir_; }
  // This process's lookups so far (all of them, flushed or not).
  HitCounts hits() const;
  uint64_t disk_hits() const { return hits().fact_hits; }
  bool remote_up() const;

  // Whether records came from the remote tier since the last flush (they are stored locally by
  // the next flush, once the caller has checked what they describe against the sources).
  bool took_remote() const;
  // What the remote tier gave since the last flush does not fit the sources (`why`): it is
  // dropped, never stored locally, and the tier is turned off with one warning.
  void reject_remote(const std::string& why);

 private:
  struct Pending {
    std::string payload;
    bool write_back = false;   // computed here: the remote tier does not have it yet
    bool from_remote = false;  // taken from the remote tier, not yet checked by the caller
    bool replaces = false;     // overwrites the stored value (replace_derived)
  };

  LmdbFactCache(CacheOptions options, std::string dir);
  // Opens the store, setting it aside and retrying once if LMDB rejects it.
  void open_env() REQUIRES(env_mutex_);
  int try_open_env() REQUIRES(env_mutex_);
  // After a fault: never touch the environment again (it is leaked).
  void abandon_env() REQUIRES(env_mutex_);
  // Runs `body` in a write transaction, faults caught; MDB_MAP_FULL evicts harder and retries.
  int write_txn(const std::function<int(MDB_txn*)>& body) REQUIRES(env_mutex_);
  // The open data file's identity (verified_identity.h); whether it is the recorded one; record
  // it (after a commit of a verified file, or once LMDB created it).
  std::optional<std::string> env_identity() REQUIRES(env_mutex_);
  bool verified_now() REQUIRES(env_mutex_);
  void record_verified() REQUIRES(env_mutex_);
  // Evicts down to target_bytes, in commits of its own.
  int make_room(uint64_t target_bytes) REQUIRES(env_mutex_);
  // When even eviction cannot commit; also needs no transaction open.
  void empty_store() REQUIRES(env_mutex_);
  int commit_pending_locked() REQUIRES(env_mutex_, pending_mutex_);
  void handle_fault(const std::string& during) REQUIRES(env_mutex_);
  void set_aside(const std::string& why);  // requires the directory lock (DirLock)
  // Set aside (unless another process did), reopen.
  void rebuild(const std::string& why) REQUIRES(env_mutex_);
  bool room_for(uint64_t bytes);  // free space on the store's filesystem

  // Local-only records of the graph table (aliases, derived records): never read from or
  // written to the remote tier, not counted as graph lookups.
  std::optional<std::string> load_local(uint64_t name_space, const analysis::ResolutionKey& local);
  // The same, not marked used.
  std::optional<std::string> peek_local(const std::string& key);
  void store_local(uint64_t name_space, const analysis::ResolutionKey& local,
                   std::string payload);

  // A verified record (no lock required); a damaged one marks the store corrupt.
  std::optional<std::string> read_record(RecordKind kind, const std::string& key);
  std::optional<std::string> read_remote(RecordKind kind, const std::string& key);

  CacheOptions options_;
  std::string dir_;

  // Shared: read transactions; exclusive: changes to the environment. Taken before
  // pending_mutex_ when both are needed (flush).
  mutable sync::SharedMutex env_mutex_;
  MDB_env* env_ GUARDED_BY(env_mutex_) = nullptr;
  StoreDbs dbs_ GUARDED_BY(env_mutex_);
  // Identity of the data file we opened, to notice a rebuild by another process before setting
  // a file aside ourselves.
  uint64_t env_device_ GUARDED_BY(env_mutex_) = 0;
  uint64_t env_inode_ GUARDED_BY(env_mutex_) = 0;

  mutable sync::Mutex pending_mutex_;
  // Encoded key -> facts, and -> analysis.
  std::unordered_map<std::string, Pending> pending_facts_ GUARDED_BY(pending_mutex_);
  std::unordered_map<std::string, Pending> pending_graphs_ GUARDED_BY(pending_mutex_);
  // Loaded from disk since the last flush; loaded or stored since the last flush.
  std::unordered_set<std::string> used_facts_ GUARDED_BY(pending_mutex_);
  std::unordered_set<std::string> used_graphs_ GUARDED_BY(pending_mutex_);
  HitCounts unflushed_ GUARDED_BY(pending_mutex_);  // counted since the last flush
  HitCounts total_ GUARDED_BY(pending_mutex_);      // counted since open

  std::unique_ptr<RedisTier> remote_;
  std::atomic<bool> corrupt_{false};  // a read failed verification: stop reading, rebuild on flush
  std::atomic<bool> faulted_{false};  // a store access faulted: the environment is abandoned
  bool warned_space_ GUARDED_BY(pending_mutex_) = false;
};

}  // namespace anchorfs::cache
