// `anchorfs cache stats|clear`: listing and removing stores without trusting their contents.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "cache/cache_location.h"
#include "cache/store_check.h"
#include "cache/store_info.h"

namespace anchorfs::cache {

namespace {

// store_dir_for() names stores by 16 lowercase hex digits; nothing else is ever touched.
bool is_store_name(std::string_view name) {
  return name.size() == 16 && std::all_of(name.begin(), name.end(), [](char c) {
           return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
         });
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> store_dirs(const std::string& cache_root) {
  std::vector<std::string> dirs;
  DIR* d = ::opendir(cache_root.c_str());
  if (d == nullptr) {
    return dirs;
  }
  while (const dirent* e = ::readdir(d)) {
    const std::string path = cache_root + "/" + e->d_name;
    if (is_store_name(e->d_name) && is_directory(path)) {
      dirs.push_back(path);
    }
  }
  ::closedir(d);
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

uint64_t file_bytes(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// Removes the files LMDB and set_aside() create, then the directory; false when something else
// in it (not ours) kept it from going.
bool remove_store_dir(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    return false;
  }
  const std::string corrupt_prefix = std::string(kDataFile) + ".corrupt-";
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == kDataFile || name == kLockFile || name.starts_with(corrupt_prefix)) {
      ::unlink((dir + "/" + e->d_name).c_str());
    }
  }
  ::closedir(d);
  return ::rmdir(dir.c_str()) == 0;
}

}  // namespace

std::vector<StoreInfo> list_stores(const std::string& cache_root) {
  std::vector<StoreInfo> stores;
  for (const std::string& dir : store_dirs(cache_root)) {
    const StoreReport report = check_store(dir);
    StoreInfo info;
    info.location = dir;
    info.repo_path = report.repo_path;
    info.analyser_version = report.analyser_version;
    info.entries = report.entries;
    info.graph_entries = report.graph_entries;
    info.bytes_on_disk = file_bytes(dir + "/" + kDataFile) + file_bytes(dir + "/" + kLockFile);
    info.healthy = report.healthy;
    info.problem = report.problem;
    stores.push_back(std::move(info));
  }
  std::sort(stores.begin(), stores.end(), [](const StoreInfo& a, const StoreInfo& b) {
    return a.repo_path != b.repo_path ? a.repo_path < b.repo_path : a.location < b.location;
  });
  return stores;
}

bool clear_store(const std::string& cache_root, const std::string& repo_root) {
  const std::string dir = store_dir_for(resolve_path(cache_root), repo_root);
  return is_directory(dir) && remove_store_dir(dir);
}

size_t clear_all_stores(const std::string& cache_root) {
  size_t removed = 0;
  for (const std::string& dir : store_dirs(resolve_path(cache_root))) {
    removed += remove_store_dir(dir) ? 1 : 0;
  }
  return removed;
}

}  // namespace anchorfs::cache
