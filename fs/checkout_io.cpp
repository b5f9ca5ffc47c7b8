// Atomic whole-file replacement and private stage files beneath the checkout root.
#include "fs/checkout_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <string>
#include <vector>

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

// Copies the extended attributes of `name` in `dir_fd` to `to`. Attributes outside user.* that
// the daemon may not set (security.*, trusted.* without privilege) are left behind: the kernel
// or the filesystem owns them.
int copy_xattrs(int dir_fd, const std::string& name, int to) {
  UniqueFd from(::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (from.get() < 0) return 0;  // unreadable to the daemon: nothing it could copy
  std::vector<char> names(4096);
  ssize_t length = 0;
  while ((length = ::flistxattr(from.get(), names.data(), names.size())) < 0 && errno == ERANGE) {
    names.resize(names.size() * 4);
  }
  if (length <= 0) return 0;
  std::vector<char> value(4096);
  for (size_t at = 0; at < static_cast<size_t>(length);) {
    const std::string key(names.data() + at);
    at += key.size() + 1;
    ssize_t size = 0;
    while ((size = ::fgetxattr(from.get(), key.c_str(), value.data(), value.size())) < 0 &&
           errno == ERANGE) {
      value.resize(value.size() * 4);
    }
    const bool user = key.starts_with("user.");
    if (size < 0) {
      if (user) return errno;
      continue;
    }
    if (::fsetxattr(to, key.c_str(), value.data(), static_cast<size_t>(size), 0) != 0 && user) {
      return errno;
    }
  }
  return 0;
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

int create_empty_stage(std::atomic<uint32_t>& stages, int root_fd, const std::string& path,
                       bool& in_memory) {
  in_memory = stages.fetch_add(1) < kMemoryStagesMax;
  if (!in_memory) {
    stages.fetch_sub(1);
    return create_stage(root_fd, path);
  }
  const int fd = ::memfd_create("anchorfs-stage", MFD_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    stages.fetch_sub(1);
    in_memory = false;
    errno = error;
  }
  return fd;
}

int spill_stage(int root_fd, const std::string& path, int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return errno;
  UniqueFd spilled(create_stage(root_fd, path));
  if (spilled.get() < 0) return errno;
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  std::vector<char> buffer(static_cast<size_t>(std::clamp<uint64_t>(size, 1, kMemoryStageBytes)));
  for (uint64_t offset = 0; offset < size;) {
    const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) break;
    const std::string_view bytes(buffer.data(), static_cast<size_t>(n));
    if (const int error = write_at(spilled.get(), bytes, offset); error != 0) return error;
    offset += static_cast<uint64_t>(n);
  }
  if (::ftruncate(spilled.get(), st.st_size) != 0) return errno;
  // The store gives the checkout file the stage's times: the writer's, not the copy's.
  const timespec times[2] = {st.st_atim, st.st_mtim};
  if (::futimens(spilled.get(), times) != 0) return errno;
  if (::dup3(spilled.get(), fd, O_CLOEXEC) < 0) return errno;
  return 0;
}

int write_at(int fd, std::string_view bytes, uint64_t offset) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n =
        ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<size_t>(n);
  }
  return 0;
}

bool same_version(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec &&
         a.st_ctim.tv_sec == b.st_ctim.tv_sec && a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

int replace_file(int root_fd, const std::string& path, std::string_view bytes,
                 const timespec* mtime) {
  return replace_file_with(root_fd, path,
                           {.fill = [bytes](int fd) { return write_fully(fd, bytes) ? 0 : errno; },
                            .mtime = mtime});
}

int replace_file_with(int root_fd, const std::string& path, const Replacement& replacement) {
  const auto [dir, name] = split_path(path);
  UniqueFd dir_fd(open_dir_beneath(root_fd, dir));
  if (dir_fd.get() < 0) return errno;
  struct stat old {};
  if (::fstatat(dir_fd.get(), name.c_str(), &old, AT_SYMLINK_NOFOLLOW) != 0) return errno;
  if (!S_ISREG(old.st_mode)) return EISDIR;
  UniqueFd temp(::openat(dir_fd.get(), ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (temp.get() < 0) return errno;
  if (const int error = replacement.fill(temp.get()); error != 0) return error;
  if ((old.st_uid != ::geteuid() || old.st_gid != ::getegid()) &&
      ::fchown(temp.get(), old.st_uid, old.st_gid) != 0) {
    return errno;
  }
  if (::fchmod(temp.get(), old.st_mode & 07777) != 0) return errno;
  if (const int error = copy_xattrs(dir_fd.get(), name, temp.get()); error != 0) return error;
  if (replacement.mtime != nullptr || replacement.atime != nullptr) {
    const timespec times[2] = {
        replacement.atime != nullptr ? *replacement.atime : timespec{0, UTIME_OMIT},
        replacement.mtime != nullptr ? *replacement.mtime : timespec{0, UTIME_OMIT}};
    if (::futimens(temp.get(), times) != 0) return errno;
  }
  if (::fdatasync(temp.get()) != 0) return errno;
  const std::string temporary = temporary_name(name);
  if (const int error = link_unnamed(temp.get(), dir_fd.get(), temporary); error != 0) {
    return error;
  }
  struct stat now {};
  if (replacement.expected != nullptr &&
      (::fstatat(dir_fd.get(), name.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 ||
       !same_version(now, *replacement.expected))) {
    ::unlinkat(dir_fd.get(), temporary.c_str(), 0);
    return ESTALE;
  }
  if (::renameat(dir_fd.get(), temporary.c_str(), dir_fd.get(), name.c_str()) != 0) {
    const int error = errno;
    ::unlinkat(dir_fd.get(), temporary.c_str(), 0);
    return error;
  }
  return 0;
}

}  // namespace anchorfs::fs
