// The file handlers of a writable mount (open, create, write, flush, setattr, release): what a
// writer wrote to a tagged file lands in the checkout tag-free, atomically, when it is closed.
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/unique_fd.h"
#include "fs/caller_access.h"
#include "fs/checkout_io.h"
#include "fs/server_state.h"
#include "fs/source_file.h"
#include "fs/store.h"
#include "fs/write_support.h"
#include "render/untag.h"

namespace anchorfs::fs {
namespace {

uint64_t file_size(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// Whether the caller of `req` may have `want` access to the file at `path` now (fstat of what
// an O_PATH open beneath the root reaches). Returns 0 or an errno.
int check_file_at(fuse_req_t req, const ServerState& state, const std::string& path, int want) {
  UniqueFd fd(open_beneath(state.root()->fd, path, O_PATH | O_NOFOLLOW));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EINVAL;
  return caller_may(req, st, want);
}

// Opens `served` (inode `ino`) for writing with open(2) `flags` and fills in `fi`. A tagged file,
// and any file opened with O_TRUNC, is written through a private stage (fs/store.h); any other
// file in place. The caller of `req` must be allowed what `flags` ask on the file the open
// reaches (a file renamed over the looked-up one since is checked by its own mode and owner);
// null `req`: a file just created for the caller. Returns 0 or an errno.
int open_handle(fuse_req_t req, ServerState& state, const Served& served, uint64_t ino, int flags,
                fuse_file_info* fi) {
  const std::string& path = served.entry->path;
  const bool truncate = (flags & O_TRUNC) != 0;
  const bool append = (flags & O_APPEND) != 0;
  const int want = access_for_open(flags);
  std::shared_ptr<OpenFile> file;
  uint64_t staged = 0;
  if (served.layout->empty() && !truncate) {
    const int fd = open_beneath(state.root()->fd, path,
                                (flags & (O_ACCMODE | O_APPEND)) | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return errno;
    struct stat st {};
    int error = ::fstat(fd, &st) != 0 ? errno : (S_ISREG(st.st_mode) ? 0 : EINVAL);
    if (error == 0 && req != nullptr) error = caller_may(req, st, want);
    if (error != 0) {
      ::close(fd);
      return error;
    }
    file = std::make_shared<OpenFile>(OpenFile::Kind::InPlace, ino, fd, append);
  } else {
    if (req != nullptr && truncate) {
      if (const int error = check_file_at(req, state, path, want); error != 0) return error;
    }
    const int stage = create_stage(state.root()->fd, path);
    if (stage < 0) return errno;
    file = std::make_shared<OpenFile>(OpenFile::Kind::Staged, ino, stage, append);
    const sync::MutexLock lock(file->mutex);  // no other thread has the file yet
    const auto may_open = [&](const struct stat& st) {
      return req != nullptr ? caller_may(req, st, want) : 0;
    };
    if (const int error = fill_stage(state, served, flags, *file, may_open); error != 0) {
      return error;
    }
    staged = file_size(stage);
  }
  const bool in_place = file->kind == OpenFile::Kind::InPlace;
  const uint64_t handle = state.open_files.add(std::move(file), path);
  if (!in_place) state.open_files.staged_written(handle, staged);
  fi->fh = handle;
  // A stage is private to its writer: its reads and writes bypass the page cache the file's
  // readers share, which keeps holding the version they opened.
  fi->direct_io = in_place ? 0 : 1;
  fi->keep_cache = in_place ? 1 : 0;
  return 0;
}

// Stores what `file` (handle `handle`) holds in the checkout if it changed.
// Returns 0 or an errno; a target removed or renamed over through the mount is left alone.
int store(ServerState& state, uint64_t handle, OpenFile& file) REQUIRES(file.mutex) {
  if (!file.dirty) return 0;
  if (file.kind == OpenFile::Kind::InPlace) {
    file.dirty = false;
    return 0;
  }
  const std::optional<std::string> target = state.open_files.target(handle);
  if (target) {
    if (const int error = store_stage(state, *target, file); error != 0) return error;
  }
  file.dirty = false;
  return 0;
}

// truncate(2) by path of a tagged file (the caller of `req` needs write access): cuts the view the caller sees and stores it by the store
// rule (growing it only appends zeros to the code). Returns 0 or an errno.
int truncate_view(fuse_req_t req, ServerState& state, const Served& served, uint64_t size) {
  const std::string& path = served.entry->path;
  UniqueFd fd(open_source(state.root()->fd, path));
  if (fd.get() < 0) return errno;
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return errno;
  if (const int error = caller_may(req, st, W_OK); error != 0) return error;
  if (!is_scanned_version(*served.entry, st)) return ESTALE;  // never cut by a stale plan
  const FileLayout& layout = *served.layout;
  if (size >= layout.view_size()) {
    UniqueFd out(open_beneath(state.root()->fd, path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK));
    const uint64_t grown = layout.original_size() + (size - layout.view_size());
    if (out.get() < 0 || ::ftruncate(out.get(), static_cast<off_t>(grown)) != 0) return errno;
    return 0;
  }
  std::string view(static_cast<size_t>(size), '\0');
  if (size > 0 && !layout.read(fd.get(), 0, std::span<char>(view.data(), view.size()))) return errno;
  std::string original(static_cast<size_t>(st.st_size), '\0');
  if (pread_fully(fd.get(), original.data(), original.size(), 0) != st.st_size) return EIO;
  const render::TagPlan plan = layout.plan();
  const std::string clean = render::untag_with_plan(original, plan, view);
  const int error = replace_file_with(
      state.root()->fd, path,
      {.fill = [&](int out) { return write_at(out, clean, 0); }, .expected = &st});
  return error == ENOENT ? ESTALE : error;
}

void op_create(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode,
               fuse_file_info* fi) {
  ServerState& state = writable_state(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  const std::string path = join_path(dir, name);
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0) return reply_error(req, errno);
  const int created =
      ::openat(dir_fd.get(), name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, mode);
  const bool existed = created < 0 && errno == EEXIST && (fi->flags & O_EXCL) == 0;
  if (created < 0 && !existed) return reply_error(req, errno);
  if (created >= 0) {
    // The kernel applied the caller's umask to `mode` already; the daemon's must not apply again.
    ::fchmod(created, mode & 07777);
    give_to_caller(req, dir_fd.get(), name);
    ::close(created);
  }
  auto [generation, changed] = rescan(state, std::span<const std::string>(&path, 1));
  std::optional<uint32_t> index = generation->snapshot().find(path);
  if (index) {
    keep_made_name(changed, *generation, *index);
    leave_to_kernel(changed, parent);
  }
  queue_notification(state, std::move(changed));
  if (!index) return reply_error(req, ENOENT);
  const fuse_entry_param e = entry_param(*generation, *index);
  Served served{generation, nullptr, &generation->snapshot().entry(*index),
                &generation->snapshot().layout(*index)};
  if (!S_ISREG(served.entry->mode)) return reply_error(req, EEXIST);
  // A new file is staged too: what a writer copies into it (a tagged view) must not reach the
  // checkout with its tags.
  const int flags = created >= 0 ? (fi->flags | O_TRUNC) : fi->flags;
  if (const int error = open_handle(created >= 0 ? nullptr : req, state, served, e.ino, flags, fi);
      error != 0) {
    return reply_error(req, error);
  }
  if (created >= 0) {
    // Created empty: nothing to store unless written.
    if (auto file = state.open_files.find(fi->fh)) {
      const sync::MutexLock lock(file->mutex);
      file->dirty = false;
      file->created = true;
    }
  }
  state.inodes.remember(*generation, std::span<const uint32_t>(&*index, 1));
  if (fuse_reply_create(req, &e, fi) != 0) {
    state.inodes.forget(e.ino, 1);
    made_name_not_replied(state, *generation, *index);
    state.open_files.remove(fi->fh);
  }
}

void op_write(fuse_req_t req, fuse_ino_t, const char* buffer, size_t size, off_t off,
              fuse_file_info* fi) {
  ServerState& state = writable_state(req);
  std::shared_ptr<OpenFile> file = state.open_files.find(fi->fh);
  if (!file) return reply_error(req, EBADF);
  const sync::MutexLock lock(file->mutex);
  const bool staged = file->kind == OpenFile::Kind::Staged;
  const uint64_t offset = staged && file->append ? file_size(file->fd) : static_cast<uint64_t>(off);
  if (const int error = write_at(file->fd, std::string_view(buffer, size), offset); error != 0) {
    return reply_error(req, error);
  }
  file->dirty = true;
  if (staged) state.open_files.staged_written(fi->fh, file_size(file->fd));
  fuse_reply_write(req, size);
}

// After a store or in-place writes to `target` (the open's path now; none when it was removed or
// renamed over through the mount, so where the writes went is not known).
std::pair<std::shared_ptr<const Generation>, Invalidations> rescan_target(
    ServerState& state, const std::optional<std::string>& target) {
  if (!target) return rescan_all(state);
  return rescan(state, std::span<const std::string>(&*target, 1));
}

// flush and fsync: store the file, then make every reader's next open see it.
void store_and_reply(fuse_req_t req, ServerState& state, fuse_file_info* fi, bool sync,
                     bool datasync) {
  std::shared_ptr<OpenFile> file = state.open_files.find(fi->fh);
  if (!file) return reply_error(req, 0);
  const std::optional<std::string> target = state.open_files.target(fi->fh);
  bool changed = false;
  {
    const sync::MutexLock lock(file->mutex);
    changed = file->dirty;
    if (const int error = store(state, fi->fh, *file); error != 0) return reply_error(req, error);
    if (sync && file->kind == OpenFile::Kind::InPlace &&
        (datasync ? ::fdatasync(file->fd) : ::fsync(file->fd)) != 0) {
      return reply_error(req, errno);
    }
    // A stage stored in place (fs/store.h) was not synced, nor one stored by an earlier close.
    if (sync && file->kind == OpenFile::Kind::Staged && target) {
      UniqueFd stored(open_source(state.root()->fd, *target));
      if (stored.get() >= 0 && (datasync ? ::fdatasync(stored.get()) : ::fsync(stored.get())) != 0) {
        return reply_error(req, errno);
      }
    }
  }
  if (changed) {
    // No directory lock is held for a close or an fsync: the kernel can drop the old names now,
    // so the writer's next open (right after close returns) finds the new version.
    auto [generation, invalidations] = rescan_target(state, target);
    notify(state, invalidations);
  }
  fuse_reply_err(req, 0);
}

void op_flush(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  store_and_reply(req, writable_state(req), fi, false, false);
}

void op_fsync(fuse_req_t req, fuse_ino_t, int datasync, fuse_file_info* fi) {
  store_and_reply(req, writable_state(req), fi, true, datasync != 0);
}

void op_release(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  ServerState& state = writable_state(req);
  std::shared_ptr<OpenFile> file = state.open_files.find(fi->fh);
  const std::optional<std::string> target = state.open_files.target(fi->fh);
  bool changed = false;
  if (file) {
    const sync::MutexLock lock(file->mutex);
    changed = file->dirty;
    store(state, fi->fh, *file);  // nobody is left to tell of a failure (close already returned)
  }
  state.open_files.remove(fi->fh);
  if (changed) {
    auto [generation, invalidations] = rescan_target(state, target);
    queue_notification(state, std::move(invalidations));
  }
  fuse_reply_err(req, 0);
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

void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int to_set, fuse_file_info* fi) {
  ServerState& state = writable_state(req);
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
      if (::ftruncate(file->fd, size) != 0) return reply_error(req, errno);
      file->dirty = true;
      if (file->kind == OpenFile::Kind::Staged) {
        state.open_files.staged_written(fi->fh, static_cast<uint64_t>(size));
      }
    } else if (!served->layout->empty() && served->content == nullptr) {
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
    Served now{generation, nullptr, &generation->snapshot().entry(*index),
               &generation->snapshot().layout(*index)};
    st = served_attributes(*now.entry, *now.layout);
    timeout = writable_attributes(state, ino, now, st);
  } else {
    st = served_attributes(*served->entry, *served->layout);
  }
  st.st_ino = ino;
  fuse_reply_attr(req, &st, timeout);
}

void op_release_read_only(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  if (fi->fh != 0) return op_release(req, ino, fi);
  writable_state(req);
  fuse_reply_err(req, 0);
}

}  // namespace

double writable_attributes(const ServerState& state, uint64_t ino, const Served& served,
                           struct stat& st) {
  // A .git overlay is the snapshot's (git replaces the real file by rename, never in place).
  if (!S_ISREG(served.entry->mode) || served.content != nullptr) return kCacheSeconds;
  if (std::optional<uint64_t> size = state.open_files.staged_size(ino)) {
    // Being written: the writer's stage is the file, its size and times too (the store keeps
    // the stage's modification time, so what git records now matches the stored file); ask
    // again after every change.
    st.st_size = static_cast<off_t>(*size);
    st.st_blocks = static_cast<blkcnt_t>((*size + 511) / 512);
    struct stat stage {};
    if (const std::shared_ptr<OpenFile> file = state.open_files.latest_stage(ino);
        file && ::fstat(file->fd, &stage) == 0) {
      st.st_mtim = stage.st_mtim;
      st.st_ctim = stage.st_ctim;
    }
    return 0;
  }
  if (served.layout->empty()) {
    // Written in place: the checkout's attributes are the file's.
    UniqueFd fd(open_beneath(state.root()->fd, served.entry->path, O_PATH | O_NOFOLLOW));
    struct stat live {};
    if (fd.get() >= 0 && ::fstat(fd.get(), &live) == 0 && S_ISREG(live.st_mode)) {
      st.st_mode = live.st_mode;
      st.st_nlink = live.st_nlink;
      st.st_uid = live.st_uid;
      st.st_gid = live.st_gid;
      st.st_size = live.st_size;
      st.st_blocks = live.st_blocks;
      st.st_mtim = live.st_mtim;
      st.st_ctim = live.st_ctim;
    }
  }
  return kCacheSeconds;
}

void open_for_writing(fuse_req_t req, ServerState& state, uint64_t ino, fuse_file_info* fi) {
  std::optional<Served> served = resolve(state, ino);
  if (!served) return reply_error(req, ESTALE);
  if (!S_ISREG(served->entry->mode)) return reply_error(req, EINVAL);
  // The view's .git overlays are generated: git rewrites them by lock file and rename.
  if (served->content != nullptr) return reply_error(req, EACCES);
  if (const int error = open_handle(req, state, *served, ino, fi->flags, fi); error != 0) {
    return reply_error(req, error);
  }
  if (fuse_reply_open(req, fi) != 0) state.open_files.remove(fi->fh);
}

void read_open_file(fuse_req_t req, ServerState& state, uint64_t handle, size_t size, off_t off) {
  std::shared_ptr<OpenFile> file = state.open_files.find(handle);
  if (!file) return reply_error(req, EBADF);
  thread_local std::vector<char> buffer;
  buffer.resize(size);
  const ssize_t n = pread_fully(file->fd, buffer.data(), size, static_cast<uint64_t>(off));
  if (n < 0) return reply_error(req, errno);
  fuse_reply_buf(req, buffer.data(), static_cast<size_t>(n));
}

void read_in_place(fuse_req_t req, ServerState& state, const analysis::TreeEntry& entry,
                   size_t size, off_t off) {
  UniqueFd fd(open_for_reader(state, entry.path));
  if (fd.get() < 0) return reply_error(req, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return reply_error(req, errno);
  if (!S_ISREG(st.st_mode)) return reply_error(req, EIO);  // something else took its name
  // Read per request by path: the file there now must be one the caller may read.
  if (const int error = caller_may(req, st, R_OK); error != 0) return reply_error(req, error);
  thread_local std::vector<char> buffer;
  buffer.resize(size);
  const ssize_t n = pread_fully(fd.get(), buffer.data(), size, static_cast<uint64_t>(off));
  if (n < 0) return reply_error(req, errno);
  fuse_reply_buf(req, buffer.data(), static_cast<size_t>(n));
}

void add_write_operations(fuse_lowlevel_ops& ops) {
  ops.create = op_create;
  ops.write = op_write;
  ops.flush = op_flush;
  ops.fsync = op_fsync;
  ops.release = op_release_read_only;
  ops.setattr = op_setattr;
  add_name_operations(ops);
  add_attribute_operations(ops);
  // Preallocation is not carried over: callers fall back (posix_fallocate writes zeros).
  ops.fallocate = [](fuse_req_t req, fuse_ino_t, int, off_t, off_t, fuse_file_info*) {
    writable_state(req);
    fuse_reply_err(req, EOPNOTSUPP);
  };
}

}  // namespace anchorfs::fs
