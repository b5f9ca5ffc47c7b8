// Writable mounts: setattr. A size (truncate: of a writer's stage, of a tagged file's view by the
// store rule, or in place), mode, owner and times, on the inode the request reaches.
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "analysis/unique_fd.h"
#include "fs/caller_access.h"
#include "fs/checkout_io.h"
#include "fs/handlers.h"
#include "fs/server_state.h"
#include "fs/source_file.h"
#include "fs/store.h"
#include "fs/write_support.h"
#include "render/untag.h"

namespace anchorfs::fs {
namespace {

// truncate(2) by path of a file read from the checkout (the caller of `req` needs write access):
// cuts the view a writer of it is given (writer_view: the one the last open of this version was
// handed) and stores it by the store rule (growing it only appends zeros to the code); a file
// handed untagged is cut in place. Returns 0 or an errno.
int truncate_view(fuse_req_t req, ServerState& state, const Served& served, uint64_t size) {
  const std::string& path = served.entry->path;
  UniqueFd out(open_beneath(state.root()->fd, path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK));
  struct stat st {};
  if (out.get() < 0 || ::fstat(out.get(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EINVAL;
  if (const int error = caller_may(req, st, W_OK); error != 0) return error;
  const std::optional<std::shared_ptr<const FileLayout>> view = writer_view(state, served, st);
  if (!view) return ESTALE;  // never cut by a stale plan
  if (!*view) return ::ftruncate(out.get(), static_cast<off_t>(size)) != 0 ? errno : 0;
  const FileLayout& layout = **view;
  if (size >= layout.view_size()) {
    const uint64_t grown = layout.original_size() + (size - layout.view_size());
    if (::ftruncate(out.get(), static_cast<off_t>(grown)) != 0) return errno;
    return 0;
  }
  UniqueFd fd(open_source(state.root()->fd, path));
  struct stat source_st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &source_st) != 0) return errno;
  if (version_of(source_st) != version_of(st)) return ESTALE;
  std::string view_bytes(static_cast<size_t>(size), '\0');
  if (size > 0 && !layout.read(fd.get(), 0, std::span<char>(view_bytes.data(), view_bytes.size()))) {
    return errno;
  }
  std::string original(static_cast<size_t>(st.st_size), '\0');
  if (pread_fully(fd.get(), original.data(), original.size(), 0) != st.st_size) return EIO;
  const render::TagPlan plan = layout.plan();
  const std::string clean = render::untag_with_plan(original, plan, view_bytes);
  const int error = replace_file_with(
      state.root()->fd, path,
      {.fill = [&](int into) { return write_at(into, clean, 0); }, .expected = &st});
  return error == ENOENT ? ESTALE : error;
}

// Whether the caller of `req` may make the `to_set` changes of mode, owner or times to a file
// with attributes `st`, as chmod(2), chown(2) and utimensat(2) decide: its owner may; anyone who
// may write it may set both times to now (touch); nobody else. Returns 0 or an errno.
int may_set_attributes(fuse_req_t req, const struct stat& st, int to_set) {
  if (caller_owns(req, st) == 0) return 0;
  const bool atime_now =
      (to_set & FUSE_SET_ATTR_ATIME) == 0 || (to_set & FUSE_SET_ATTR_ATIME_NOW) != 0;
  const bool mtime_now =
      (to_set & FUSE_SET_ATTR_MTIME) == 0 || (to_set & FUSE_SET_ATTR_MTIME_NOW) != 0;
  const bool times_only =
      (to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) == 0;
  if (times_only && atime_now && mtime_now) return caller_may(req, st, W_OK);
  return EPERM;
}

}  // namespace

void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int to_set, fuse_file_info* fi) {
  ServerState& state = state_of(req);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return reply_error(req, ESTALE);
  const std::string path = served->entry->path;
  std::shared_ptr<OpenFile> file = fi != nullptr ? state.open_files.find(fi->fh) : nullptr;

  if ((to_set & FUSE_SET_ATTR_SIZE) != 0) {
    const off_t size = attr->st_size;
    if (file) {
      const sync::MutexLock lock(file->mutex);
      if (file->kind == OpenFile::Kind::Staged && file->appended_from &&
          static_cast<uint64_t>(size) != file_size(file->fd)) {
        file->appended_from.reset();  // no longer only appends: stored by the diff rule
      }
      if (const int error = make_room(state, fi->fh, *file, static_cast<uint64_t>(size));
          error != 0) {
        return reply_error(req, error);
      }
      if (::ftruncate(file->fd, size) != 0) return reply_error(req, errno);
      file->dirty = true;
      if (file->kind == OpenFile::Kind::Staged) {
        state.open_files.staged_written(fi->fh, static_cast<uint64_t>(size));
      }
    } else if (served->serving == Serving::LaidOut || served->serving == Serving::Checkout) {
      if (const int error = truncate_view(req, state, *served, static_cast<uint64_t>(size));
          error != 0) {
        return reply_error(req, error);
      }
    } else {
      UniqueFd fd(open_beneath(state.root()->fd, path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK));
      struct stat st {};
      if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) return reply_error(req, errno);
      if (const int error = caller_may(req, st, W_OK); error != 0) return reply_error(req, error);
      if (::ftruncate(fd.get(), size) != 0) return reply_error(req, errno);
    }
  }
  if ((to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID | FUSE_SET_ATTR_ATIME |
                 FUSE_SET_ATTR_MTIME)) != 0) {
    UniqueFd fd(open_beneath(state.root()->fd, path, O_PATH | O_NOFOLLOW));
    struct stat before {};
    if (fd.get() < 0 || ::fstat(fd.get(), &before) != 0) return reply_error(req, errno);
    // The kernel checked the attributes it was told; the inode reached now may be another.
    if (const int error = may_set_attributes(req, before, to_set); error != 0) {
      return reply_error(req, error);
    }
    // The O_PATH descriptor names exactly the inode resolved beneath the root; /proc/self/fd
    // lets chmod and utimensat act on it without resolving a path again.
    const std::string proc = "/proc/self/fd/" + std::to_string(fd.get());
    if ((to_set & FUSE_SET_ATTR_MODE) != 0 && ::chmod(proc.c_str(), attr->st_mode & 07777) != 0) {
      return reply_error(req, errno);
    }
    if ((to_set & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) != 0) {
      const uid_t uid = (to_set & FUSE_SET_ATTR_UID) != 0 ? attr->st_uid : static_cast<uid_t>(-1);
      const gid_t gid = (to_set & FUSE_SET_ATTR_GID) != 0 ? attr->st_gid : static_cast<gid_t>(-1);
      if (::fchownat(fd.get(), "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) {
        return reply_error(req, errno);
      }
    }
    if ((to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) != 0) {
      timespec times[2];
      times[0].tv_nsec = UTIME_OMIT;
      times[1].tv_nsec = UTIME_OMIT;
      if ((to_set & FUSE_SET_ATTR_ATIME_NOW) != 0) {
        times[0].tv_nsec = UTIME_NOW;
      } else if ((to_set & FUSE_SET_ATTR_ATIME) != 0) {
        times[0] = attr->st_atim;
      }
      if ((to_set & FUSE_SET_ATTR_MTIME_NOW) != 0) {
        times[1].tv_nsec = UTIME_NOW;
      } else if ((to_set & FUSE_SET_ATTR_MTIME) != 0) {
        times[1] = attr->st_mtim;
      }
      int rc = 0;
      if (S_ISLNK(served->entry->mode)) {
        const auto [dir, name] = split_path(path);
        UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
        rc = dir_fd.get() < 0 ? -1
                              : ::utimensat(dir_fd.get(), name.c_str(), times, AT_SYMLINK_NOFOLLOW);
      } else {
        rc = ::utimensat(AT_FDCWD, proc.c_str(), times, 0);
      }
      if (rc != 0) return reply_error(req, errno);
    }
    struct stat after {};
    if (S_ISREG(before.st_mode) && ::fstat(fd.get(), &after) == 0) {
      timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_OMIT}};
      if ((to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) != 0) {
        times[0] = after.st_atim;
        times[1] = after.st_mtim;
      }
      adopt_change(state, path, before, after,
                   (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) != 0 ? times : nullptr);
    }
  }

  auto [generation, changed] = rescan(state, std::span<const std::string>(&path, 1));
  queue_notification(state, std::move(changed));
  struct stat st {};
  double timeout = kCacheSeconds;
  if (std::optional<uint32_t> index = generation->snapshot().find(path)) {
    const Served now = served_entry(generation, *index);
    st = served_attributes(*now.entry, *now.layout);
    timeout = writable_attributes(state, ino, now, st);
  } else {
    st = served_attributes(*served->entry, *served->layout);
  }
  st.st_ino = ino;
  fuse_reply_attr(req, &st, timeout);
}

}  // namespace anchorfs::fs
