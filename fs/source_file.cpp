// Safe, non-blocking opens of recorded versions and complete preads on the source tree.
#include "fs/source_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "analysis/open_beneath.h"

namespace anchorfs::fs {
namespace {

constexpr int kBaseFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;

// Cleared the first time O_NOATIME is refused (we neither own the file nor are privileged).
std::atomic<bool> noatime_usable{true};

bool same_owner_and_bytes(const struct stat& st, const analysis::TreeEntry& entry) {
  return st.st_dev == entry.device && st.st_ino == entry.inode && st.st_mode == entry.mode &&
         st.st_uid == entry.uid && st.st_gid == entry.gid &&
         static_cast<uint64_t>(st.st_size) == entry.size &&
         int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec == entry.mtime_ns;
}

int64_t ctime_ns(const struct stat& st) {
  return int64_t{st.st_ctim.tv_sec} * 1'000'000'000 + st.st_ctim.tv_nsec;
}

}  // namespace

int open_source(int root_fd, const std::string& path) {
  if (noatime_usable.load(std::memory_order_relaxed)) {
    int fd = analysis::open_beneath(root_fd, path, kBaseFlags | O_NOATIME);
    if (fd >= 0 || errno != EPERM) return fd;
    noatime_usable.store(false, std::memory_order_relaxed);
  }
  return analysis::open_beneath(root_fd, path, kBaseFlags);
}

int open_error_for_reader(int error) {
  switch (error) {
    case EACCES:
    case EPERM:
    case ENOENT:
    case ENOTDIR:
    case EMFILE:
    case ENFILE:
    case ENOMEM:
    case ENAMETOOLONG:
      return error;
    default:
      return EIO;
  }
}

bool is_recorded_version(const struct stat& st, const analysis::TreeEntry& entry) {
  return same_owner_and_bytes(st, entry) && ctime_ns(st) == entry.ctime_ns;
}

bool still_recorded_version(const struct stat& st, const analysis::TreeEntry& entry) {
  return same_owner_and_bytes(st, entry) && (ctime_ns(st) == entry.ctime_ns || st.st_nlink == 0);
}

int open_beneath(int root_fd, const std::string& path, int flags, mode_t mode) {
  return analysis::open_beneath(root_fd, path, flags | O_CLOEXEC, mode);
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
