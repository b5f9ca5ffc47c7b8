// LmdbFactCache: verified open, content-keyed records, batched commits, LRU eviction under a cap,
// a read-through/write-back remote tier, and recovery from damage, faults and a full disk.
#include "cache/lmdb_fact_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

#include "cache/dir_lock.h"
#include "cache/fault_guard.h"
#include "cache/mdb_bytes.h"
#include "cache/record_codec.h"
#include "cache/record_copy.h"
#include "cache/record_mac.h"
#include "cache/redis_tier.h"
#include "cache/store_check.h"
#include "cache/verified_identity.h"

namespace anchorfs::cache {

namespace {

constexpr unsigned kMaxReaders = 512;
// Eviction starts above 80 % of the cap and goes down to 60 %: LMDB copies pages on write and
// needs free room inside the map, and the slack makes eviction rare rather than per commit.
constexpr uint64_t kEvictAbovePercent = 80;
constexpr uint64_t kEvictToPercent = 60;
constexpr uint64_t kFullMapPercent = 40;  // what a commit that hit the cap evicts down to
// Deletions per commit: keeps every commit (and so every mount's flush) short; later commits
// continue where this one stopped.
constexpr size_t kMaxEvictionsPerCommit = 4096;
// Preallocated before LMDB maps it, so a full filesystem fails the open, not a write through
// the map (holes in a mapped file are allocated on first touch: SIGBUS when the disk is full).
constexpr off_t kLockFileBytes = 64 << 10;
// Free space a commit needs beyond twice its records: LMDB's meta, branch and free-list pages.
constexpr uint64_t kCommitSlackBytes = 256 << 10;
// How often opening makes the store directory again after a `cache clear` removed it under the
// lock this process was waiting for; more means clears racing without end.
constexpr int kLockAttempts = 4;

// Whole analyses in the graph table (stat aliases and derived records left out).
uint64_t count_graphs(MDB_txn* txn, MDB_dbi graphs) {
  uint64_t count = 0;
  MDB_cursor* cursor = nullptr;
  MDB_val key{};
  MDB_val value{};
  int rc = mdb_cursor_open(txn, graphs, &cursor);
  while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
    if (holds_analysis(key_version(as_view(key)))) ++count;
  }
  if (cursor != nullptr) mdb_cursor_close(cursor);
  return count;
}

// Errors that mean the file's contents cannot be trusted (rather than a resource problem).
bool is_corruption(int rc) {
  return rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND || rc == MDB_INVALID ||
         rc == MDB_VERSION_MISMATCH || rc == MDB_BAD_TXN || rc == MDB_INCOMPATIBLE;
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &tm);
  return text;
}

uint64_t file_bytes(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

void remove_set_aside_files(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  const std::string prefix = std::string(kDataFile) + ".corrupt-";
  while (const dirent* e = ::readdir(d)) {
    if (std::string_view(e->d_name).starts_with(prefix)) {
      ::unlink((dir + "/" + e->d_name).c_str());
    }
  }
  ::closedir(d);
}

// Creates the lock file fully allocated (see kLockFileBytes); errno on failure.
int preallocate_lock_file(const std::string& dir) {
  const std::string path = dir + "/" + kLockFile;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return errno == EEXIST ? 0 : errno;
  const int error = ::posix_fallocate(fd, 0, kLockFileBytes);
  ::close(fd);
  if (error != 0) ::unlink(path.c_str());
  return error;
}

uint64_t percent_of(uint64_t bytes, uint64_t percent) {
  return bytes / 100 * percent;
}

// Eviction counts records' own sizes; the cap counts pages (partly filled leaves, bookkeeping,
// branch pages). The records' total that brings the pages in use to `target_used`, at the
// store's present ratio of the two.
uint64_t records_target(MDB_txn* txn, const StoreDbs& dbs, uint64_t target_used) {
  const uint64_t used = used_bytes(txn, dbs);
  const uint64_t records = read_counter(txn, dbs, kBytesCounter);
  if (used <= target_used) return records;
  return static_cast<uint64_t>(static_cast<double>(records) * static_cast<double>(target_used) /
                               static_cast<double>(used));
}

std::string remote_key(RecordKind kind, std::string_view key) {
  std::string out = fmt::format("anchorfs:{}:", static_cast<char>(kind));
  for (const char c : key)
    fmt::format_to(std::back_inserter(out), "{:02x}", static_cast<unsigned char>(c));
  return out;
}

}  // namespace

LmdbFactCache::LmdbFactCache(CacheOptions options, std::string dir)
    : options_(std::move(options)), dir_(std::move(dir)) {}

std::unique_ptr<LmdbFactCache> LmdbFactCache::open(const CacheOptions& options) {
  struct stat st {};
  if (!options.repo_root.empty() &&
      (::stat(options.repo_root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))) {
    throw CacheError(fmt::format("repository {} is not a directory", options.repo_root));
  }
  const std::string repo = options.repo_root.empty() ? "" : resolve_path(options.repo_root);
  const bool explicit_dir = !options.cache_dir.empty();
  std::string root;
  if (explicit_dir) {
    root = resolve_path(options.cache_dir);
  } else if (auto default_root = default_cache_root()) {
    root = resolve_path(*default_root);
  } else {
    emit_warning(options.warn,
                 "no cache: neither XDG_CACHE_HOME nor HOME is an absolute path (use --cache-dir)");
    return nullptr;
  }

  const std::string dir = shared_store_dir(root);
  std::unique_ptr<DirLock> lock;
  try {
    if (!repo.empty() && (is_same_or_below(root, repo) || is_same_or_below(dir, repo))) {
      throw CacheError(
          fmt::format("cache directory {} is inside the repository {}; anchorfs never writes there",
                      root, repo));
    }
    if (explicit_dir) {
      create_private_dirs(root);
    } else {
      ensure_private_dir(root);
    }
    // `cache clear` may remove the directory while this process waits for its lock: make it
    // again rather than open a store in a directory no path names.
    for (int attempt = 0; attempt < kLockAttempts && !(lock && lock->locks(dir)); ++attempt) {
      lock.reset();  // flock is per open file: never wait on a lock this process holds
      ensure_private_dir(dir);
      lock = std::make_unique<DirLock>(dir);
    }
  } catch (const CacheError& e) {
    if (explicit_dir) throw;
    emit_warning(options.warn, fmt::format("no cache: {}", e.what()));
    return nullptr;
  }

  CacheOptions resolved = options;
  resolved.repo_root = repo;
  resolved.max_bytes = std::max(options.max_bytes, kMinMaxBytes);
  std::unique_ptr<LmdbFactCache> cache(new LmdbFactCache(std::move(resolved), dir));
  {
    // No other thread knows the cache yet; the lock states what open_env() and env_ need.
    const sync::WriterLock exclusive(cache->env_mutex_);
    if (const int error = preallocate_lock_file(dir); error != 0) {
      emit_warning(options.warn,
                   fmt::format("no cache: fact cache {}: {}", dir, std::strerror(error)));
      return nullptr;
    }
    // A data file exactly as a verified store's last commit left it needs no walk
    // (verified_identity.h); any other is walked, and its identity recorded once it passes.
    const std::optional<std::string> identity = identity_of_path(dir + "/" + kDataFile);
    const bool unchanged = identity && recorded_identity(dir) == identity;
    StoreReport report;
    if (unchanged) {
      report.exists = true;
      report.healthy = true;
    } else {
      report = check_store(dir);
    }
    if (!report.verified) {  // a resource shortage, not a verdict: keep the store for next time
      emit_warning(options.warn, fmt::format("no cache: fact cache {}: {}", dir, report.problem));
      return nullptr;
    }
    if (report.exists && !report.healthy) {
      cache->set_aside(report.problem);
    } else if (report.exists && !unchanged && identity) {
      record_identity(dir, *identity);  // stat before the walk: a commit since makes it stale
    }
    try {
      cache->open_env();
    } catch (const CacheError& e) {
      if (explicit_dir) throw;
      emit_warning(options.warn, fmt::format("no cache: {}", e.what()));
      return nullptr;
    }
    if (cache->env_ == nullptr) return nullptr;  // it faulted or the disk is full: warned already
    // A data file LMDB has just created under our lock is sound as it stands.
    if (!report.exists || !report.healthy) cache->record_verified();
  }
  lock.reset();
  if (options.remote && options.farm_key.size() < kMinFarmKeyBytes) {
    emit_warning(options.warn,
                 fmt::format("remote cache {} not used: no farm key (a file of at least {} secret "
                             "bytes every machine reads: --remote-cache-key-file, "
                             "$ANCHORFS_REMOTE_CACHE_KEY_FILE or remote-cache-key-file in the "
                             "config file); continuing with the local cache only",
                             options.remote->display(), kMinFarmKeyBytes));
  } else if (options.remote) {
    RemoteOptions remote;
    remote.address = *options.remote;
    remote.timeout = options.remote_timeout;
    remote.warn = options.warn;
    cache->remote_ = std::make_unique<RedisTier>(std::move(remote));
  }
  return cache;
}

LmdbFactCache::~LmdbFactCache() {
  try {
    flush();
  } catch (const std::exception& e) {
    emit_warning(options_.warn, fmt::format("fact cache not saved: {}", e.what()));
  }
  if (!faulted_.load() && env_ != nullptr) mdb_env_close(env_);
}

void LmdbFactCache::set_aside(const std::string& why) {
  forget_identity(dir_);
  remove_set_aside_files(dir_);
  const std::string data = dir_ + "/" + kDataFile;
  const std::string kept = data + ".corrupt-" + utc_timestamp();
  const bool moved = ::rename(data.c_str(), kept.c_str()) == 0;
  if (!moved) ::unlink(data.c_str());
  // The lock file describes the old data file's transactions; a fresh store needs a fresh one.
  ::unlink((dir_ + "/" + kLockFile).c_str());
  preallocate_lock_file(dir_);
  emit_warning(options_.warn,
               fmt::format("fact cache {} was corrupt ({}); {}, rebuilding it", dir_, why,
                           moved ? "set aside as " + kept : std::string("removed")));
}

int LmdbFactCache::try_open_env() {
  int rc = mdb_env_create(&env_);
  if (rc != 0) {
    env_ = nullptr;
    return rc;
  }
  mdb_env_set_maxdbs(env_, kMaxDbs);
  mdb_env_set_maxreaders(env_, kMaxReaders);
  // LMDB asserts (and would abort) on some damaged pages: treat that like a fault.
  mdb_env_set_assert(env_, [](MDB_env*, const char*) { leave_guarded_body(); });
  // The map is the cap: LMDB never grows the file beyond it (MDB_MAP_FULL instead).
  mdb_env_set_mapsize(env_, options_.max_bytes);
  // NOMETASYNC: one fsync per commit (the data pages), not two; a system crash can lose the
  // last commit but LMDB's alternating meta pages keep the previous one intact. NOTLS: read
  // transactions belong to the call, not the thread, which suits TBB's worker threads.
  bool ran = run_guarded([&]() REQUIRES(env_mutex_) {
    rc = mdb_env_open(env_, dir_.c_str(), MDB_NOTLS | MDB_NOMETASYNC, 0600);
  });
  if (!ran) {
    abandon_env();
    return MDB_PANIC;
  }
  if (rc != 0) {
    mdb_env_close(env_);
    env_ = nullptr;
    return rc;
  }
  // Only when looser: a chmod moves the change time, which would break the verified identity.
  for (const char* file : {kDataFile, kLockFile}) {
    const std::string path = dir_ + "/" + file;
    struct stat mode {};
    if (::stat(path.c_str(), &mode) == 0 && (mode.st_mode & 07777) != 0600) {
      ::chmod(path.c_str(), 0600);
    }
  }
  int fd = -1;
  struct stat st {};
  if (mdb_env_get_fd(env_, &fd) == 0 && ::fstat(fd, &st) == 0) {
    env_device_ = st.st_dev;
    env_inode_ = st.st_ino;
  }
  ran = run_guarded([&]() REQUIRES(env_mutex_) {
    int dead = 0;
    mdb_reader_check(env_, &dead);  // slots of readers that died (e.g. a crashed check child)
  });
  if (!ran) {
    abandon_env();
    return MDB_PANIC;
  }
  rc = write_txn([&](MDB_txn* txn) REQUIRES(env_mutex_) { return open_store_dbs(txn, dbs_); });
  if (rc != 0 && env_ != nullptr) {
    mdb_env_close(env_);
    env_ = nullptr;
  }
  return rc;
}

void LmdbFactCache::open_env() {
  int rc = try_open_env();
  if (is_corruption(rc)) {
    set_aside(mdb_strerror(rc));
    rc = try_open_env();
  }
  if (faulted_.load()) return;  // handled and warned about: run without a cache
  if (rc == ENOSPC || rc == EDQUOT) {
    emit_warning(options_.warn,
                 fmt::format("no cache: fact cache {}: {}", dir_, std::strerror(rc)));
    return;
  }
  if (rc != 0) {
    throw CacheError(fmt::format("cannot open fact cache {}: {}", dir_, mdb_strerror(rc)));
  }
}

void LmdbFactCache::abandon_env() {
  faulted_ = true;
  env_ = nullptr;  // leaked on purpose: closing it would touch the faulting map again
}

void LmdbFactCache::handle_fault(const std::string& during) {
  abandon_env();
  struct statvfs fs {};
  const bool full = ::statvfs(dir_.c_str(), &fs) == 0 &&
                    static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize < kCommitSlackBytes;
  if (full) {
    emit_warning(
        options_.warn,
        fmt::format("fact cache {} disabled: its filesystem is full ({} faulted)", dir_, during));
    return;
  }
  DirLock lock(dir_);
  struct stat st {};
  const std::string data = dir_ + "/" + kDataFile;
  if (::stat(data.c_str(), &st) == 0 && static_cast<uint64_t>(st.st_dev) == env_device_ &&
      static_cast<uint64_t>(st.st_ino) == env_inode_) {
    set_aside(fmt::format("{} faulted on a damaged page", during));
  }
  emit_warning(options_.warn, fmt::format("fact cache {} not used by this process", dir_));
}

std::optional<std::string> LmdbFactCache::env_identity() {
  int fd = -1;
  if (env_ == nullptr || mdb_env_get_fd(env_, &fd) != 0) return std::nullopt;
  return identity_of_fd(fd);
}

bool LmdbFactCache::verified_now() {
  if (corrupt_.load() || faulted_.load()) return false;
  const std::optional<std::string> identity = env_identity();
  return identity && recorded_identity(dir_) == identity;
}

void LmdbFactCache::record_verified() {
  if (corrupt_.load() || faulted_.load()) return;
  // Only while the path still names the file this process writes (not one set aside since).
  const std::optional<std::string> identity = env_identity();
  if (identity && identity_of_path(dir_ + "/" + kDataFile) == identity) {
    record_identity(dir_, *identity);
  }
}

int LmdbFactCache::write_txn(const std::function<int(MDB_txn*)>& body) {
  // MDB_MAP_FULL: the cap is reached. Make room in transactions of their own and retry: first
  // down to kFullMapPercent; if even that cannot commit (every page in use, deletions need
  // pages too), empty the store: it is a cache.
  bool made_room = false;
  bool emptied = false;
  for (int attempt = 0; attempt < 8 && env_ != nullptr; ++attempt) {
    int rc = 0;
    const bool ran = run_guarded([&]() REQUIRES(env_mutex_) {
      MDB_txn* txn = nullptr;
      rc = mdb_txn_begin(env_, nullptr, 0, &txn);
      if (rc != 0) return;
      // Inside LMDB's writer lock no other process commits: a file still as last verified stays
      // verified through this commit, and its new identity is recorded after it.
      const bool verified = verified_now();
      rc = body(txn);
      if (rc == 0) {
        rc = mdb_txn_commit(txn);
        if (rc == 0 && verified) record_verified();
      } else {
        mdb_txn_abort(txn);
      }
    });
    if (!ran) {
      handle_fault("writing the store");
      return MDB_PANIC;
    }
    if (rc == MDB_MAP_RESIZED) {  // another process set a larger cap: adopt it
      mdb_env_set_mapsize(env_, 0);
      continue;
    }
    if (rc != MDB_MAP_FULL || emptied) return rc;
    if (!made_room && make_room(percent_of(options_.max_bytes, kFullMapPercent)) == 0) {
      made_room = true;
      continue;
    }
    if (faulted_.load()) return MDB_PANIC;
    empty_store();
    emptied = true;
  }
  return MDB_MAP_FULL;
}

void LmdbFactCache::empty_store() {
  DirLock lock(dir_);
  forget_identity(dir_);
  if (env_ != nullptr) mdb_env_close(env_);
  env_ = nullptr;
  ::unlink((dir_ + "/" + kDataFile).c_str());
  ::unlink((dir_ + "/" + kLockFile).c_str());
  preallocate_lock_file(dir_);
  emit_warning(
      options_.warn,
      fmt::format("fact cache {} was full beyond what eviction could free; emptied it", dir_));
  open_env();
}

int LmdbFactCache::make_room(uint64_t target_bytes) {
  int rc = 0;
  const auto commit = [&](const std::function<int(MDB_txn*)>& body) REQUIRES(env_mutex_) {
    MDB_txn* txn = nullptr;
    if ((rc = mdb_txn_begin(env_, nullptr, 0, &txn)) != 0) return;
    rc = body(txn);
    rc = rc == 0 ? mdb_txn_commit(txn) : (mdb_txn_abort(txn), rc);
  };
  const bool ran = run_guarded([&]() REQUIRES(env_mutex_) {
    size_t deleted = 0;
    commit([&](MDB_txn* txn) REQUIRES(env_mutex_) {
      return evict_oldest(txn, dbs_, records_target(txn, dbs_, target_bytes), SIZE_MAX, deleted);
    });
    // LMDB reuses pages freed by a transaction only from the second commit after it: one more
    // small commit makes the room usable by the retry.
    const auto advance_clock = [&](MDB_txn* txn) REQUIRES(env_mutex_) {
      return add_to_counter(txn, dbs_, kClockCounter, 1);
    };
    if (rc == 0) commit(advance_clock);
  });
  if (!ran) {
    handle_fault("evicting from the store");
    return MDB_PANIC;
  }
  return rc;
}

std::optional<std::string> LmdbFactCache::read_record(RecordKind kind, const std::string& key) {
  for (int attempt = 0; attempt < 2 && !corrupt_.load() && !faulted_.load(); ++attempt) {
    sync::ReaderLock lock(env_mutex_);
    if (env_ == nullptr || faulted_.load()) return std::nullopt;
    int rc = 0;
    std::optional<std::string> result;
    const bool ran = run_guarded([&]() REQUIRES_SHARED(env_mutex_) {
      MDB_txn* txn = nullptr;
      rc = mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn);
      if (rc != 0) return;
      MDB_val k = as_val(key);
      MDB_val v{};
      rc = mdb_get(txn, dbs_.of(kind), &k, &v);
      if (rc == 0) {
        if (auto payload = decode_value(key, as_view(v))) {
          result.emplace(copy_record(*payload));
        } else {
          corrupt_ = true;
        }
      }
      mdb_txn_abort(txn);
    });
    if (!ran) {  // the environment is abandoned and set aside by the next flush
      faulted_ = true;
      return std::nullopt;
    }
    if (rc == MDB_MAP_RESIZED) {  // another process grew the map; adopting it needs exclusivity
      lock.unlock();
      const sync::WriterLock exclusive(env_mutex_);
      if (env_ != nullptr && !faulted_.load()) mdb_env_set_mapsize(env_, 0);
      continue;
    }
    if (rc != 0 && rc != MDB_NOTFOUND) corrupt_ = corrupt_ || is_corruption(rc);
    return result;
  }
  return std::nullopt;
}

std::optional<std::string> LmdbFactCache::read_remote(RecordKind kind, const std::string& key) {
  if (!remote_) return std::nullopt;
  const auto raw = remote_->get(remote_key(kind, key));
  if (!raw) return std::nullopt;
  // Sealed with the farm key over the full key (front end, facts version, digest): a damaged,
  // misplaced or forged value, or one written under other versions, never opens.
  const auto payload = open_remote_value(options_.farm_key, key, *raw);
  if (!payload) return std::nullopt;
  return std::string(*payload);
}

std::optional<std::string> LmdbFactCache::load(const analysis::FactsKey& facts_key) {
  const std::string key =
      encode_key(facts_namespace(facts_key.front_end, facts_key.facts_version), facts_key.digest);
  {
    const sync::MutexLock lock(pending_mutex_);
    if (auto it = pending_facts_.find(key); it != pending_facts_.end()) return it->second.payload;
  }
  if (auto local = read_record(RecordKind::Facts, key)) {
    const sync::MutexLock lock(pending_mutex_);
    used_facts_.insert(key);
    ++unflushed_.fact_hits;
    ++total_.fact_hits;
    return local;
  }
  auto remote = read_remote(RecordKind::Facts, key);
  const sync::MutexLock lock(pending_mutex_);
  if (remote) {
    pending_facts_.try_emplace(key, Pending{*remote, false, true});
    ++unflushed_.fact_remote_hits;
    ++total_.fact_remote_hits;
  } else {
    ++unflushed_.fact_misses;
    ++total_.fact_misses;
  }
  return remote;
}

void LmdbFactCache::store(const analysis::FactsKey& facts_key, std::string_view facts) {
  std::string key =
      encode_key(facts_namespace(facts_key.front_end, facts_key.facts_version), facts_key.digest);
  const sync::MutexLock lock(pending_mutex_);
  // Replaces a remote value that verified but did not deserialize: the remote gets ours.
  pending_facts_.insert_or_assign(std::move(key), Pending{std::string(facts), remote_ != nullptr});
}

std::optional<std::string> LmdbFactCache::load_graph(const analysis::ResolutionKey& resolution) {
  const std::string key = encode_key(graph_namespace(), resolution);
  {
    const sync::MutexLock lock(pending_mutex_);
    if (auto it = pending_graphs_.find(key); it != pending_graphs_.end()) {
      used_graphs_.insert(key);
      return it->second.payload;
    }
  }
  if (auto local = read_record(RecordKind::Graph, key)) {
    const sync::MutexLock lock(pending_mutex_);
    used_graphs_.insert(key);
    ++unflushed_.graph_hits;
    ++total_.graph_hits;
    return local;
  }
  auto remote = read_remote(RecordKind::Graph, key);
  const sync::MutexLock lock(pending_mutex_);
  if (remote) {
    pending_graphs_.try_emplace(key, Pending{*remote, false, true});
    ++unflushed_.graph_remote_hits;
    ++total_.graph_remote_hits;
  } else {
    ++unflushed_.graph_misses;
    ++total_.graph_misses;
  }
  return remote;
}

void LmdbFactCache::store_graph(const analysis::ResolutionKey& resolution, std::string analysis) {
  std::string key = encode_key(graph_namespace(), resolution);
  const sync::MutexLock lock(pending_mutex_);
  pending_graphs_.insert_or_assign(std::move(key),
                                   Pending{std::move(analysis), remote_ != nullptr});
}

std::optional<std::string> LmdbFactCache::peek_local(const std::string& key) {
  {
    const sync::MutexLock lock(pending_mutex_);
    if (auto it = pending_graphs_.find(key); it != pending_graphs_.end()) {
      return it->second.payload;
    }
  }
  return read_record(RecordKind::Graph, key);
}

std::optional<std::string> LmdbFactCache::load_local(uint64_t name_space,
                                                     const analysis::ResolutionKey& local) {
  std::string key = encode_key(name_space, local);
  std::optional<std::string> payload = peek_local(key);
  if (payload) {
    const sync::MutexLock lock(pending_mutex_);
    used_graphs_.insert(std::move(key));
  }
  return payload;
}

void LmdbFactCache::store_local(uint64_t name_space, const analysis::ResolutionKey& local,
                                std::string payload) {
  const sync::MutexLock lock(pending_mutex_);
  pending_graphs_.insert_or_assign(encode_key(name_space, local),
                                   Pending{std::move(payload), false});
}

std::optional<std::string> LmdbFactCache::load_alias(const analysis::ResolutionKey& alias) {
  return load_local(alias_namespace(), alias);
}

void LmdbFactCache::store_alias(const analysis::ResolutionKey& alias, std::string_view survey) {
  store_local(alias_namespace(), alias, std::string(survey));
}

std::optional<std::string> LmdbFactCache::load_survey_memo(const analysis::ResolutionKey& key) {
  return load_local(survey_memo_namespace(), key);
}

void LmdbFactCache::replace_survey_memo(const analysis::ResolutionKey& key, std::string_view memo) {
  const sync::MutexLock lock(pending_mutex_);
  pending_graphs_.insert_or_assign(encode_key(survey_memo_namespace(), key),
                                   Pending{std::string(memo), false, false, true});
}

std::optional<std::string> LmdbFactCache::load_derived(const analysis::ResolutionKey& key) {
  std::optional<std::string> derived = load_local(derived_namespace(), key);
  if (derived) {
    // The whole analysis was reused (through what was derived from it): a graph hit. A miss is
    // not counted: the graph lookup that follows it is.
    const sync::MutexLock lock(pending_mutex_);
    ++unflushed_.graph_hits;
    ++total_.graph_hits;
  }
  return derived;
}

std::optional<std::string> LmdbFactCache::peek_derived(const analysis::ResolutionKey& key) {
  return peek_local(encode_key(derived_namespace(), key));
}

void LmdbFactCache::replace_derived(const analysis::ResolutionKey& key, std::string_view bytes) {
  const sync::MutexLock lock(pending_mutex_);
  pending_graphs_.insert_or_assign(encode_key(derived_namespace(), key),
                                   Pending{std::string(bytes), false, false, true});
}

void LmdbFactCache::use_derived(const analysis::ResolutionKey& key) {
  std::string encoded = encode_key(derived_namespace(), key);
  const sync::MutexLock lock(pending_mutex_);
  used_graphs_.insert(std::move(encoded));
  ++unflushed_.graph_hits;
  ++total_.graph_hits;
}

void LmdbFactCache::store_derived(const analysis::ResolutionKey& key, std::string bytes) {
  store_local(derived_namespace(), key, std::move(bytes));
}

bool LmdbFactCache::room_for(uint64_t bytes) {
  struct statvfs fs {};
  if (::statvfs(dir_.c_str(), &fs) != 0) return true;  // cannot tell: let the write say
  return static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize >= 2 * bytes + kCommitSlackBytes;
}

int LmdbFactCache::commit_pending_locked() {
  std::vector<std::pair<RecordKind, const std::pair<const std::string, Pending>*>> records;
  uint64_t bytes = 0;
  for (const auto& record : pending_facts_) {
    records.emplace_back(RecordKind::Facts, &record);
    bytes += accounted_bytes(record.first.size(), record.second.payload.size());
  }
  for (const auto& record : pending_graphs_) {
    records.emplace_back(RecordKind::Graph, &record);
    bytes += accounted_bytes(record.first.size(), record.second.payload.size());
  }
  // A full filesystem must cost the cache, never the command: do not start a commit that
  // cannot fit (a failed write leaves LMDB's file intact; this avoids even trying).
  if (!room_for(bytes)) {
    if (!warned_space_) {
      warned_space_ = true;
      emit_warning(options_.warn,
                   fmt::format("fact cache {}: not enough free space on its filesystem; {} "
                               "records not saved",
                               dir_, records.size()));
    }
    return 0;
  }
  // Keys in order make LMDB append to leaf pages instead of splitting them at random.
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first, a.second->first) < std::tie(b.first, b.second->first);
  });
  const HitCounts counts = unflushed_;
  // Room for this commit: its records, and the pages it copies (LMDB writes copies, and frees
  // the originals only for later commits).
  const uint64_t evict_above = percent_of(options_.max_bytes, kEvictAbovePercent);
  const uint64_t incoming = 2 * bytes;
  const uint64_t evict_to = std::min(percent_of(options_.max_bytes, kEvictToPercent),
                                     evict_above > incoming ? evict_above - incoming : 0);
  return write_txn([&](MDB_txn* txn) REQUIRES(env_mutex_, pending_mutex_) {
    int rc = 0;
    if (used_bytes(txn, dbs_) + incoming > evict_above) {
      size_t deleted = 0;
      rc = evict_oldest(txn, dbs_, records_target(txn, dbs_, evict_to), kMaxEvictionsPerCommit,
                        deleted);
      if (rc != 0) return rc;
    }
    rc = add_to_counter(txn, dbs_, kClockCounter, 1);
    if (rc != 0) return rc;
    const uint64_t clock = read_counter(txn, dbs_, kClockCounter);
    for (const auto& [kind, record] : records) {
      const std::string& payload = record->second.payload;
      rc = record->second.replaces ? replace_record(txn, dbs_, kind, record->first, payload, clock)
                                   : insert_record(txn, dbs_, kind, record->first, payload, clock);
      if (rc != 0) return rc;
    }
    for (const std::string& key : used_facts_) {
      if ((rc = touch_record(txn, dbs_, RecordKind::Facts, key, clock)) != 0) return rc;
    }
    for (const std::string& key : used_graphs_) {
      if ((rc = touch_record(txn, dbs_, RecordKind::Graph, key, clock)) != 0) return rc;
    }
    const std::pair<std::string_view, uint64_t> counters[] = {
        {kFactHitsCounter, counts.fact_hits},
        {kFactRemoteHitsCounter, counts.fact_remote_hits},
        {kFactMissesCounter, counts.fact_misses},
        {kGraphHitsCounter, counts.graph_hits},
        {kGraphRemoteHitsCounter, counts.graph_remote_hits},
        {kGraphMissesCounter, counts.graph_misses}};
    for (const auto& [name, delta] : counters) {
      if ((rc = add_to_counter(txn, dbs_, name, static_cast<int64_t>(delta))) != 0) return rc;
    }
    return 0;
  });
}

void LmdbFactCache::rebuild(const std::string& why) {
  DirLock lock(dir_);
  struct stat st {};
  const std::string data = dir_ + "/" + kDataFile;
  const bool still_ours = ::stat(data.c_str(), &st) == 0 &&
                          static_cast<uint64_t>(st.st_dev) == env_device_ &&
                          static_cast<uint64_t>(st.st_ino) == env_inode_;
  if (env_ != nullptr) mdb_env_close(env_);
  env_ = nullptr;
  if (still_ours) set_aside(why);  // else another process sharing the store has replaced it
  corrupt_ = false;
  open_env();
}

void LmdbFactCache::flush() {
  std::vector<std::pair<std::string, std::string>> write_back;
  {
    const sync::WriterLock exclusive(env_mutex_);
    const sync::MutexLock lock(pending_mutex_);
    for (const auto& [kind, pending] : {std::pair{RecordKind::Facts, &pending_facts_},
                                        std::pair{RecordKind::Graph, &pending_graphs_}}) {
      for (const auto& [key, record] : *pending) {
        if (!record.write_back) continue;
        std::string sealed = seal_remote_value(options_.farm_key, key, record.payload);
        if (!sealed.empty()) write_back.emplace_back(remote_key(kind, key), std::move(sealed));
      }
    }
    try {
      if (faulted_.load() && env_ != nullptr) handle_fault("reading the store");
      if (corrupt_.load() && env_ != nullptr) rebuild("a stored record failed verification");
      const bool anything = !pending_facts_.empty() || !pending_graphs_.empty() ||
                            !used_facts_.empty() || !used_graphs_.empty();
      if (env_ != nullptr && anything) {
        int rc = commit_pending_locked();
        if (is_corruption(rc) && env_ != nullptr) {
          rebuild(mdb_strerror(rc));
          rc = commit_pending_locked();
        }
        if (rc != 0 && !faulted_.load()) {
          emit_warning(options_.warn, fmt::format("fact cache {}: {} records not saved: {}", dir_,
                                                  pending_facts_.size() + pending_graphs_.size(),
                                                  mdb_strerror(rc)));
        }
      }
    } catch (const CacheError& e) {
      emit_warning(options_.warn, fmt::format("fact cache disabled: {}", e.what()));
    }
    pending_facts_.clear();
    pending_graphs_.clear();
    used_facts_.clear();
    used_graphs_.clear();
    unflushed_ = {};
  }
  if (remote_) remote_->put(write_back);
}

size_t LmdbFactCache::trim(std::optional<uint64_t> target_bytes) {
  flush();
  const sync::WriterLock exclusive(env_mutex_);
  size_t deleted = 0;
  if (env_ == nullptr) return 0;
  const uint64_t target = target_bytes.value_or(percent_of(options_.max_bytes, kEvictAbovePercent));
  int rc = write_txn([&](MDB_txn* txn) REQUIRES(env_mutex_) {
    deleted = 0;
    return evict_oldest(txn, dbs_, records_target(txn, dbs_, target), SIZE_MAX, deleted);
  });
  if (rc != 0 && !faulted_.load()) {
    emit_warning(options_.warn,
                 fmt::format("fact cache {}: trim failed: {}", dir_, mdb_strerror(rc)));
  }
  return rc == 0 ? deleted : 0;
}

HitCounts LmdbFactCache::hits() const {
  const sync::MutexLock lock(pending_mutex_);
  return total_;
}

bool LmdbFactCache::took_remote() const {
  const sync::MutexLock lock(pending_mutex_);
  for (const auto* pending : {&pending_facts_, &pending_graphs_}) {
    for (const auto& item : *pending) {
      if (item.second.from_remote) return true;
    }
  }
  return false;
}

void LmdbFactCache::reject_remote(const std::string& why) {
  {
    const sync::MutexLock lock(pending_mutex_);
    for (auto* pending : {&pending_facts_, &pending_graphs_}) {
      std::erase_if(*pending, [](const auto& item) { return item.second.from_remote; });
    }
  }
  if (remote_) remote_->turn_off("a record did not fit the sources: " + why);
}

bool LmdbFactCache::remote_up() const {
  return remote_ && remote_->up();
}

StoreInfo LmdbFactCache::info() const {
  StoreInfo info;
  info.location = dir_;
  info.max_bytes = options_.max_bytes;
  info.bytes_on_disk = file_bytes(dir_ + "/" + kDataFile) + file_bytes(dir_ + "/" + kLockFile);
  sync::ReaderLock lock(env_mutex_);
  if (env_ == nullptr || faulted_.load()) {
    info.healthy = false;
    info.problem = "store could not be opened";
    return info;
  }
  const bool ran = run_guarded([&]() REQUIRES_SHARED(env_mutex_) {
    MDB_txn* txn = nullptr;
    if (mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn) != 0) return;
    MDB_stat stat{};
    if (mdb_stat(txn, dbs_.facts, &stat) == 0) info.entries = stat.ms_entries;
    info.graph_entries = count_graphs(txn, dbs_.graphs);
    info.accounted_bytes = read_counter(txn, dbs_, kBytesCounter);
    info.used_bytes = used_bytes(txn, dbs_);
    info.counts = read_hit_counts(txn, dbs_);
    mdb_txn_abort(txn);
  });
  info.healthy = ran && !corrupt_.load();
  if (!info.healthy) info.problem = "a stored record failed verification";
  return info;
}

}  // namespace anchorfs::cache
