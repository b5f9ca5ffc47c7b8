// Creating or reopening the trace and log files safely in shared directories (/tmp).
#include "fs/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace anchorfs::fs {
namespace {

PrivateFile refuse(int fd, std::string problem) {
  if (fd >= 0) ::close(fd);
  return {-1, std::move(problem)};
}

// O_NONBLOCK was for the open only: a FIFO planted at the path must not block it.
PrivateFile opened(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return {fd, {}};
}

}  // namespace

PrivateFile open_private_file(const std::string& path, PrivateOpen how) {
  const int flags =
      O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (how == PrivateOpen::Append ? O_APPEND : 0);
  int fd = ::open(path.c_str(), flags | O_CREAT | O_EXCL, 0600);
  if (fd >= 0) {
    ::fchmod(fd, 0600);  // whatever the umask
    return opened(fd);
  }
  if (errno != EEXIST) return refuse(-1, std::strerror(errno));
  fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    return refuse(-1, errno == ELOOP ? "a symbolic link (refused: it could point anywhere)"
                                     : std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) return refuse(fd, std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return refuse(fd, "not a regular file");
  if (st.st_uid != ::geteuid()) return refuse(fd, "owned by another user");
  if (st.st_nlink != 1) return refuse(fd, "has other hard links");
  if ((st.st_mode & 07777) != 0600 && ::fchmod(fd, 0600) != 0) {
    return refuse(fd, std::strerror(errno));
  }
  if (how == PrivateOpen::Truncate && ::ftruncate(fd, 0) != 0) {
    return refuse(fd, std::strerror(errno));
  }
  return opened(fd);
}

}  // namespace anchorfs::fs
