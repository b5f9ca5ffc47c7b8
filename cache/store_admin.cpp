// `anchorfs cache stats|trim|clear`: inspecting and removing stores without trusting them.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <string_view>

#include "cache/cache_location.h"
#include "cache/dir_lock.h"
#include "cache/store_check.h"
#include "cache/store_info.h"
#include "cache/verified_identity.h"

namespace anchorfs::cache {

namespace {

constexpr const char* kSharedStoreName = "store";

// Older versions named one store per repository by 16 lowercase hex digits.
bool is_legacy_store_name(std::string_view name) {
  return name.size() == 16 && std::all_of(name.begin(), name.end(), [](char c) {
           return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
         });
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

uint64_t file_bytes(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

bool is_store_file(std::string_view name) {
  return name == kDataFile || name == kLockFile || name.starts_with(kVerifiedFile) ||
         name.starts_with(std::string(kDataFile) + ".corrupt-");
}

// Applies `action` to each file LMDB and set_aside() create in `dir`; false when `dir` holds
// something else too.
template <typename Action>
bool for_each_store_file(const std::string& dir, Action action) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return true;
  bool only_ours = true;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (is_store_file(name)) {
      action(dir + "/" + e->d_name);
    } else if (name != "." && name != "..") {
      only_ours = false;
    }
  }
  ::closedir(d);
  return only_ours;
}

// A live mount sharing the store may record its data file's identity ("verified.*") between our
// reading the directory and removing it; it stops once the data file is gone, so a few passes
// see every such file. More than this many means something keeps writing there.
constexpr int kRemovePasses = 8;

// Removes the store's own files, then the directory; false when something else in it (not
// ours) kept it from going. Under the store's lock, so no process opens, repairs or empties it
// meanwhile (a process that was waiting for the lock finds the directory gone and makes a new one).
bool remove_store_dir(const std::string& dir) {
  const DirLock lock(dir);
  for (int pass = 0; pass < kRemovePasses; ++pass) {
    const bool only_ours =
        for_each_store_file(dir, [](const std::string& path) { ::unlink(path.c_str()); });
    if (::rmdir(dir.c_str()) == 0) return true;
    if (errno != ENOTEMPTY && errno != EEXIST) return false;
    if (!only_ours) return false;
  }
  return false;
}

}  // namespace

std::string shared_store_dir(const std::string& cache_root) {
  return cache_root + "/" + kSharedStoreName;
}

std::optional<StoreInfo> inspect_store(const std::string& cache_root) {
  const std::string dir = shared_store_dir(cache_root);
  if (!is_directory(dir)) return std::nullopt;
  const StoreReport report = check_store(dir);
  StoreInfo info = report.info;
  info.location = dir;
  info.bytes_on_disk = file_bytes(dir + "/" + kDataFile) + file_bytes(dir + "/" + kLockFile);
  info.healthy = report.healthy;
  info.problem = report.problem;
  return info;
}

std::vector<std::string> legacy_store_dirs(const std::string& cache_root) {
  std::vector<std::string> dirs;
  DIR* d = ::opendir(cache_root.c_str());
  if (d == nullptr) return dirs;
  while (const dirent* e = ::readdir(d)) {
    const std::string path = cache_root + "/" + e->d_name;
    if (is_legacy_store_name(e->d_name) && is_directory(path)) dirs.push_back(path);
  }
  ::closedir(d);
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

uint64_t legacy_store_bytes(const std::string& cache_root) {
  uint64_t total = 0;
  for (const std::string& dir : legacy_store_dirs(cache_root)) {
    for_each_store_file(dir, [&total](const std::string& path) { total += file_bytes(path); });
  }
  return total;
}

bool clear_legacy_store(const std::string& dir) {
  return is_legacy_store_name(dir.substr(dir.rfind('/') + 1)) && remove_store_dir(dir);
}

size_t clear_all_stores(const std::string& cache_root) {
  const std::string root = resolve_path(cache_root);
  size_t removed = 0;
  for (const std::string& dir : legacy_store_dirs(root)) removed += remove_store_dir(dir) ? 1 : 0;
  const std::string shared = shared_store_dir(root);
  if (is_directory(shared)) removed += remove_store_dir(shared) ? 1 : 0;
  return removed;
}

}  // namespace anchorfs::cache
