// Whole-file reads and full writes with CLI-style errors.
#include "cli/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "cli/cli_error.h"

namespace anchorfs::cli {

std::string read_all(int fd, const std::string& what) {
  std::string data;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw CliError(what, errno_text(errno));
    }
    data.append(buffer, static_cast<size_t>(n));
  }
  return data;
}

std::string read_regular_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ELOOP) throw CliError(path, "a symbolic link, not a regular file");
    throw CliError(path, errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw CliError(path, "not a regular file");
  }
  try {
    std::string data = read_all(fd, path);
    ::close(fd);
    return data;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

void write_all(int fd, std::string_view data, const std::string& what) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw CliError(what, errno_text(errno));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace anchorfs::cli
