// openat2-based opens beneath a directory, split into directory runs for paths over PATH_MAX.
#include "analysis/open_beneath.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

namespace anchorfs::analysis {
namespace {

constexpr int kDirectoryFlags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
// Paths at least this long are opened a directory run at a time (the kernel takes < PATH_MAX).
constexpr size_t kLongPath = 3072;

// Cleared the first time the kernel (or a seccomp filter) refuses openat2.
std::atomic<bool> openat2_usable{true};

int open_once(int dir_fd, const char* path, int flags, mode_t mode = 0) {
  if (openat2_usable.load(std::memory_order_relaxed)) {
    open_how how{};
    how.flags = static_cast<uint64_t>(flags);
    how.mode = (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = ::syscall(SYS_openat2, dir_fd, path, &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    if (errno != ENOSYS && errno != EPERM) return -1;
    if (errno == ENOSYS) openat2_usable.store(false, std::memory_order_relaxed);
    if (errno == EPERM && (flags & O_NOATIME) != 0) return -1;
  }
  return ::openat(dir_fd, path, flags | O_NOFOLLOW, mode);
}

}  // namespace

int open_beneath(int dir_fd, const std::string& path, int flags, mode_t mode) {
  if (path.size() < kLongPath) {
    return open_once(dir_fd, path.empty() ? "." : path.c_str(), flags, mode);
  }
  int at = dir_fd;
  size_t start = 0;
  while (path.size() - start >= kLongPath) {
    const size_t cut = path.rfind('/', start + kLongPath - 1);
    if (cut == std::string::npos || cut <= start) {
      if (at != dir_fd) ::close(at);
      errno = ENAMETOOLONG;
      return -1;
    }
    const std::string run = path.substr(start, cut - start);
    const int next = open_once(at, run.c_str(), kDirectoryFlags);
    const int error = errno;
    if (at != dir_fd) ::close(at);
    if (next < 0) {
      errno = error;
      return -1;
    }
    at = next;
    start = cut + 1;
  }
  const int fd = open_once(at, path.c_str() + start, flags, mode);
  const int error = errno;
  ::close(at);
  errno = error;
  return fd;
}

}  // namespace anchorfs::analysis
