// Atomic whole-file replacement and private stage files beneath the checkout root.
#include "fs/checkout_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <string>

#include "analysis/unique_fd.h"
#include "fs/source_file.h"

namespace anchorfs::fs {
namespace {

bool write_fully(int fd, std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

// Gives the unnamed file `fd` the name `name` in `dir_fd`.
int link_unnamed(int fd, int dir_fd, const std::string& name) {
  if (::linkat(fd, "", dir_fd, name.c_str(), AT_EMPTY_PATH) == 0) return 0;
  // AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; the /proc link works for the file's opener.
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  if (::linkat(AT_FDCWD, proc.c_str(), dir_fd, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return 0;
  return errno;
}

std::string temporary_name(const std::string& name) {
  static std::atomic<uint64_t> counter{0};
  return "." + name.substr(0, 200) + ".anchorfs-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter.fetch_add(1)) + "~";
}

}  // namespace

std::pair<std::string, std::string> split_path(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {"", path};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

std::string join_path(const std::string& dir, std::string_view name) {
  return dir.empty() ? std::string(name) : dir + "/" + std::string(name);
}

int open_dir_beneath(int root_fd, const std::string& dir) {
  return open_beneath(root_fd, dir, O_PATH | O_DIRECTORY);
}

int create_stage(int root_fd, const std::string& path) {
  const auto [dir, name] = split_path(path);
  return open_beneath(root_fd, dir, O_TMPFILE | O_RDWR, 0600);
}

int replace_file(int root_fd, const std::string& path, std::string_view bytes,
                 const timespec* mtime) {
  const auto [dir, name] = split_path(path);
  UniqueFd dir_fd(open_dir_beneath(root_fd, dir));
  if (dir_fd.get() < 0) return errno;
  struct stat old {};
  if (::fstatat(dir_fd.get(), name.c_str(), &old, AT_SYMLINK_NOFOLLOW) != 0) return errno;
  if (!S_ISREG(old.st_mode)) return EISDIR;
  UniqueFd temp(::openat(dir_fd.get(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600));
  if (temp.get() < 0) return errno;
  if (!write_fully(temp.get(), bytes)) return errno;
  if ((old.st_uid != ::geteuid() || old.st_gid != ::getegid()) &&
      ::fchown(temp.get(), old.st_uid, old.st_gid) != 0) {
    return errno;
  }
  if (::fchmod(temp.get(), old.st_mode & 07777) != 0) return errno;
  if (mtime != nullptr) {
    const timespec times[2] = {{0, UTIME_OMIT}, *mtime};
    if (::futimens(temp.get(), times) != 0) return errno;
  }
  if (::fdatasync(temp.get()) != 0) return errno;
  const std::string temporary = temporary_name(name);
  if (const int error = link_unnamed(temp.get(), dir_fd.get(), temporary); error != 0) {
    return error;
  }
  if (::renameat(dir_fd.get(), temporary.c_str(), dir_fd.get(), name.c_str()) != 0) {
    const int error = errno;
    ::unlinkat(dir_fd.get(), temporary.c_str(), 0);
    return error;
  }
  return 0;
}

}  // namespace anchorfs::fs
