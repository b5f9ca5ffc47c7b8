// Reads and writes the record of the data file's last verified identity.
#include "cache/verified_identity.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace anchorfs::cache {
namespace {

constexpr size_t kMaxIdentityBytes = 256;

std::string identity(const struct stat& st) {
  return fmt::format("{} {} {} {}.{:09} {}.{:09}\n", st.st_dev, st.st_ino, st.st_size,
                     st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec,
                     st.st_ctim.tv_nsec);
}

}  // namespace

std::optional<std::string> identity_of_fd(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return identity(st);
}

std::optional<std::string> identity_of_path(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return identity(st);
}

std::optional<std::string> recorded_identity(const std::string& dir) {
  const int fd = ::open((dir + "/" + kVerifiedFile).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  char buffer[kMaxIdentityBytes];
  ssize_t n = 0;
  do {
    n = ::read(fd, buffer, sizeof buffer);
  } while (n < 0 && errno == EINTR);
  ::close(fd);
  if (n <= 0 || static_cast<size_t>(n) == sizeof buffer) return std::nullopt;
  return std::string(buffer, static_cast<size_t>(n));
}

void record_identity(const std::string& dir, const std::string& identity) {
  const std::string temporary = fmt::format("{}/{}.{}", dir, kVerifiedFile, ::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
                        0600);
  if (fd < 0) return;
  const bool written = ::write(fd, identity.data(), identity.size()) ==
                       static_cast<ssize_t>(identity.size());
  ::close(fd);
  if (!written || ::rename(temporary.c_str(), (dir + "/" + kVerifiedFile).c_str()) != 0) {
    ::unlink(temporary.c_str());
  }
}

void forget_identity(const std::string& dir) { ::unlink((dir + "/" + kVerifiedFile).c_str()); }

}  // namespace anchorfs::cache
