// Safe, non-blocking opens and complete preads on the source tree.
#include "fs/source_file.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

namespace anchorfs::fs {
namespace {

constexpr int kBaseFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;

// Cleared the first time the kernel (or a seccomp filter) refuses openat2.
std::atomic<bool> openat2_usable{true};
// Cleared the first time O_NOATIME is refused (we neither own the file nor are privileged).
std::atomic<bool> noatime_usable{true};

int open_once(int root_fd, const char* path, int flags, mode_t mode = 0) {
  if (openat2_usable.load(std::memory_order_relaxed)) {
    open_how how{};
    how.flags = static_cast<uint64_t>(flags);
    how.mode = (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = ::syscall(SYS_openat2, root_fd, path, &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    if (errno != ENOSYS && errno != EPERM) return -1;
    if (errno == ENOSYS) openat2_usable.store(false, std::memory_order_relaxed);
    if (errno == EPERM && (flags & O_NOATIME) != 0) return -1;
  }
  return ::openat(root_fd, path, flags, mode);
}

}  // namespace

int open_source(int root_fd, const std::string& path) {
  const char* relative = path.empty() ? "." : path.c_str();
  if (noatime_usable.load(std::memory_order_relaxed)) {
    int fd = open_once(root_fd, relative, kBaseFlags | O_NOATIME);
    if (fd >= 0 || errno != EPERM) return fd;
    noatime_usable.store(false, std::memory_order_relaxed);
  }
  return open_once(root_fd, relative, kBaseFlags);
}

int open_beneath(int root_fd, const std::string& path, int flags, mode_t mode) {
  return open_once(root_fd, path.empty() ? "." : path.c_str(), flags | O_CLOEXEC, mode);
}

ssize_t pread_fully(int fd, char* buffer, size_t size, uint64_t offset) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, buffer + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

}  // namespace anchorfs::fs
