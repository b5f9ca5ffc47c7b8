// An exclusive flock on a store directory, shared by the processes that open, repair and clear it.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace anchorfs::cache {

// Serialises verify / set-aside / open / clear between the processes sharing a store (LMDB's own
// locks only cover transactions). The lock is on the directory's inode: `cache clear` may remove
// the directory while another process waits, so a waiter checks locks(path) before trusting it.
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
    if (fd_ >= 0) ::close(fd_);
  }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

  // Whether `dir` still names the directory this lock holds (not removed or replaced since).
  bool locks(const std::string& dir) const {
    struct stat held {};
    struct stat named {};
    return fd_ >= 0 && ::fstat(fd_, &held) == 0 && ::stat(dir.c_str(), &named) == 0 &&
           held.st_dev == named.st_dev && held.st_ino == named.st_ino;
  }

 private:
  int fd_;
};

}  // namespace anchorfs::cache
