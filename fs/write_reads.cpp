// Writable mounts: what they serve differently from a read-only mount. Every open reaches the
// daemon (writers get a handle); a file written in place is read and stat'ed live from the
// checkout; a file being written has its stage's size and times; a read through a writer's
// handle reads that handle.
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/unique_fd.h"
#include "fs/caller_access.h"
#include "fs/checkout_io.h"
#include "fs/handlers.h"
#include "fs/read_support.h"
#include "fs/source_file.h"
#include "fs/store.h"
#include "fs/write_support.h"

namespace anchorfs::fs {
namespace {

// Reads an untagged file of a writable mount as it is in the checkout now.
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

}  // namespace

double writable_attributes(const ServerState& state, uint64_t ino, const Served& served,
                           struct stat& st) {
  // A .git overlay is the snapshot's (git replaces the real file by rename, never in place).
  if (served.serving != Serving::Checkout && served.serving != Serving::LaidOut) {
    return kCacheSeconds;
  }
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
  if (served.serving == Serving::Checkout) {
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

void op_init_writable(void* userdata, fuse_conn_info* conn) {
  configure_connection(*static_cast<ServerState*>(userdata), conn, true);
  if ((conn->capable & FUSE_CAP_ATOMIC_O_TRUNC) != 0) conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
}

void op_getattr_writable(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
  ServerState& state = state_of(req);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return reply_error(req, ESTALE);
  struct stat st = served_attributes(*served->entry, *served->layout);
  const double timeout = writable_attributes(state, ino, *served, st);
  st.st_ino = ino;
  fuse_reply_attr(req, &st, timeout);
}

void op_open_writable(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  ServerState& state = state_of(req);
  if (opens_for_writing(fi->flags)) return open_for_writing(req, state, ino, fi);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return reply_error(req, ESTALE);
  if (const int error = check_reader_open(state, ino, *served); error != 0) {
    return reply_error(req, error);
  }
  // What this reader gets may be written back after a re-tag: the store aligns with it.
  remember_served(state, *served);
  reply_reader_open(req, state, ino, *served, fi);
}

void op_read_writable(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                      fuse_file_info* fi) {
  ServerState& state = state_of(req);
  state.reads.fetch_add(1, std::memory_order_relaxed);
  if (fi != nullptr && fi->fh != 0) return read_open_file(req, state, fi->fh, size, off);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return reply_error(req, ESTALE);
  // Files served untagged are plain passthrough here: written in place, read as they are now.
  if (served->serving == Serving::Checkout) {
    return read_in_place(req, state, *served->entry, size, off);
  }
  serve_read(req, state, ino, *served, size, off);
}

}  // namespace anchorfs::fs
