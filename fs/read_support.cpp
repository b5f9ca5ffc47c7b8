// Serving reads, shared by both kinds of mount: resolve an inode, verify a source, trace, and
// read by the entry's Serving strategy (fs/read_support.h).
#include "fs/read_support.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/unique_fd.h"
#include "fs/source_file.h"

namespace anchorfs::fs {

std::optional<Served> resolve(const ServerState& state, uint64_t ino) {
  std::shared_ptr<const Generation> generation = state.current();
  if (std::optional<uint32_t> index = generation->entry(ino)) {
    return served_entry(std::move(generation), *index);
  }
  Served served;
  served.generation = std::move(generation);
  served.retired = state.inodes.retired(ino);
  if (!served.retired) return std::nullopt;
  served.entry = &served.retired->entry;
  served.layout = served.retired->layout.get();
  served.content = served.retired->content.get();
  served.serving = serving_of(*served.entry, *served.layout, served.content != nullptr);
  return served;
}

fuse_entry_param entry_param(const Generation& generation, uint32_t index) {
  fuse_entry_param e{};
  e.ino = generation.inode(index);
  e.attr = generation.snapshot().attributes(index);
  e.attr.st_ino = e.ino;
  e.attr_timeout = kCacheSeconds;
  e.entry_timeout = kCacheSeconds;
  return e;
}

int open_for_reader(ServerState& state, const std::string& path) {
  const std::shared_ptr<const SourceRoot> root = state.root();
  int fd = open_source(root->fd, path);
  if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
    state.handles.shrink();  // our own kept descriptors are the likely reason
    fd = open_source(root->fd, path);
  }
  if (fd < 0) errno = open_error_for_reader(errno);
  return fd;
}

void trace(const ServerState& state, fuse_req_t req, TraceOp op, fuse_ino_t ino,
           const Served& served, TraceRange range, const char* name, bool found) {
  Tracer* tracer = state.tracer.get();
  if (tracer == nullptr) return;
  TraceEvent event;
  event.op = op;
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  event.time_ns = int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
  event.pid = fuse_req_ctx(req)->pid;
  event.ino = ino;
  event.generation = served.generation;
  event.retired = served.retired;
  event.entry = served.index;
  event.offset = range.offset;
  event.length = range.length;
  if (name != nullptr) event.name = name;
  event.found = found;
  tracer->record(std::move(event));
}

bool traced_uncached(const ServerState& state) {
  return state.tracer && !state.tracer->options().keep_kernel_cache;
}

void configure_connection(ServerState& state, fuse_conn_info* conn, bool every_open) {
  const bool cached = !traced_uncached(state);
  state.no_open = cached && !every_open && (conn->capable & FUSE_CAP_NO_OPEN_SUPPORT) != 0;
  state.no_opendir = cached && (conn->capable & FUSE_CAP_NO_OPENDIR_SUPPORT) != 0;
  // Always readdirplus: walkers (rg, grep -r, find) stat or open every entry they list.
  conn->want &= ~static_cast<unsigned>(FUSE_CAP_READDIRPLUS_AUTO);
  if ((conn->capable & FUSE_CAP_CACHE_SYMLINKS) != 0) conn->want |= FUSE_CAP_CACHE_SYMLINKS;
  // Splicing replies (FUSE_CAP_SPLICE_WRITE/MOVE) measured slower here on source trees of small
  // files (cold rg over sympy: 0.20-0.25 s copying vs 0.24-0.41 s splicing), so replies copy.
}

namespace {

// What a reader gets when the source no longer is the version the snapshot recorded: never bytes
// of another version. A change of permissions or owner refuses access; anything else is EIO.
int refuse_changed(ServerState& state, const struct stat* st, const analysis::TreeEntry& entry) {
  state.stale_reads.fetch_add(1, std::memory_order_relaxed);
  if (state.options.on_source_changed) state.options.on_source_changed(entry.path);
  // Same device, inode number and type: a chmod or chown of the file. A new file may reuse the
  // inode number of one just removed (a .py replaced by a FIFO), and then its type differs.
  const bool same_file = st != nullptr && st->st_dev == entry.device && st->st_ino == entry.inode &&
                         (st->st_mode & S_IFMT) == (entry.mode & S_IFMT);
  const bool permissions_changed =
      same_file &&
      (st->st_mode != entry.mode || st->st_uid != entry.uid || st->st_gid != entry.gid);
  return permissions_changed ? EACCES : EIO;
}

// Why source_for found no descriptor: `error` is what the reader gets; `changed` says the
// checkout no longer holds the recorded version at the path (changed, replaced or gone), which
// the server may serve untagged (follow_change) rather than refuse.
struct SourceFailure {
  int error = 0;
  bool changed = false;
};

// The descriptor serving `entry` as inode `ino`: the one kept for it while it still holds that
// version, else the source opened by path and verified to be that version. Null with `failure`
// set otherwise. Bytes and permission decisions thus always come from the version the kernel was
// told.
std::shared_ptr<const SourceHandle> source_for(ServerState& state, fuse_ino_t ino,
                                               const analysis::TreeEntry& entry,
                                               SourceFailure& failure) {
  struct stat st {};
  if (std::shared_ptr<const SourceHandle> kept = state.handles.find(ino)) {
    if (::fstat(kept->fd(), &st) == 0 && still_recorded_version(st, entry)) return kept;
    state.handles.erase(ino);
    failure = {refuse_changed(state, &st, entry), true};
    return nullptr;
  }
  const int fd = open_for_reader(state, entry.path);
  if (fd < 0) {
    failure = {errno, errno == ENOENT || errno == ENOTDIR};
    return nullptr;
  }
  auto opened = std::make_shared<const SourceHandle>(fd);
  if (::fstat(fd, &st) != 0) {
    failure = {EIO, false};
    return nullptr;
  }
  if (!is_recorded_version(st, entry)) {
    failure = {refuse_changed(state, &st, entry), true};
    return nullptr;
  }
  state.inodes.mark_served(ino);
  state.handles.insert(ino, opened);
  return opened;
}

// The part of the view [0, view_size) a read of `size` at `off` gets (empty past the end).
size_t read_length(uint64_t view_size, size_t size, off_t off) {
  const uint64_t offset = static_cast<uint64_t>(off);
  if (off < 0 || offset >= view_size) return 0;
  return static_cast<size_t>(std::min<uint64_t>(size, view_size - offset));
}

// A .git overlay: memory, in a writable mount too.
void read_memory(fuse_req_t req, const Served& served, size_t size, off_t off) {
  const size_t length = read_length(view_size(*served.entry, *served.layout), size, off);
  if (length == 0) return static_cast<void>(fuse_reply_buf(req, nullptr, 0));
  fuse_reply_buf(req, served.content->data() + off, length);
}

// The checkout's bytes of the served version, or the view laid out over them. A version no
// longer in the checkout is followed once (follow_change): `may_follow` is false for the version
// followed to.
void read_source(fuse_req_t req, ServerState& state, fuse_ino_t ino, const Served& served,
                 size_t size, off_t off, bool may_follow) {
  const analysis::TreeEntry& entry = *served.entry;
  const FileLayout& layout = *served.layout;
  const uint64_t served_size = view_size(entry, layout);
  const size_t length = read_length(served_size, size, off);
  const uint64_t offset = static_cast<uint64_t>(off);
  if (length == 0) {
    trace(state, req, TraceOp::Read, ino, served, {offset, length});
    return static_cast<void>(fuse_reply_buf(req, nullptr, 0));
  }
  SourceFailure failure;
  const std::shared_ptr<const SourceHandle> source = source_for(state, ino, entry, failure);
  if (!source && failure.changed && may_follow) {
    if (std::optional<Served> followed = follow_change(state, ino, served)) {
      // The kernel sized this read by the old version. A shorter reply tells it the new end
      // itself (it trims its size at a short read, unless its attributes changed meanwhile: so
      // nothing is invalidated then); a longer version must make it ask for the size again
      // before it reads on.
      if (view_size(*followed->entry, *followed->layout) > served_size) {
        invalidate_attributes_now(state, ino);
      }
      return read_source(req, state, ino, *followed, size, off, false);
    }
  }
  trace(state, req, TraceOp::Read, ino, served, {offset, length});
  if (!source) return static_cast<void>(fuse_reply_err(req, failure.error));
  const int fd = source->fd();
  if (served.serving == Serving::Checkout) {
    // libfuse reads the range straight from the source fd into its reply.
    // FUSE_BUFVEC_INIT is a C compound literal; the same fields, set in C++.
    fuse_bufvec data{};
    data.count = 1;
    data.buf[0].size = length;
    data.buf[0].flags = static_cast<fuse_buf_flags>(FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK);
    data.buf[0].fd = fd;
    data.buf[0].pos = off;
    fuse_reply_data(req, &data, FUSE_BUF_NO_SPLICE);
    return;
  }
  thread_local std::vector<char> buffer;
  buffer.resize(length);
  if (!layout.read(fd, offset, std::span<char>(buffer.data(), length))) {
    return static_cast<void>(fuse_reply_err(req, errno));  // EIO for a short read
  }
  fuse_reply_buf(req, buffer.data(), length);
}

}  // namespace

// Inode `ino`, served as `served`, met a checkout that no longer holds its version: the change is
// served untagged from now on (new lookups find the file as it is). `ino` itself moves on to the
// checkout's version only if the kernel never got a byte of the old one and the file allows what
// the served attributes did (same type, mode, owner and group: the kernel's permission checks
// were made with them); then that version is returned, to be read in the old one's place.
std::optional<Served> follow_change(ServerState& state, fuse_ino_t ino, const Served& served) {
  const analysis::TreeEntry& was = *served.entry;
  auto [generation, changed] = serve_untagged(state, std::span<const std::string>(&was.path, 1));
  if (!generation) return std::nullopt;
  queue_notification(state, std::move(changed));
  if (generation->entry(ino)) return std::nullopt;
  const Snapshot& snapshot = generation->snapshot();
  const std::optional<uint32_t> index = snapshot.find(was.path);
  if (!index || snapshot.serving(*index) != Serving::Checkout) return std::nullopt;
  const analysis::TreeEntry& now = snapshot.entry(*index);
  if (now.mode != was.mode || now.uid != was.uid || now.gid != was.gid) return std::nullopt;
  auto version =
      std::make_shared<const RetiredFile>(RetiredFile{now, snapshot.layout_ptr(*index), nullptr});
  const RetiredFile* ours = version.get();
  if (!state.inodes.follow(ino, was, std::move(version))) return std::nullopt;
  std::optional<Served> followed = resolve(state, ino);
  if (followed && followed->retired.get() == ours) {
    state.followed_changes.fetch_add(1, std::memory_order_relaxed);
  }
  return followed;
}

bool checked_at_attributes(const ServerState& state, const analysis::TreeEntry& entry,
                           Serving serving) {
  return !state.options.writable && serving == Serving::Checkout && S_ISREG(entry.mode) &&
         entry.size == 0;
}

bool checkout_holds(const ServerState& state, const analysis::TreeEntry& entry) {
  const UniqueFd fd(open_beneath(state.root()->fd, entry.path, O_PATH | O_NOFOLLOW));
  struct stat st {};
  return fd.get() >= 0 && ::fstat(fd.get(), &st) == 0 && is_recorded_version(st, entry);
}

int check_reader_open(ServerState& state, fuse_ino_t ino, const Served& served) {
  if (served.serving != Serving::Checkout && served.serving != Serving::LaidOut) return 0;
  SourceFailure failure;
  if (source_for(state, ino, *served.entry, failure)) return 0;
  // A version that no longer is the file on disk: its change is served untagged from now on, and
  // ESTALE makes open(2) look the name up again and open the file it names now. (A retired one
  // may also have been reached through a name whose invalidation is still queued: git's
  // link(tmp, obj) then unlink(tmp) moves obj's ctime on.)
  if (failure.changed) {
    const auto [generation, changed] =
        serve_untagged(state, std::span<const std::string>(&served.entry->path, 1));
    if (generation) queue_notification(state, changed);
    if (generation && !generation->entry(ino)) return ESTALE;
  }
  return served.retired ? ESTALE : failure.error;
}

void reply_reader_open(fuse_req_t req, ServerState& state, fuse_ino_t ino, const Served& served,
                       fuse_file_info* fi) {
  trace(state, req, TraceOp::Open, ino, served);
  fi->keep_cache = traced_uncached(state) ? 0 : 1;
  fi->noflush = 1;
  fuse_reply_open(req, fi);
}

void serve_read(fuse_req_t req, ServerState& state, fuse_ino_t ino, const Served& served,
                size_t size, off_t off) {
  switch (served.serving) {
    case Serving::Memory:
      return read_memory(req, served, size, off);
    case Serving::Checkout:
    case Serving::LaidOut:
      return read_source(req, state, ino, served, size, off, true);
    case Serving::Directory:
      return static_cast<void>(fuse_reply_err(req, EISDIR));
    case Serving::Symlink:
    case Serving::Special:
      break;
  }
  fuse_reply_err(req, EIO);
}

}  // namespace anchorfs::fs
