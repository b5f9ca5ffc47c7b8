// Writable mounts: a writer's data. Opening a file for writing (a stage for a tagged file or an
// O_TRUNC open, else the checkout file in place), write, reads through that handle, and storing
// on flush, fsync and release: what a writer wrote lands in the checkout tag-free, atomically.
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
#include "fs/handlers.h"
#include "fs/server_state.h"
#include "fs/source_file.h"
#include "fs/store.h"
#include "fs/write_support.h"

namespace anchorfs::fs {
namespace {

// Whether the caller of `req` may have `want` access to the file at `path` now (fstat of what
// an O_PATH open beneath the root reaches). Returns 0 or an errno.
int check_file_at(fuse_req_t req, const ServerState& state, const std::string& path, int want) {
  UniqueFd fd(open_beneath(state.root()->fd, path, O_PATH | O_NOFOLLOW));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return EINVAL;
  return caller_may(req, st, want);
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


}  // namespace

int open_handle(fuse_req_t req, ServerState& state, const Served& served, uint64_t ino, int flags,
                fuse_file_info* fi) {
  const std::string& path = served.entry->path;
  const bool truncate = (flags & O_TRUNC) != 0;
  const bool append = (flags & O_APPEND) != 0;
  const int want = access_for_open(flags);
  std::shared_ptr<OpenFile> file;
  uint64_t staged = 0;
  if (served.serving == Serving::Checkout && !truncate) {
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
    if (writer_view(state, served, st).value_or(nullptr)) {
      ::close(fd);  // handed tagged by the last open of this version: staged from that view
    } else {
      file = std::make_shared<OpenFile>(OpenFile::Kind::InPlace, ino, fd, append);
    }
  }
  if (!file) {
    if (req != nullptr && truncate) {
      if (const int error = check_file_at(req, state, path, want); error != 0) return error;
    }
    // A file just created for the caller (null `req`) starts empty in a directory the daemon
    // could write: its stage may be kept in memory (whether the checkout has room shows when
    // it is stored, at close, unless it grows past kMemoryStageBytes first).
    bool in_memory = false;
    const int stage = req == nullptr && truncate
                          ? create_empty_stage(state.memory_stages, state.root()->fd, path,
                                               in_memory)
                          : create_stage(state.root()->fd, path);
    if (stage < 0) return errno;
    file = std::make_shared<OpenFile>(OpenFile::Kind::Staged, ino, stage, append);
    const sync::MutexLock lock(file->mutex);  // no other thread has the file yet
    if (in_memory) file->memory_stages = &state.memory_stages;
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

void open_for_writing(fuse_req_t req, ServerState& state, uint64_t ino, fuse_file_info* fi) {
  std::optional<Served> served = resolve(state, ino);
  if (!served) return reply_error(req, ESTALE);
  // The view's .git overlays are generated: git rewrites them by lock file and rename.
  if (served->serving == Serving::Memory) return reply_error(req, EACCES);
  if (served->serving != Serving::Checkout && served->serving != Serving::LaidOut) {
    return reply_error(req, EINVAL);
  }
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

void op_write(fuse_req_t req, fuse_ino_t, const char* buffer, size_t size, off_t off,
              fuse_file_info* fi) {
  ServerState& state = state_of(req);
  std::shared_ptr<OpenFile> file = state.open_files.find(fi->fh);
  if (!file) return reply_error(req, EBADF);
  const sync::MutexLock lock(file->mutex);
  const bool staged = file->kind == OpenFile::Kind::Staged;
  const uint64_t offset = staged && file->append ? file_size(file->fd) : static_cast<uint64_t>(off);
  if (const int error = make_room(state, fi->fh, *file, offset + size); error != 0) {
    return reply_error(req, error);
  }
  if (const int error = write_at(file->fd, std::string_view(buffer, size), offset); error != 0) {
    return reply_error(req, error);
  }
  file->dirty = true;
  if (staged) state.open_files.staged_written(fi->fh, file_size(file->fd));
  fuse_reply_write(req, size);
}

void op_flush(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  store_and_reply(req, state_of(req), fi, false, false);
}

void op_fsync(fuse_req_t req, fuse_ino_t, int datasync, fuse_file_info* fi) {
  store_and_reply(req, state_of(req), fi, true, datasync != 0);
}

namespace {

// The last close of a writer's handle: stores what is left to store.
void release_writer(fuse_req_t req, ServerState& state, uint64_t handle) {
  std::shared_ptr<OpenFile> file = state.open_files.find(handle);
  const std::optional<std::string> target = state.open_files.target(handle);
  bool changed = false;
  if (file) {
    const sync::MutexLock lock(file->mutex);
    changed = file->dirty;
    store(state, handle, *file);  // nobody is left to tell of a failure (close already returned)
  }
  state.open_files.remove(handle);
  if (changed) {
    auto [generation, invalidations] = rescan_target(state, target);
    queue_notification(state, std::move(invalidations));
  }
  fuse_reply_err(req, 0);
}

}  // namespace

void op_release(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  ServerState& state = state_of(req);
  if (fi->fh != 0) return release_writer(req, state, fi->fh);
  fuse_reply_err(req, 0);  // a reader's open: nothing to store
}

// Preallocation is not carried over: callers fall back (posix_fallocate writes zeros).
void op_fallocate(fuse_req_t req, fuse_ino_t, int, off_t, off_t, fuse_file_info*) {
  state_of(req);
  fuse_reply_err(req, EOPNOTSUPP);
}

}  // namespace anchorfs::fs
