// doctor's resource checks: inotify watches for live refresh, the cache directory, the Redis tier.
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

#include "cache/record_mac.h"
#include "cache/redis_tier.h"
#include "cache/store_info.h"
#include "cli/cli_error.h"
#include "cli/doctor_checks.h"
#include "cli/paths.h"

namespace anchorfs::cli {
namespace {

uint64_t read_number(const char* path) {
  std::ifstream in(path);
  uint64_t value = 0;
  in >> value;
  return value;
}

// Directories below `path` (itself included), not following symbolic links: live refresh
// watches each one.
uint64_t count_directories(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return 0;
  uint64_t count = 1;
  while (const dirent* d = ::readdir(dir)) {
    if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0) continue;
    const std::string child = path + "/" + d->d_name;
    struct stat st {};
    if (::lstat(child.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) count += count_directories(child);
  }
  ::closedir(dir);
  return count;
}

struct InotifyUse {
  uint64_t instances = 0;
  uint64_t watches = 0;
};

// The inotify instances and watches this user's processes hold now (the limits are per user):
// each instance is a descriptor on anon_inode:inotify whose fdinfo lists one "inotify wd:" line
// per watch.
InotifyUse inotify_in_use() {
  InotifyUse use;
  const uid_t uid = ::getuid();
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return use;
  while (const dirent* p = ::readdir(proc)) {
    if (p->d_name[0] < '0' || p->d_name[0] > '9') continue;
    const std::string base = std::string("/proc/") + p->d_name;
    struct stat st {};
    if (::stat(base.c_str(), &st) != 0 || st.st_uid != uid) continue;
    DIR* fds = ::opendir((base + "/fd").c_str());
    if (fds == nullptr) continue;
    while (const dirent* f = ::readdir(fds)) {
      char target[64] = {};
      const std::string link = base + "/fd/" + f->d_name;
      if (::readlink(link.c_str(), target, sizeof target - 1) <= 0) continue;
      if (std::strcmp(target, "anon_inode:inotify") != 0) continue;
      ++use.instances;
      std::ifstream info(base + "/fdinfo/" + f->d_name);
      std::string line;
      while (std::getline(info, line)) use.watches += line.starts_with("inotify wd:") ? 1 : 0;
    }
    ::closedir(fds);
  }
  ::closedir(proc);
  return use;
}

// Whether a file can be created in `dir` (a real attempt: root passes access(2) checks even on a
// read-only filesystem).
bool can_create_in(const std::string& dir, std::string& why) {
  std::string name = dir + "/.anchorfs-doctor-XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    why = errno_text(errno);
    return false;
  }
  ::close(fd);
  ::unlink(name.c_str());
  return true;
}

std::string nearest_existing(std::string path) {
  struct stat st {};
  while (!path.empty() && ::stat(path.c_str(), &st) != 0) {
    const size_t slash = path.rfind('/');
    path = slash == 0 ? "/" : path.substr(0, slash == std::string::npos ? 0 : slash);
  }
  return path;
}

std::string human(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30)) return fmt::format("{:.1f} GiB", double(bytes) / (1 << 30));
  if (bytes >= (uint64_t{1} << 20)) return fmt::format("{:.1f} MiB", double(bytes) / (1 << 20));
  return fmt::format("{} KiB", bytes >> 10);
}

}  // namespace

Finding check_inotify(const std::string& repo) {
  if (repo.empty()) {
    return passed("inotify", "no repository to compare with (give --repo REPO, or a MOUNTPOINT "
                         "anchorfs serves)");
  }
  const uint64_t directories = count_directories(repo);
  const uint64_t max_watches = read_number("/proc/sys/fs/inotify/max_user_watches");
  const uint64_t max_instances = read_number("/proc/sys/fs/inotify/max_user_instances");
  const InotifyUse use = inotify_in_use();
  if (max_instances != 0 && use.instances >= max_instances) {
    return failed("inotify",
                   fmt::format("all {} inotify instances of this user are in use", max_instances),
                   fmt::format("sysctl fs.inotify.max_user_instances={} (keep it: a file in "
                               "/etc/sysctl.d), or mount with --no-watch",
                               max_instances * 2));
  }
  const uint64_t free_watches = max_watches > use.watches ? max_watches - use.watches : 0;
  if (directories > free_watches) {
    const uint64_t wanted = std::max<uint64_t>(524288, (use.watches + directories) * 2);
    return failed(
        "inotify",
        fmt::format("{} has {} directories but only {} of the user's {} inotify watches are "
                    "free (live refresh needs one per directory; it would fall back to rescans "
                    "every 2 s)",
                    repo, directories, free_watches, max_watches),
        fmt::format("sysctl fs.inotify.max_user_watches={} (keep it: echo "
                    "fs.inotify.max_user_watches={} > /etc/sysctl.d/60-anchorfs.conf), or "
                    "mount with --no-watch",
                    wanted, wanted));
  }
  return passed("inotify", fmt::format("{} directories to watch, {} of {} watches free", directories,
                                   free_watches, max_watches));
}

Finding check_cache(const CacheArgs& cache, const std::string& repo) {
  if (cache.disabled) return passed("cache", "disabled (--no-cache)");
  std::string root;
  CacheSettings settings;
  try {
    root = cache_root(cache);
    settings = cache_settings(cache);
  } catch (const CliError& error) {
    return failed("cache", error.what(), "set --cache-dir DIR (or XDG_CACHE_HOME), or --no-cache");
  }
  if (!repo.empty() && is_within(canonical_keep_last(root), repo)) {
    return failed("cache", root + " lies inside the repository " + repo,
                   "choose a --cache-dir outside it");
  }
  const std::string existing = nearest_existing(root);
  struct stat st {};
  if (existing == root && (::stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))) {
    return failed("cache", root + ": not a directory", "remove it or choose another --cache-dir");
  }
  std::string why;
  if (!can_create_in(existing, why)) {
    return failed("cache", fmt::format("{}: cannot write in {}: {}", root, existing, why),
                   "make it writable for your user, or choose another --cache-dir");
  }
  uint64_t used = 0;
  if (const auto info = cache::inspect_store(root)) {
    if (!info->healthy) {
      return failed("cache", root + ": the store failed verification: " + info->problem,
                     "anchorfs cache clear (it would also be rebuilt on the next use)");
    }
    used = info->used_bytes;
  }
  struct statvfs fs {};
  if (::statvfs(existing.c_str(), &fs) == 0) {
    const uint64_t free_bytes = uint64_t{fs.f_bavail} * fs.f_frsize;
    const uint64_t growth = settings.max_bytes > used ? settings.max_bytes - used : 0;
    if (free_bytes < growth) {
      return failed("cache",
                     fmt::format("{}: {} used of a {} cap, but only {} free on its filesystem",
                                 root, human(used), human(settings.max_bytes), human(free_bytes)),
                     fmt::format("lower the cap (--cache-max-size {}M, or "
                                 "ANCHORFS_CACHE_MAX_SIZE), or free space",
                                 std::max<uint64_t>(1, (used + free_bytes / 2) >> 20)));
    }
  }
  return passed("cache", fmt::format("{}: writable, {} used of a {} cap", root, human(used),
                                 human(settings.max_bytes)));
}

Finding check_remote_cache(const CacheArgs& cache) {
  if (cache.disabled) return passed("remote cache", "disabled (--no-cache)");
  CacheSettings settings;
  try {
    settings = cache_settings(cache);
  } catch (const CliError& error) {
    return failed("remote cache", error.what(),
                   "correct --remote-cache, $ANCHORFS_REMOTE_CACHE or remote-cache in the config");
  }
  if (!settings.remote) return passed("remote cache", "not configured (local cache only)");
  if (settings.farm_key.size() < cache::kMinFarmKeyBytes) {
    return failed("remote cache",
                  settings.remote->display() + ": configured but not used: no farm key",
                  fmt::format("give every machine the same private file of at least {} secret "
                              "bytes: --remote-cache-key-file FILE (or "
                              "$ANCHORFS_REMOTE_CACHE_KEY_FILE, remote-cache-key-file in the "
                              "config file)",
                              cache::kMinFarmKeyBytes));
  }
  std::string failure;
  cache::RemoteOptions options;
  options.address = *settings.remote;
  options.timeout = std::chrono::milliseconds(1000);
  options.warn = [&failure](const std::string& message) {
    if (failure.empty()) failure = message;
  };
  cache::RedisTier tier(options);
  tier.get("anchorfs:doctor-probe");
  if (!tier.up() || !failure.empty()) {
    return failed("remote cache", settings.remote->display() + ": " + failure,
                   "start the Redis server or correct --remote-cache / $ANCHORFS_REMOTE_CACHE "
                   "(anchorfs runs on the local cache alone while it is down)");
  }
  return passed("remote cache", settings.remote->display() + ": answers");
}

}  // namespace anchorfs::cli
