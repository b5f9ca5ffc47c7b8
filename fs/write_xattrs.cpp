// Writable mounts: the extended attribute handlers (user.* on the checkout file), and the
// settled attribute of the mount point.
#include <fuse_lowlevel.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/unique_fd.h"
#include "fs/checkout_io.h"
#include "fs/source_file.h"
#include "fs/handlers.h"
#include "fs/write_support.h"

namespace anchorfs::fs {
namespace {

// Extended attributes of checkout files, user.* only: the daemon may be root, and what it
// could set or read elsewhere (trusted.*, security.*) is not the caller's to touch.
bool user_attribute(const char* name) {
  return std::string_view(name).starts_with("user.");
}

// The checkout file of `ino` as an O_PATH descriptor (xattr calls follow its /proc path to
// exactly the inode resolved beneath the root), or -errno.
int attribute_target(const ServerState& state, fuse_ino_t ino, std::string* path = nullptr) {
  std::optional<Served> served = resolve(state, ino);
  if (!served) return -ESTALE;
  if (served->serving == Serving::Memory || served->serving == Serving::Symlink) return -EOPNOTSUPP;
  const int fd = open_beneath(state.root()->fd, served->entry->path, O_PATH | O_NOFOLLOW);
  if (fd < 0) return -errno;
  if (path != nullptr) *path = served->entry->path;
  return fd;
}

std::string proc_path(int fd) {
  return "/proc/self/fd/" + std::to_string(fd);
}

// After setting or removing an attribute: open writers move on with the file, then rescan.
void attribute_changed(fuse_req_t req, ServerState& state, const std::string& path,
                       const struct stat& before, int fd) {
  struct stat after {};
  if (S_ISREG(before.st_mode) && ::fstat(fd, &after) == 0) {
    adopt_change(state, path, before, after, nullptr);
  }
  reply_done(req, state, std::span<const std::string>(&path, 1));
}

// Sets or removes a user attribute of the checkout file `ino` reaches (`change` gets its
// /proc/self/fd path and returns false with errno set), then reports the change like a store.
template <typename Change>
void change_attribute(fuse_req_t req, fuse_ino_t ino, const char* name, Change change) {
  ServerState& state = state_of(req);
  if (!user_attribute(name)) return reply_error(req, EOPNOTSUPP);
  std::string path;
  UniqueFd fd(attribute_target(state, ino, &path));
  if (fd.get() < 0) return reply_error(req, -fd.get());
  const std::string proc = proc_path(fd.get());
  struct stat before {};
  ::fstat(fd.get(), &before);
  if (!change(proc.c_str())) return reply_error(req, errno);
  attribute_changed(req, state, path, before, fd.get());
}

}  // namespace

void op_setxattr(fuse_req_t req, fuse_ino_t ino, const char* name, const char* value,
                 size_t size, int flags) {
  change_attribute(req, ino, name, [&](const char* proc) {
    return ::setxattr(proc, name, value, size, flags) == 0;
  });
}

void op_removexattr(fuse_req_t req, fuse_ino_t ino, const char* name) {
  change_attribute(req, ino, name, [&](const char* proc) { return ::removexattr(proc, name) == 0; });
}

namespace {

// getxattr(MOUNTPOINT, kSettledAttribute): replies once the live refresh has settled.
void reply_settled(fuse_req_t req, const ServerState& state, size_t size) {
  constexpr std::chrono::seconds kLimit{120};
  if (state.options.wait_until_settled && !state.options.wait_until_settled(kLimit)) {
    return reply_error(req, ETIMEDOUT);
  }
  constexpr std::string_view kValue = "settled";
  if (size == 0) return static_cast<void>(fuse_reply_xattr(req, kValue.size()));
  if (size < kValue.size()) return reply_error(req, ERANGE);
  fuse_reply_buf(req, kValue.data(), kValue.size());
}

}  // namespace

void op_getxattr(fuse_req_t req, fuse_ino_t ino, const char* name, size_t size) {
  ServerState& state = state_of(req);
  if (ino == FUSE_ROOT_ID && name == kSettledAttribute) return reply_settled(req, state, size);
  if (!user_attribute(name)) return reply_error(req, ENODATA);
  UniqueFd fd(attribute_target(state, ino));
  if (fd.get() < 0) return reply_error(req, fd.get() == -EOPNOTSUPP ? ENODATA : -fd.get());
  const std::string proc = proc_path(fd.get());
  std::vector<char> value(size);
  const ssize_t n = ::getxattr(proc.c_str(), name, size == 0 ? nullptr : value.data(), size);
  if (n < 0) return reply_error(req, errno);
  if (size == 0) return static_cast<void>(fuse_reply_xattr(req, static_cast<size_t>(n)));
  fuse_reply_buf(req, value.data(), static_cast<size_t>(n));
}

void op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size) {
  ServerState& state = state_of(req);
  UniqueFd fd(attribute_target(state, ino));
  std::string names;
  if (fd.get() >= 0) {
    std::vector<char> all(65536);
    const ssize_t n = ::listxattr(proc_path(fd.get()).c_str(), all.data(), all.size());
    for (size_t at = 0; n > 0 && at < static_cast<size_t>(n);) {
      const std::string key(all.data() + at);
      at += key.size() + 1;
      if (user_attribute(key.c_str())) names += key + '\0';
    }
  }
  if (size == 0) return static_cast<void>(fuse_reply_xattr(req, names.size()));
  if (names.size() > size) return reply_error(req, ERANGE);
  fuse_reply_buf(req, names.data(), names.size());
}

}  // namespace anchorfs::fs
