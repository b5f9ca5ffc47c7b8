// LmdbFactCache: verified open, version-scoped records, batched commits, corruption recovery.
#include "cache/lmdb_fact_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

#include "cache/record_codec.h"
#include "cache/store_check.h"

namespace anchorfs::cache {

namespace {

constexpr int kMaxGrowths = 24;
constexpr unsigned kMaxReaders = 512;

std::string_view as_view(const MDB_val& v) {
  return {static_cast<const char*>(v.mv_data), v.mv_size};
}

MDB_val as_val(std::string_view s) {
  return {s.size(), const_cast<char*>(s.data())};
}

// Errors that mean the file's contents cannot be trusted (rather than a resource problem).
bool is_corruption(int rc) {
  return rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND || rc == MDB_INVALID ||
         rc == MDB_VERSION_MISMATCH || rc == MDB_BAD_TXN || rc == MDB_INCOMPATIBLE;
}

// An exclusive flock on the store directory: serialises verify / set-aside / open between the
// processes sharing a store (LMDB's own locks only cover transactions).
class DirLock {
 public:
  explicit DirLock(const std::string& dir)
      : fd_(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ >= 0) {
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~DirLock() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

 private:
  int fd_;
};

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

// Deletes every record of `dbi` whose key was written under another analyser version.
int drop_other_versions(MDB_txn* txn, MDB_dbi dbi, uint64_t version) {
  MDB_cursor* cursor = nullptr;
  MDB_val key{};
  MDB_val value{};  // only points into the map: no copy
  int rc = mdb_cursor_open(txn, dbi, &cursor);
  while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
    if (key_version(as_view(key)) != version) {
      rc = mdb_cursor_del(cursor, 0);
    }
  }
  if (cursor != nullptr) {
    mdb_cursor_close(cursor);
  }
  return rc == MDB_NOTFOUND ? 0 : rc;
}

void remove_set_aside_files(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    return;
  }
  const std::string prefix = std::string(kDataFile) + ".corrupt-";
  while (const dirent* e = ::readdir(d)) {
    if (std::string_view(e->d_name).starts_with(prefix)) {
      ::unlink((dir + "/" + e->d_name).c_str());
    }
  }
  ::closedir(d);
}

}  // namespace

LmdbFactCache::LmdbFactCache(CacheOptions options, std::string dir)
    : options_(std::move(options)),
      dir_(std::move(dir)),
      version_hash_(version_hash(options_.analyser_version)) {}

std::unique_ptr<LmdbFactCache> LmdbFactCache::open(const CacheOptions& options) {
  struct stat st {};
  if (::stat(options.repo_root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw CacheError(fmt::format("repository {} is not a directory", options.repo_root));
  }
  const std::string repo = resolve_path(options.repo_root);
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

  const std::string dir = store_dir_for(root, repo);
  try {
    if (is_same_or_below(root, repo) || is_same_or_below(dir, repo)) {
      throw CacheError(
          fmt::format("cache directory {} is inside the repository {}; anchorfs never writes there",
                      root, repo));
    }
    if (explicit_dir) {
      create_private_dirs(root);
    } else {
      ensure_private_dir(root);
    }
    ensure_private_dir(dir);
  } catch (const CacheError& e) {
    if (explicit_dir) {
      throw;
    }
    emit_warning(options.warn, fmt::format("no cache: {}", e.what()));
    return nullptr;
  }

  CacheOptions resolved = options;
  resolved.repo_root = repo;
  std::unique_ptr<LmdbFactCache> cache(new LmdbFactCache(std::move(resolved), dir));
  DirLock lock(dir);
  const StoreReport report = check_store(dir);
  if (!report.verified) {  // a resource shortage, not a verdict: keep the store for next time
    emit_warning(options.warn, fmt::format("no cache: fact cache {}: {}", dir, report.problem));
    return nullptr;
  }
  if (report.exists && !report.healthy) {
    cache->set_aside(report.problem);
  }
  try {
    cache->open_env();
  } catch (const CacheError& e) {
    if (explicit_dir) {
      throw;
    }
    emit_warning(options.warn, fmt::format("no cache: {}", e.what()));
    return nullptr;
  }
  return cache;
}

LmdbFactCache::~LmdbFactCache() {
  try {
    flush();
  } catch (const std::exception& e) {
    emit_warning(options_.warn, fmt::format("fact cache not saved: {}", e.what()));
  }
  close_env();
}

void LmdbFactCache::set_aside(const std::string& why) {
  remove_set_aside_files(dir_);
  const std::string data = dir_ + "/" + kDataFile;
  const std::string kept = data + ".corrupt-" + utc_timestamp();
  const bool moved = ::rename(data.c_str(), kept.c_str()) == 0;
  if (!moved) {
    ::unlink(data.c_str());
  }
  // The lock file describes the old data file's transactions; a fresh store needs a fresh one.
  ::unlink((dir_ + "/" + kLockFile).c_str());
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
  mdb_env_set_mapsize(env_, options_.initial_map_bytes);
  // NOMETASYNC: one fsync per commit (the data pages), not two; a system crash can lose the
  // last commit but LMDB's alternating meta pages keep the previous one intact. NOTLS: read
  // transactions belong to the call, not the thread, which suits TBB's worker threads.
  rc = mdb_env_open(env_, dir_.c_str(), MDB_NOTLS | MDB_NOMETASYNC, 0600);
  if (rc != 0) {
    mdb_env_close(env_);
    env_ = nullptr;
    return rc;
  }
  ::chmod((dir_ + "/" + kDataFile).c_str(), 0600);
  ::chmod((dir_ + "/" + kLockFile).c_str(), 0600);
  int fd = -1;
  struct stat st {};
  if (mdb_env_get_fd(env_, &fd) == 0 && ::fstat(fd, &st) == 0) {
    env_device_ = st.st_dev;
    env_inode_ = st.st_ino;
  }
  int dead = 0;
  mdb_reader_check(env_, &dead);  // slots of readers that died (e.g. a crashed check child)
  rc = initialise();
  if (rc != 0) {
    close_env();
  }
  return rc;
}

void LmdbFactCache::open_env() {
  int rc = try_open_env();
  if (is_corruption(rc)) {
    set_aside(mdb_strerror(rc));
    rc = try_open_env();
  }
  if (rc != 0) {
    throw CacheError(fmt::format("cannot open fact cache {}: {}", dir_, mdb_strerror(rc)));
  }
}

void LmdbFactCache::close_env() {
  if (env_ != nullptr) {
    mdb_env_close(env_);
    env_ = nullptr;
  }
}

int LmdbFactCache::write_txn(const std::function<int(MDB_txn*)>& body) {
  for (int attempt = 0; attempt < kMaxGrowths; ++attempt) {
    MDB_txn* txn = nullptr;
    int rc = mdb_txn_begin(env_, nullptr, 0, &txn);
    if (rc == MDB_MAP_RESIZED) {  // another process grew the map: adopt its size
      mdb_env_set_mapsize(env_, 0);
      continue;
    }
    if (rc != 0) {
      return rc;
    }
    rc = body(txn);
    if (rc == 0) {
      rc = mdb_txn_commit(txn);
    } else {
      mdb_txn_abort(txn);
    }
    if (rc != MDB_MAP_FULL) {
      return rc;
    }
    MDB_envinfo info{};
    mdb_env_info(env_, &info);
    mdb_env_set_mapsize(env_, info.me_mapsize * 2);
  }
  return MDB_MAP_FULL;
}

int LmdbFactCache::initialise() {
  const std::string version = options_.analyser_version;
  const std::string repo = options_.repo_root;
  return write_txn([&](MDB_txn* txn) {
    int rc = mdb_dbi_open(txn, kMetaDb, MDB_CREATE, &meta_dbi_);
    if (rc == 0) {
      rc = mdb_dbi_open(txn, kFactsDb, MDB_CREATE, &facts_dbi_);
    }
    if (rc == 0) {
      rc = open_graph_dbs(txn, graph_dbs_);
    }
    if (rc != 0) {
      return rc;
    }
    MDB_val key = as_val(kVersionKey);
    MDB_val value{};
    rc = mdb_get(txn, meta_dbi_, &key, &value);
    if (rc == 0 && as_view(value) == version) {
      return 0;
    }
    if (rc != 0 && rc != MDB_NOTFOUND) {
      return rc;
    }
    // A new analyser version: entries of other versions can never be loaded again, so drop
    // them now rather than let them take space forever.
    for (const MDB_dbi dbi : {facts_dbi_, graph_dbs_.graphs, graph_dbs_.used}) {
      if ((rc = drop_other_versions(txn, dbi, version_hash_)) != 0) {
        return rc;
      }
    }
    MDB_val version_key = as_val(kVersionKey);
    MDB_val version_value = as_val(version);
    MDB_val repo_key = as_val(kRepoKey);
    MDB_val repo_value = as_val(repo);
    rc = mdb_put(txn, meta_dbi_, &version_key, &version_value, 0);
    return rc != 0 ? rc : mdb_put(txn, meta_dbi_, &repo_key, &repo_value, 0);
  });
}

std::optional<std::string> LmdbFactCache::read_record(MDB_dbi dbi, const std::string& key) {
  for (int attempt = 0; attempt < 2 && !corrupt_.load(); ++attempt) {
    std::shared_lock lock(env_mutex_);
    if (env_ == nullptr) {
      return std::nullopt;
    }
    MDB_txn* txn = nullptr;
    int rc = mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn);
    if (rc == MDB_MAP_RESIZED) {  // another process grew the map; adopting it needs exclusivity
      lock.unlock();
      std::unique_lock exclusive(env_mutex_);
      if (env_ != nullptr) {
        mdb_env_set_mapsize(env_, 0);
      }
      continue;
    }
    if (rc != 0) {
      corrupt_ = corrupt_ || is_corruption(rc);
      return std::nullopt;
    }
    MDB_val k = as_val(key);
    MDB_val v{};
    rc = mdb_get(txn, dbi, &k, &v);
    std::optional<std::string> result;
    if (rc == 0) {
      if (auto payload = decode_value(key, as_view(v))) {
        result.emplace(*payload);
      } else {
        corrupt_ = true;
      }
    } else if (rc != MDB_NOTFOUND) {
      corrupt_ = true;
    }
    mdb_txn_abort(txn);
    return result;
  }
  return std::nullopt;
}

std::optional<std::string> LmdbFactCache::load(const analysis::ContentDigest& digest) {
  const std::string key = encode_key(version_hash_, digest);
  {
    std::lock_guard lock(pending_mutex_);
    if (auto it = pending_.find(key); it != pending_.end()) {
      return it->second;
    }
  }
  auto result = read_record(facts_dbi_, key);
  if (result) {
    ++disk_hits_;
    std::lock_guard used_lock(pending_mutex_);
    used_.insert(key);
  }
  return result;
}

std::optional<std::string> LmdbFactCache::load_graph(const analysis::ResolutionKey& resolution) {
  const std::string key = encode_key(version_hash_, resolution);
  {
    std::lock_guard lock(pending_mutex_);
    if (auto it = pending_graphs_.find(key); it != pending_graphs_.end()) {
      graphs_used_.push_back(key);
      return it->second;
    }
  }
  auto result = read_record(graph_dbs_.graphs, key);
  if (result) {
    std::lock_guard used_lock(pending_mutex_);
    graphs_used_.push_back(key);
  }
  return result;
}

void LmdbFactCache::store_graph(const analysis::ResolutionKey& resolution,
                                std::string_view analysis) {
  std::string key = encode_key(version_hash_, resolution);
  std::lock_guard lock(pending_mutex_);
  graphs_used_.push_back(key);
  pending_graphs_.insert_or_assign(std::move(key), std::string(analysis));
}

void LmdbFactCache::store(const analysis::ContentDigest& digest, std::string_view facts) {
  std::string key = encode_key(version_hash_, digest);
  std::lock_guard lock(pending_mutex_);
  used_.insert(key);
  pending_.try_emplace(std::move(key), facts);
}

int LmdbFactCache::commit_pending_locked() {
  std::vector<const std::pair<const std::string, std::string>*> records;
  records.reserve(pending_.size());
  for (const auto& record : pending_) {
    records.push_back(&record);
  }
  // Keys in order make LMDB append to leaf pages instead of splitting them at random.
  std::sort(records.begin(), records.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  return write_txn([&](MDB_txn* txn) {
    for (const auto* record : records) {
      const std::string value = encode_value(record->first, record->second);
      MDB_val k = as_val(record->first);
      MDB_val v = as_val(value);
      // Another process may have stored the same content already: same key, same facts.
      const int rc = mdb_put(txn, facts_dbi_, &k, &v, MDB_NOOVERWRITE);
      if (rc != 0 && rc != MDB_KEYEXIST) {
        return rc;
      }
    }
    // Graphs are deterministic too: an existing record under the key is this very analysis.
    for (const auto& [key, analysis] : pending_graphs_) {
      const std::string value = encode_value(key, analysis);
      MDB_val k = as_val(key);
      MDB_val v = as_val(value);
      const int rc = mdb_put(txn, graph_dbs_.graphs, &k, &v, MDB_NOOVERWRITE);
      if (rc != 0 && rc != MDB_KEYEXIST) {
        return rc;
      }
    }
    for (const std::string& key : graphs_used_) {
      if (const int rc = mark_graph_used(txn, graph_dbs_, key); rc != 0) {
        return rc;
      }
    }
    return pending_graphs_.empty() ? 0 : prune_graphs(txn, graph_dbs_, options_.max_graphs);
  });
}

int LmdbFactCache::prune_locked() {
  const size_t limit =
      options_.max_entries != 0 ? options_.max_entries : std::max<size_t>(20000, 4 * used_.size());
  return write_txn([&](MDB_txn* txn) {
    MDB_stat stat{};
    int rc = mdb_stat(txn, facts_dbi_, &stat);
    if (rc != 0 || stat.ms_entries <= limit) {
      return rc;
    }
    MDB_cursor* cursor = nullptr;
    MDB_val key{};
    MDB_val value{};
    rc = mdb_cursor_open(txn, facts_dbi_, &cursor);
    while (rc == 0 && (rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)) == 0) {
      if (!used_.contains(std::string(as_view(key)))) {
        rc = mdb_cursor_del(cursor, 0);
      }
    }
    mdb_cursor_close(cursor);
    return rc == MDB_NOTFOUND ? 0 : rc;
  });
}

void LmdbFactCache::rebuild(const std::string& why) {
  DirLock lock(dir_);
  struct stat st {};
  const std::string data = dir_ + "/" + kDataFile;
  const bool still_ours = ::stat(data.c_str(), &st) == 0 &&
                          static_cast<uint64_t>(st.st_dev) == env_device_ &&
                          static_cast<uint64_t>(st.st_ino) == env_inode_;
  close_env();
  if (still_ours) {
    set_aside(why);
  }  // else another process sharing the store has already replaced it
  corrupt_ = false;
  open_env();
}

void LmdbFactCache::flush() {
  std::unique_lock exclusive(env_mutex_);
  std::lock_guard lock(pending_mutex_);
  try {
    if (corrupt_.load() && env_ != nullptr) {
      rebuild("a stored record failed verification");
    }
    if (env_ != nullptr && (!pending_.empty() || !graphs_used_.empty())) {
      int rc = commit_pending_locked();
      if (is_corruption(rc)) {
        rebuild(mdb_strerror(rc));
        rc = commit_pending_locked();
      }
      if (rc == 0 && !pending_.empty()) {
        rc = prune_locked();
      }
      if (rc != 0) {
        emit_warning(options_.warn,
                     fmt::format("fact cache {}: {} records not saved: {}", dir_,
                                 pending_.size() + pending_graphs_.size(), mdb_strerror(rc)));
      }
    }
  } catch (const CacheError& e) {
    emit_warning(options_.warn, fmt::format("fact cache disabled: {}", e.what()));
  }
  pending_.clear();
  pending_graphs_.clear();
  graphs_used_.clear();
}

StoreInfo LmdbFactCache::info() const {
  StoreInfo info;
  info.location = dir_;
  info.repo_path = options_.repo_root;
  info.analyser_version = options_.analyser_version;
  info.bytes_on_disk = file_bytes(dir_ + "/" + kDataFile) + file_bytes(dir_ + "/" + kLockFile);
  std::shared_lock lock(env_mutex_);
  if (env_ == nullptr) {
    info.healthy = false;
    info.problem = "store could not be opened";
    return info;
  }
  MDB_txn* txn = nullptr;
  if (mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn) == 0) {
    MDB_stat stat{};
    if (mdb_stat(txn, facts_dbi_, &stat) == 0) {
      info.entries = stat.ms_entries;
    }
    if (mdb_stat(txn, graph_dbs_.graphs, &stat) == 0) {
      info.graph_entries = stat.ms_entries;
    }
    mdb_txn_abort(txn);
  }
  info.healthy = !corrupt_.load();
  if (!info.healthy) {
    info.problem = "a stored record failed verification";
  }
  return info;
}

}  // namespace anchorfs::cache
