// Pre-mount validation: repository, mountpoint, their relation, and access to /dev/fuse.
#include "cli/mount_checks.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <future>
#include <memory>
#include <sstream>
#include <thread>
#include <utility>

#include "cache/cache_location.h"
#include "cli/cli_error.h"
#include "cli/doctor_checks.h"
#include "cli/mountinfo.h"
#include "cli/paths.h"

namespace anchorfs::cli {
namespace {

std::string stale_mount_advice(const std::string& mountpoint) {
  return "a dead mount (transport endpoint is not connected: its daemon was killed); run "
         "`anchorfs unmount " +
         mountpoint + "` first";
}

bool directory_is_empty(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) throw CliError(path, errno_text(errno));
  bool empty = true;
  while (const dirent* d = ::readdir(dir)) {
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) {
      empty = false;
      break;
    }
  }
  ::closedir(dir);
  return empty;
}

void require_fuse_device() {
  struct stat st {};
  if (::stat("/dev/fuse", &st) != 0) {
    throw CliError("/dev/fuse",
                   "missing: load the fuse kernel module (modprobe fuse), or in a "
                   "container pass the device (--device /dev/fuse)");
  }
  if (::geteuid() == 0) return;
  if (find_on_path("fusermount3").empty()) {
    throw CliError("fusermount3",
                   "not found: install the fuse3 package to mount as a non-root user");
  }
  if (::access("/dev/fuse", R_OK | W_OK) != 0) {
    throw CliError("/dev/fuse",
                   "permission denied: run as root or make /dev/fuse usable by your user");
  }
}

}  // namespace

// stat() of the mount root can succeed from the kernel's attribute cache, so ask something no
// cache holds: the lookup of a name never asked before, from a thread we stop waiting for after
// a while (a hung daemon is not dead).
bool fuse_mount_is_dead(const std::string& mountpoint) {
  auto probe = std::make_shared<std::promise<int>>();
  std::future<int> answer = probe->get_future();
  const std::string name = mountpoint + "/.anchorfs-probe-" + std::to_string(::getpid());
  std::thread([probe, name] {
    struct stat st {};
    probe->set_value(::lstat(name.c_str(), &st) == 0 ? 0 : errno);
  }).detach();
  if (answer.wait_for(std::chrono::seconds(2)) != std::future_status::ready) return false;
  return answer.get() == ENOTCONN;
}

std::string find_on_path(const char* program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = dir + "/" + program;
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::string check_repo(const std::string& repo) {
  struct stat st {};
  if (::stat(repo.c_str(), &st) != 0) throw CliError(repo, errno_text(errno));
  if (!S_ISDIR(st.st_mode)) throw CliError(repo, "not a directory");
  if (::access(repo.c_str(), R_OK | X_OK) != 0) throw CliError(repo, errno_text(errno));
  return canonical(repo);
}

CheckedMountPaths check_mount_paths(const std::string& repo, const std::string& mountpoint) {
  CheckedMountPaths paths;
  paths.repo = check_repo(repo);

  struct stat st {};
  if (::stat(mountpoint.c_str(), &st) != 0) {
    const int error = errno;
    if (error == ENOTCONN) {
      throw CliError(mountpoint, stale_mount_advice(mountpoint)).with_hint(doctor_hint(mountpoint));
    }
    if (error == ENOENT) throw CliError(mountpoint, "no such directory (create it first)");
    throw CliError(mountpoint, errno_text(error));
  }
  if (!S_ISDIR(st.st_mode)) throw CliError(mountpoint, "not a directory");
  paths.mountpoint = canonical(mountpoint);

  if (auto mounted = find_mount(paths.mountpoint)) {
    if (mounted->fstype.starts_with("fuse") && fuse_mount_is_dead(paths.mountpoint)) {
      throw CliError(mountpoint, stale_mount_advice(mountpoint)).with_hint(doctor_hint(mountpoint));
    }
    throw CliError(mountpoint, "already a mount point (" + mounted->fstype + "); unmount it first");
  }
  if (paths.mountpoint == paths.repo) {
    throw CliError(mountpoint, "is the repository itself (mount the view somewhere else)");
  }
  if (is_within(paths.mountpoint, paths.repo)) {
    throw CliError(mountpoint, "inside the repository " + paths.repo +
                                   " (the mount would show up in its own tree)");
  }
  if (is_within(paths.repo, paths.mountpoint)) {
    throw CliError(repo, "inside the mountpoint " + paths.mountpoint +
                             " (mounting would hide the repository)");
  }
  if (!directory_is_empty(paths.mountpoint)) {
    throw CliError(mountpoint, "not empty (anchorfs mounts only on an empty directory)");
  }
  try {
    require_fuse_device();
  } catch (CliError& error) {
    throw std::move(error).with_hint(doctor_hint(mountpoint));
  }
  return paths;
}

void check_outside_mount(const std::string& option, const std::string& path,
                         const CheckedMountPaths& paths) {
  if (path.empty()) return;
  const std::string resolved = cache::resolve_path(path);
  for (const auto& [what, dir] :
       {std::pair<const char*, const std::string&>{"the repository", paths.repo},
        {"the mountpoint", paths.mountpoint}}) {
    if (cache::is_same_or_below(resolved, dir)) {
      throw CliError(option, path + " is inside " + what + " " + dir +
                                 " (anchorfs would write into what it serves); choose a path "
                                 "outside REPO and MOUNTPOINT");
    }
  }
}

}  // namespace anchorfs::cli
