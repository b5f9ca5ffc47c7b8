// The request handlers of a writable mount: changes pass through to the checkout, and what a
// writer wrote to a tagged file lands there tag-free, atomically, when the file is closed.
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <span>
#include <string>
#include <vector>

#include "analysis/unique_fd.h"
#include "fs/caller_access.h"
#include "fs/checkout_io.h"
#include "fs/git_view.h"
#include "fs/server_state.h"
#include "fs/source_file.h"
#include "fs/store.h"
#include "render/untag.h"

namespace anchorfs::fs {
namespace {

ServerState& state_of(fuse_req_t req) {
  auto* state = static_cast<ServerState*>(fuse_req_userdata(req));
  state->requests.fetch_add(1, std::memory_order_relaxed);
  return *state;
}

void reply_error(fuse_req_t req, int error) {
  fuse_reply_err(req, error);
}

// The repository path of directory `ino` in the current generation, or an errno.
int directory_path(const ServerState& state, fuse_ino_t ino, std::string& path) {
  auto generation = state.current();
  std::optional<uint32_t> index = generation->entry(ino);
  if (!index) return ESTALE;
  const analysis::TreeEntry& entry = generation->snapshot().entry(*index);
  if (!S_ISDIR(entry.mode)) return ENOTDIR;
  path = entry.path;
  return 0;
}

// New objects belong to their creator, as on a local filesystem (the daemon may be root).
void give_to_caller(fuse_req_t req, int dir_fd, const char* name) {
  if (::geteuid() != 0) return;
  const fuse_ctx* caller = fuse_req_ctx(req);
  if (caller->uid == 0 && caller->gid == 0) return;
  ::fchownat(dir_fd, name, caller->uid, caller->gid, AT_SYMLINK_NOFOLLOW);
}

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

// A change made through the mount to `path` (chmod, chown, times, xattrs) moved the checkout
// file from version `before` to `after`: writers staged on `before` are still on the file.
void adopt_change(ServerState& state, const std::string& path, const struct stat& before,
                  const struct stat& after, const timespec* times) {
  for (const std::shared_ptr<OpenFile>& file : state.open_files.staged_at(path)) {
    const sync::MutexLock lock(file->mutex);
    if (file->version == version_of(before)) file->version = version_of(after);
    // The times a writer sets (utimensat, cp -p) are the stored file's: the store takes the stage's.
    if (times != nullptr) ::futimens(file->fd, times);
  }
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

// Rescans after a change and replies with the entry now at `path` (a create also opens it).
void reply_entry_at(fuse_req_t req, ServerState& state, const std::string& path,
                    std::span<const PathMove> moves = {}) {
  auto [generation, changed] = rescan(state, moves);
  queue_notification(state, std::move(changed));
  std::optional<uint32_t> index = generation->snapshot().find(path);
  if (!index) return reply_error(req, ENOENT);
  const fuse_entry_param e = entry_param(*generation, *index);
  state.inodes.remember(*generation, std::span<const uint32_t>(&*index, 1));
  if (fuse_reply_entry(req, &e) != 0) state.inodes.forget(e.ino, 1);
}

void reply_done(fuse_req_t req, ServerState& state, std::span<const PathMove> moves = {}) {
  auto [generation, changed] = rescan(state, moves);
  queue_notification(state, std::move(changed));
  fuse_reply_err(req, 0);
}

void op_create(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode,
               fuse_file_info* fi) {
  ServerState& state = state_of(req);
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
  auto [generation, changed] = rescan(state);
  queue_notification(state, std::move(changed));
  std::optional<uint32_t> index = generation->snapshot().find(path);
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
    state.open_files.remove(fi->fh);
  }
}

void op_write(fuse_req_t req, fuse_ino_t, const char* buffer, size_t size, off_t off,
              fuse_file_info* fi) {
  ServerState& state = state_of(req);
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

// flush and fsync: store the file, then make every reader's next open see it.
void store_and_reply(fuse_req_t req, ServerState& state, fuse_file_info* fi, bool sync,
                     bool datasync) {
  std::shared_ptr<OpenFile> file = state.open_files.find(fi->fh);
  if (!file) return reply_error(req, 0);
  bool changed = false;
  {
    const sync::MutexLock lock(file->mutex);
    changed = file->dirty;
    if (const int error = store(state, fi->fh, *file); error != 0) return reply_error(req, error);
    if (sync && file->kind == OpenFile::Kind::InPlace &&
        (datasync ? ::fdatasync(file->fd) : ::fsync(file->fd)) != 0) {
      return reply_error(req, errno);
    }
  }
  if (changed) {
    // No directory lock is held for a close or an fsync: the kernel can drop the old names now,
    // so the writer's next open (right after close returns) finds the new version.
    auto [generation, invalidations] = rescan(state);
    notify(state, invalidations);
  }
  fuse_reply_err(req, 0);
}

void op_flush(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  store_and_reply(req, state_of(req), fi, false, false);
}

void op_fsync(fuse_req_t req, fuse_ino_t, int datasync, fuse_file_info* fi) {
  store_and_reply(req, state_of(req), fi, true, datasync != 0);
}

void op_release(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  ServerState& state = state_of(req);
  std::shared_ptr<OpenFile> file = state.open_files.find(fi->fh);
  bool changed = false;
  if (file) {
    const sync::MutexLock lock(file->mutex);
    changed = file->dirty;
    store(state, fi->fh, *file);  // nobody is left to tell of a failure (close already returned)
  }
  state.open_files.remove(fi->fh);
  if (changed) {
    auto [generation, invalidations] = rescan(state);
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

  auto [generation, changed] = rescan(state);
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

void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  // `git worktree add` from the mount would record the mount's paths in the repository (and in
  // the new worktree's .git file), which break once it is unmounted: refused, git says so.
  if (join_path(dir, name) == ".git/worktrees" || dir == ".git/worktrees") {
    return reply_error(req, EPERM);
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0 || ::mkdirat(dir_fd.get(), name, mode) != 0) {
    return reply_error(req, errno);
  }
  {
    UniqueFd made(::openat(dir_fd.get(), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (made.get() >= 0) ::fchmod(made.get(), mode & 07777);
  }
  give_to_caller(req, dir_fd.get(), name);
  reply_entry_at(req, state, join_path(dir, name));
}

void op_mknod(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode, dev_t rdev) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0 || ::mknodat(dir_fd.get(), name, mode, rdev) != 0) {
    return reply_error(req, errno);
  }
  give_to_caller(req, dir_fd.get(), name);
  reply_entry_at(req, state, join_path(dir, name));
}

void op_symlink(fuse_req_t req, const char* target, fuse_ino_t parent, const char* name) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0 || ::symlinkat(target, dir_fd.get(), name) != 0) {
    return reply_error(req, errno);
  }
  give_to_caller(req, dir_fd.get(), name);
  reply_entry_at(req, state, join_path(dir, name));
}

void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t new_parent, const char* new_name) {
  ServerState& state = state_of(req);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return reply_error(req, ESTALE);
  std::string new_dir;
  if (const int error = directory_path(state, new_parent, new_dir); error != 0) {
    return reply_error(req, error);
  }
  const auto [old_dir, old_name] = split_path(served->entry->path);
  UniqueFd old_dir_fd(open_dir_beneath(state.root()->fd, old_dir));
  UniqueFd new_dir_fd(open_dir_beneath(state.root()->fd, new_dir));
  if (old_dir_fd.get() < 0 || new_dir_fd.get() < 0 ||
      ::linkat(old_dir_fd.get(), old_name.c_str(), new_dir_fd.get(), new_name, 0) != 0) {
    return reply_error(req, errno);
  }
  reply_entry_at(req, state, join_path(new_dir, new_name));
}

void remove_entry(fuse_req_t req, fuse_ino_t parent, const char* name, int flags) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0 || ::unlinkat(dir_fd.get(), name, flags) != 0) {
    return reply_error(req, errno);
  }
  state.open_files.removed(join_path(dir, name));
  reply_done(req, state);
}

void op_unlink(fuse_req_t req, fuse_ino_t parent, const char* name) {
  remove_entry(req, parent, name, 0);
}

void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char* name) {
  remove_entry(req, parent, name, AT_REMOVEDIR);
}

// A file renamed over one of the view's .git overlays (git's `index.lock` or `config.lock`)
// first gets the bytes the checkout must hold (fs/git_view.h): stat data of the checkout's own
// files, no filter lines of the view. Returns 0 or the errno of reading or replacing it.
int prepare_overlay_replacement(const ServerState& state, const std::string& from,
                                const std::string& to) {
  const std::shared_ptr<const Generation> generation = state.current();
  const Snapshot& snapshot = generation->snapshot();
  const std::optional<uint32_t> target = snapshot.find(to);
  if (!target || !snapshot.content(*target)) return 0;
  UniqueFd fd(open_beneath(state.root()->fd, from, O_RDONLY | O_NOFOLLOW));
  if (fd.get() < 0) return errno;
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return 0;
  std::string written(static_cast<size_t>(st.st_size), '\0');
  const ssize_t n = pread_fully(fd.get(), written.data(), written.size(), 0);
  if (n < 0) return errno;
  written.resize(static_cast<size_t>(n));
  std::optional<std::string> stored = checkout_bytes_of_overlay(snapshot, to, written);
  if (!stored || *stored == written) return 0;
  return replace_file(state.root()->fd, from, *stored);
}

void op_rename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t new_parent,
               const char* new_name, unsigned flags) {
  ServerState& state = state_of(req);
  std::string dir;
  std::string new_dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  if (const int error = directory_path(state, new_parent, new_dir); error != 0) {
    return reply_error(req, error);
  }
  const std::string from = join_path(dir, name);
  const std::string to = join_path(new_dir, new_name);
  if ((flags & RENAME_EXCHANGE) == 0) {
    if (const int error = prepare_overlay_replacement(state, from, to); error != 0) {
      return reply_error(req, error);
    }
    if (const std::optional<render::FileVersion> made = state.open_files.new_file(from)) {
      if (const int error = untag_for_rename(state, from, to, *made); error != 0) {
        return reply_error(req, error);
      }
    }
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  UniqueFd new_dir_fd(open_dir_beneath(state.root()->fd, new_dir));
  if (dir_fd.get() < 0 || new_dir_fd.get() < 0 ||
      ::renameat2(dir_fd.get(), name, new_dir_fd.get(), new_name, flags) != 0) {
    return reply_error(req, errno);
  }
  std::vector<PathMove> moves{{from, to}};
  if ((flags & RENAME_EXCHANGE) != 0) {
    moves.push_back({to, from});
    // Swap the two names of open files through a name no path can have.
    const std::string parked(1, '\0');
    state.open_files.renamed(to, parked);
    state.open_files.renamed(from, to);
    state.open_files.renamed(parked, from);
  } else {
    state.open_files.renamed(from, to);
  }
  reply_done(req, state, moves);
}

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
  if (served->content != nullptr || S_ISLNK(served->entry->mode)) return -EOPNOTSUPP;
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
  reply_done(req, state);
}

void op_setxattr(fuse_req_t req, fuse_ino_t ino, const char* name, const char* value,
                 size_t size, int flags) {
  ServerState& state = state_of(req);
  if (!user_attribute(name)) return reply_error(req, EOPNOTSUPP);
  std::string path;
  UniqueFd fd(attribute_target(state, ino, &path));
  if (fd.get() < 0) return reply_error(req, -fd.get());
  const std::string proc = proc_path(fd.get());
  struct stat before {};
  ::fstat(fd.get(), &before);
  if (::setxattr(proc.c_str(), name, value, size, flags) != 0) return reply_error(req, errno);
  attribute_changed(req, state, path, before, fd.get());
}

void op_removexattr(fuse_req_t req, fuse_ino_t ino, const char* name) {
  ServerState& state = state_of(req);
  if (!user_attribute(name)) return reply_error(req, EOPNOTSUPP);
  std::string path;
  UniqueFd fd(attribute_target(state, ino, &path));
  if (fd.get() < 0) return reply_error(req, -fd.get());
  const std::string proc = proc_path(fd.get());
  struct stat before {};
  ::fstat(fd.get(), &before);
  if (::removexattr(proc.c_str(), name) != 0) return reply_error(req, errno);
  attribute_changed(req, state, path, before, fd.get());
}

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

void op_release_read_only(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  if (fi->fh != 0) return op_release(req, ino, fi);
  state_of(req);
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
  ops.mkdir = op_mkdir;
  ops.mknod = op_mknod;
  ops.symlink = op_symlink;
  ops.link = op_link;
  ops.unlink = op_unlink;
  ops.rmdir = op_rmdir;
  ops.rename = op_rename;
  ops.setxattr = op_setxattr;
  ops.getxattr = op_getxattr;
  ops.listxattr = op_listxattr;
  ops.removexattr = op_removexattr;
  // Preallocation is not carried over: callers fall back (posix_fallocate writes zeros).
  ops.fallocate = [](fuse_req_t req, fuse_ino_t, int, off_t, off_t, fuse_file_info*) {
    state_of(req);
    fuse_reply_err(req, EOPNOTSUPP);
  };
}

}  // namespace anchorfs::fs
