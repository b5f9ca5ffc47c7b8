// doctor's FUSE checks: the device, fusermount3, allow_other and the mountpoint.
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "cli/cli_error.h"
#include "cli/doctor_checks.h"
#include "cli/mount_checks.h"
#include "cli/mountinfo.h"
#include "cli/paths.h"

namespace anchorfs::cli {
namespace {

constexpr unsigned kFuseMajor = 10;  // the misc device of the fuse module
constexpr unsigned kFuseMinor = 229;

bool fuse_conf_allows_other() {
  std::ifstream conf("/etc/fuse.conf");
  std::string line;
  while (std::getline(conf, line)) {
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line == "user_allow_other") return true;
  }
  return false;
}

bool empty_directory(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return false;
  bool empty = true;
  while (const dirent* d = ::readdir(dir)) {
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) empty = false;
  }
  ::closedir(dir);
  return empty;
}

}  // namespace

Finding check_fuse_device() {
  struct stat st {};
  if (::stat("/dev/fuse", &st) != 0) {
    return failed("/dev/fuse", "missing",
                   "load the fuse module (modprobe fuse); in a container pass the device: docker "
                   "run --device /dev/fuse, or see docs/containers.md");
  }
  if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != kFuseMajor || minor(st.st_rdev) != kFuseMinor) {
    return failed("/dev/fuse", "not the FUSE device (character device 10:229)",
                   "replace it: rm /dev/fuse && mknod -m 0666 /dev/fuse c 10 229");
  }
  const int fd = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == EPERM) {
      return failed("/dev/fuse", "opening it is not permitted (a container's device rules)",
                     "allow the device: docker run --device /dev/fuse (Kubernetes: a privileged "
                     "pod or a device plugin)");
    }
    return failed("/dev/fuse", "cannot be opened read-write: " + errno_text(error),
                   "run as root, or make it usable by your user: chmod 0666 /dev/fuse (Debian's "
                   "default)");
  }
  ::close(fd);
  return passed("/dev/fuse", "character device 10:229, opens read-write");
}

Finding check_fusermount() {
  const std::string path = find_on_path("fusermount3");
  const bool root = ::geteuid() == 0;
  if (path.empty()) {
    if (root) return passed("fusermount3", "not on PATH (not needed: running as root)");
    return failed("fusermount3", "not found on PATH (a normal user mounts through it)",
                   "install it: apt-get install fuse3");
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return failed("fusermount3", path + ": " + errno_text(errno), "reinstall fuse3");
  }
  if (st.st_uid != 0 || (st.st_mode & S_ISUID) == 0) {
    if (root) return passed("fusermount3", path + " is not setuid root (not needed: running as root)");
    return failed("fusermount3", path + " is not setuid root (a normal user cannot mount)",
                   "as root: chown root " + path + " && chmod u+s " + path);
  }
  return passed("fusermount3", path + ", setuid root");
}

Finding check_allow_other(const std::vector<std::string>& fuse_options) {
  const bool wanted = std::any_of(fuse_options.begin(), fuse_options.end(), [](const auto& o) {
    return o == "allow_other" || o == "allow_root";
  });
  if (!wanted) return passed("allow_other", "not asked for (-o allow_other)");
  if (::geteuid() == 0) return passed("allow_other", "allowed (running as root)");
  if (fuse_conf_allows_other()) return passed("allow_other", "user_allow_other is set in /etc/fuse.conf");
  return failed("allow_other",
                 "-o allow_other needs user_allow_other in /etc/fuse.conf for a normal user",
                 "as root: echo user_allow_other >> /etc/fuse.conf");
}

Finding check_mountpoint(const std::string& mountpoint) {
  if (mountpoint.empty()) return passed("mountpoint", "none given (anchorfs doctor MOUNTPOINT checks one)");
  struct stat st {};
  if (::stat(mountpoint.c_str(), &st) != 0) {
    const int error = errno;
    if (error == ENOTCONN) {
      return failed("mountpoint",
                     mountpoint + ": a dead mount (transport endpoint is not connected: its "
                                  "daemon was killed)",
                     "anchorfs unmount " + mountpoint);
    }
    if (error == ENOENT) {
      return failed("mountpoint", mountpoint + ": no such directory", "mkdir -p " + mountpoint);
    }
    return failed("mountpoint", mountpoint + ": " + errno_text(error),
                   "choose a directory you can use");
  }
  if (!S_ISDIR(st.st_mode)) {
    return failed("mountpoint", mountpoint + ": not a directory", "choose a directory");
  }
  const std::string path = canonical(mountpoint);
  if (const auto mounted = find_mount(path)) {
    const bool fuse = mounted->fstype.starts_with("fuse");
    if (fuse && fuse_mount_is_dead(path)) {
      return failed("mountpoint",
                     mountpoint + ": a dead mount (its daemon was killed; reads fail with "
                                  "\"transport endpoint is not connected\")",
                     "anchorfs unmount " + mountpoint);
    }
    if (mounted->fstype == kAnchorfsFsType) {
      return passed("mountpoint", mountpoint + ": anchorfs serves " + mounted->source + " here");
    }
    return failed("mountpoint", mountpoint + ": already a mount point (" + mounted->fstype + ")",
                   "unmount it or choose another directory");
  }
  if (!empty_directory(path)) {
    return failed("mountpoint", mountpoint + ": not empty (anchorfs mounts only on an empty "
                                 "directory)",
                   "choose an empty directory");
  }
  return passed("mountpoint", mountpoint + ": an empty directory, ready to mount on");
}

std::string doctor_hint(const std::string& mountpoint) {
  return fmt::format("`anchorfs doctor {}` checks everything mounting needs, with fixes",
                     mountpoint);
}

}  // namespace anchorfs::cli
