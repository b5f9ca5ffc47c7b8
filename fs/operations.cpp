// The FUSE low-level request handlers: answered from the current Generation, or for an old file
// version the kernel still holds, from that version.
#include <fuse_lowlevel.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>
#include <span>
#include <vector>

#include "fs/server_state.h"
#include "fs/source_file.h"
#include "fs/store.h"

namespace anchorfs::fs {

std::optional<Served> resolve(const ServerState& state, uint64_t ino) {
  Served served;
  served.generation = state.current();
  if (std::optional<uint32_t> index = served.generation->entry(ino)) {
    served.entry = &served.generation->snapshot().entry(*index);
    served.layout = &served.generation->snapshot().layout(*index);
    served.index = *index;
    served.content = served.generation->content(*index).get();
    return served;
  }
  served.retired = state.inodes.retired(ino);
  if (!served.retired) return std::nullopt;
  served.entry = &served.retired->entry;
  served.layout = served.retired->layout.get();
  served.content = served.retired->content.get();
  return served;
}

namespace {

ServerState& state_of(fuse_req_t req) {
  auto* state = static_cast<ServerState*>(fuse_req_userdata(req));
  state->requests.fetch_add(1, std::memory_order_relaxed);
  return *state;
}

}  // namespace

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

namespace {

// What a reader gets when the source no longer is the version the snapshot recorded: never bytes
// of another version. A change of permissions or owner refuses access; anything else is EIO.
int refuse_changed(ServerState& state, const struct stat* st, const analysis::TreeEntry& entry) {
  state.stale_reads.fetch_add(1, std::memory_order_relaxed);
  if (state.options.on_source_changed) state.options.on_source_changed();
  // Same device, inode number and type: a chmod or chown of the file. A new file may reuse the
  // inode number of one just removed (a .py replaced by a FIFO), and then its type differs.
  const bool same_file = st != nullptr && st->st_dev == entry.device && st->st_ino == entry.inode &&
                         (st->st_mode & S_IFMT) == (entry.mode & S_IFMT);
  const bool permissions_changed =
      same_file &&
      (st->st_mode != entry.mode || st->st_uid != entry.uid || st->st_gid != entry.gid);
  return permissions_changed ? EACCES : EIO;
}

// The descriptor serving `entry` as inode `ino`: the one kept for it while it still holds that
// version, else the source opened by path and verified to be that version. Null with `error` set
// otherwise. Bytes and permission decisions thus always come from the version the kernel was told.
std::shared_ptr<const SourceHandle> source_for(ServerState& state, fuse_ino_t ino,
                                               const analysis::TreeEntry& entry, int& error) {
  struct stat st {};
  if (std::shared_ptr<const SourceHandle> kept = state.handles.find(ino)) {
    if (::fstat(kept->fd(), &st) == 0 && still_recorded_version(st, entry)) return kept;
    state.handles.erase(ino);
    error = refuse_changed(state, &st, entry);
    return nullptr;
  }
  const int fd = open_for_reader(state, entry.path);
  if (fd < 0) {
    error = errno;
    return nullptr;
  }
  auto opened = std::make_shared<const SourceHandle>(fd);
  if (::fstat(fd, &st) != 0) {
    error = EIO;
    return nullptr;
  }
  if (!is_recorded_version(st, entry)) {
    error = refuse_changed(state, &st, entry);
    return nullptr;
  }
  state.handles.insert(ino, opened);
  return opened;
}

// Hands a request to the tracer, if any; `served` names what it was served from.
struct TraceRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};
void trace(const ServerState& state, fuse_req_t req, TraceOp op, fuse_ino_t ino,
           const Served& served, TraceRange range = {}, const char* name = nullptr,
           bool found = false) {
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

// Whether the kernel must ask before using its page and listing caches: a tracer that wants
// every read sees an open first, and the open drops the pages.
bool traced_uncached(const ServerState& state) {
  return state.tracer && !state.tracer->options().keep_kernel_cache;
}

void op_init(void* userdata, fuse_conn_info* conn) {
  auto* state = static_cast<ServerState*>(userdata);
  const bool cached = !traced_uncached(*state);
  // A writable mount needs every open: writers get a handle of their own.
  state->no_open =
      cached && !state->options.writable && (conn->capable & FUSE_CAP_NO_OPEN_SUPPORT) != 0;
  if (state->options.writable && (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC) != 0) {
    conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
  }
  state->no_opendir = cached && (conn->capable & FUSE_CAP_NO_OPENDIR_SUPPORT) != 0;
  // Always readdirplus: walkers (rg, grep -r, find) stat or open every entry they list.
  conn->want &= ~static_cast<unsigned>(FUSE_CAP_READDIRPLUS_AUTO);
  if ((conn->capable & FUSE_CAP_CACHE_SYMLINKS) != 0) conn->want |= FUSE_CAP_CACHE_SYMLINKS;
  // Splicing replies (FUSE_CAP_SPLICE_WRITE/MOVE) measured slower here on source trees of small
  // files (cold rg over sympy: 0.20-0.25 s copying vs 0.24-0.41 s splicing), so replies copy.
}

void op_lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  ServerState& state = state_of(req);
  state.lookups.fetch_add(1, std::memory_order_relaxed);
  auto generation = state.current();
  std::optional<uint32_t> dir = generation->entry(parent);
  if (!dir) return static_cast<void>(fuse_reply_err(req, ESTALE));
  if (!S_ISDIR(generation->snapshot().entry(*dir).mode)) {
    return static_cast<void>(fuse_reply_err(req, ENOTDIR));
  }
  std::optional<uint32_t> child = generation->snapshot().child(*dir, name);
  if (state.tracer) {
    Served parent_dir;
    parent_dir.generation = generation;
    parent_dir.index = *dir;
    trace(state, req, TraceOp::Lookup, parent, parent_dir, {}, name, child.has_value());
  }
  if (child) {
    const fuse_entry_param e = entry_param(*generation, *child);
    state.inodes.remember(*generation, std::span<const uint32_t>(&*child, 1));
    // A reply the kernel never got (the request was interrupted) must not hold a count.
    if (fuse_reply_entry(req, &e) != 0) state.inodes.forget(e.ino, 1);
    return;
  }
  // A cacheable negative entry: walkers probe .gitignore/.ignore/.rgignore in every directory.
  fuse_entry_param negative{};
  negative.entry_timeout = kCacheSeconds;
  fuse_reply_entry(req, &negative);
}

void op_getattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
  ServerState& state = state_of(req);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return static_cast<void>(fuse_reply_err(req, ESTALE));
  struct stat st = served_attributes(*served->entry, *served->layout);
  double timeout = kCacheSeconds;
  if (state.options.writable) timeout = writable_attributes(state, ino, *served, st);
  st.st_ino = ino;
  fuse_reply_attr(req, &st, timeout);
}

void op_readlink(fuse_req_t req, fuse_ino_t ino) {
  ServerState& state = state_of(req);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return static_cast<void>(fuse_reply_err(req, ESTALE));
  if (!S_ISLNK(served->entry->mode)) return static_cast<void>(fuse_reply_err(req, EINVAL));
  fuse_reply_readlink(req, served->entry->symlink_target.c_str());
}

void op_open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  ServerState& state = state_of(req);
  if (state.no_open) return static_cast<void>(fuse_reply_err(req, ENOSYS));
  if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC) != 0) {
    if (state.options.writable) return open_for_writing(req, state, ino, fi);
    return static_cast<void>(fuse_reply_err(req, EROFS));
  }
  std::optional<Served> served = resolve(state, ino);
  if (!served) return static_cast<void>(fuse_reply_err(req, ESTALE));
  if (S_ISREG(served->entry->mode) && served->content == nullptr) {
    // Verified here, so the pages the kernel keeps are of this version (a .git overlay is
    // memory: nothing to verify).
    int error = 0;
    if (!source_for(state, ino, *served->entry, error)) {
      // A retired version that no longer is the file on disk was reached through a name whose
      // invalidation is still queued (git's link(tmp, obj) then unlink(tmp) moves obj's ctime
      // on): ESTALE makes open(2) look the name up again and open the file it names now.
      if (served->retired) error = ESTALE;
      return static_cast<void>(fuse_reply_err(req, error));
    }
    // What this reader gets may be written back after a re-tag: the store aligns with it.
    if (state.options.writable) remember_served(state, *served);
  }
  trace(state, req, TraceOp::Open, ino, *served);
  fi->keep_cache = traced_uncached(state) ? 0 : 1;
  fi->noflush = 1;
  fuse_reply_open(req, fi);
}

void op_opendir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  ServerState& state = state_of(req);
  if (state.no_opendir) return static_cast<void>(fuse_reply_err(req, ENOSYS));
  auto generation = state.current();
  if (!generation->entry(ino)) return static_cast<void>(fuse_reply_err(req, ESTALE));
  const bool cached = !traced_uncached(state);
  fi->keep_cache = cached ? 1 : 0;
  fi->cache_readdir = cached ? 1 : 0;
  fuse_reply_open(req, fi);
}

void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info* fi) {
  ServerState& state = state_of(req);
  state.reads.fetch_add(1, std::memory_order_relaxed);
  if (fi != nullptr && fi->fh != 0) return read_open_file(req, state, fi->fh, size, off);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return static_cast<void>(fuse_reply_err(req, ESTALE));
  const analysis::TreeEntry& entry = *served->entry;
  if (S_ISDIR(entry.mode)) return static_cast<void>(fuse_reply_err(req, EISDIR));
  if (!S_ISREG(entry.mode)) return static_cast<void>(fuse_reply_err(req, EIO));
  const FileLayout& layout = *served->layout;
  const uint64_t view_size = fs::view_size(entry, layout);
  const uint64_t offset = static_cast<uint64_t>(off);
  if (served->content != nullptr) {  // a .git overlay: memory, in a writable mount too
    if (off < 0 || offset >= view_size) return static_cast<void>(fuse_reply_buf(req, nullptr, 0));
    const size_t length = static_cast<size_t>(std::min<uint64_t>(size, view_size - offset));
    return static_cast<void>(fuse_reply_buf(req, served->content->data() + offset, length));
  }
  // Untagged files of a writable mount are plain passthrough: written in place, read as they are.
  if (state.options.writable && layout.empty()) return read_in_place(req, state, entry, size, off);
  if (off < 0 || offset >= view_size) return static_cast<void>(fuse_reply_buf(req, nullptr, 0));
  const size_t length = static_cast<size_t>(std::min<uint64_t>(size, view_size - offset));
  trace(state, req, TraceOp::Read, ino, *served, {offset, length});

  int error = 0;
  const std::shared_ptr<const SourceHandle> source = source_for(state, ino, entry, error);
  if (!source) return static_cast<void>(fuse_reply_err(req, error));
  const int fd = source->fd();
  if (layout.empty()) {
    // Untagged: libfuse reads the range straight from the source fd into its reply.
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

// One listing for readdir and readdirplus: ".", "..", then the children; offset k resumes
// after the k-th item.
void reply_listing(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, bool plus) {
  ServerState& state = state_of(req);
  state.readdirs.fetch_add(1, std::memory_order_relaxed);
  state.inodes.listed(ino);  // before the generation is read (InodeTable::listed)
  auto generation = state.current();
  std::optional<uint32_t> index = generation->entry(ino);
  if (!index) return static_cast<void>(fuse_reply_err(req, ESTALE));
  const Snapshot& snapshot = generation->snapshot();
  const analysis::TreeEntry& dir = snapshot.entry(*index);
  if (!S_ISDIR(dir.mode)) return static_cast<void>(fuse_reply_err(req, ENOTDIR));
  if (state.tracer) {
    Served listed_dir;
    listed_dir.generation = generation;
    listed_dir.index = *index;
    trace(state, req, TraceOp::Readdir, ino, listed_dir,
          {off < 0 ? 0 : static_cast<uint64_t>(off)});
  }

  thread_local std::vector<char> buffer;
  thread_local std::vector<uint32_t> listed;  // children whose entries the kernel will count
  buffer.resize(size);
  listed.clear();
  size_t used = 0;
  const uint64_t items = uint64_t{dir.child_count} + 2;
  for (uint64_t item = off < 0 ? 0 : static_cast<uint64_t>(off); item < items; ++item) {
    char* at = buffer.data() + used;
    const size_t room = size - used;
    const off_t next = static_cast<off_t>(item + 1);
    size_t needed = 0;
    if (item < 2) {
      const uint64_t self_or_parent =
          item == 0 || dir.parent == analysis::kNoParent ? ino : generation->inode(dir.parent);
      fuse_entry_param e{};
      e.attr.st_ino = self_or_parent;
      e.attr.st_mode = S_IFDIR;
      const char* name = item == 0 ? "." : "..";
      // A zero e.ino tells the kernel not to instantiate anything for "." and "..".
      needed = plus ? fuse_add_direntry_plus(req, at, room, name, &e, next)
                    : fuse_add_direntry(req, at, room, name, &e.attr, next);
    } else {
      const uint32_t child = dir.first_child + static_cast<uint32_t>(item - 2);
      const std::string name(snapshot.name(child));
      fuse_entry_param e = entry_param(*generation, child);
      needed = plus ? fuse_add_direntry_plus(req, at, room, name.c_str(), &e, next)
                    : fuse_add_direntry(req, at, room, name.c_str(), &e.attr, next);
    }
    if (needed > room) break;
    used += needed;
    if (plus && item >= 2) listed.push_back(dir.first_child + static_cast<uint32_t>(item - 2));
  }
  // Every readdirplus entry but "." and ".." counts as a lookup in the kernel.
  state.inodes.remember(*generation, listed);
  if (fuse_reply_buf(req, buffer.data(), used) != 0) {
    for (uint32_t child : listed) state.inodes.forget(generation->inode(child), 1);
  }
}

void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  reply_listing(req, ino, size, off, false);
}

void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  reply_listing(req, ino, size, off, true);
}

void op_statfs(fuse_req_t req, fuse_ino_t) {
  ServerState& state = state_of(req);
  struct statvfs sv {};
  if (::fstatvfs(state.root()->fd, &sv) != 0) return static_cast<void>(fuse_reply_err(req, errno));
  fuse_reply_statfs(req, &sv);
}

// The kernel dropped inodes: release their lookup counts (and old file versions). Forgets get
// no reply and are not counted as requests: a warm pass must not look busier for them.
void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup) {
  auto* state = static_cast<ServerState*>(fuse_req_userdata(req));
  state->forgets.fetch_add(1, std::memory_order_relaxed);
  if (state->inodes.forget(ino, nlookup)) state->handles.erase(ino);
  fuse_reply_none(req);
}

void op_forget_multi(fuse_req_t req, size_t count, fuse_forget_data* forgets) {
  auto* state = static_cast<ServerState*>(fuse_req_userdata(req));
  state->forgets.fetch_add(count, std::memory_order_relaxed);
  for (const fuse_forget_data& forget : std::span<const fuse_forget_data>(forgets, count)) {
    if (state->inodes.forget(forget.ino, forget.nlookup)) state->handles.erase(forget.ino);
  }
  fuse_reply_none(req);
}

// Every operation that would change something: the mount is read-only.
void refuse(fuse_req_t req) {
  state_of(req);
  fuse_reply_err(req, EROFS);
}

}  // namespace

const fuse_lowlevel_ops& operations(bool writable) {
  static const fuse_lowlevel_ops read_only = [] {
    fuse_lowlevel_ops ops{};
    ops.init = op_init;
    ops.lookup = op_lookup;
    ops.getattr = op_getattr;
    ops.readlink = op_readlink;
    ops.open = op_open;
    ops.read = op_read;
    ops.opendir = op_opendir;
    ops.readdir = op_readdir;
    ops.readdirplus = op_readdirplus;
    ops.statfs = op_statfs;
    ops.forget = op_forget;
    ops.forget_multi = op_forget_multi;
    ops.setattr = [](fuse_req_t req, fuse_ino_t, struct stat*, int, fuse_file_info*) {
      refuse(req);
    };
    ops.mknod = [](fuse_req_t req, fuse_ino_t, const char*, mode_t, dev_t) { refuse(req); };
    ops.mkdir = [](fuse_req_t req, fuse_ino_t, const char*, mode_t) { refuse(req); };
    ops.unlink = [](fuse_req_t req, fuse_ino_t, const char*) { refuse(req); };
    ops.rmdir = [](fuse_req_t req, fuse_ino_t, const char*) { refuse(req); };
    ops.symlink = [](fuse_req_t req, const char*, fuse_ino_t, const char*) { refuse(req); };
    ops.rename = [](fuse_req_t req, fuse_ino_t, const char*, fuse_ino_t, const char*, unsigned) {
      refuse(req);
    };
    ops.link = [](fuse_req_t req, fuse_ino_t, fuse_ino_t, const char*) { refuse(req); };
    ops.write = [](fuse_req_t req, fuse_ino_t, const char*, size_t, off_t, fuse_file_info*) {
      refuse(req);
    };
    ops.setxattr = [](fuse_req_t req, fuse_ino_t, const char*, const char*, size_t, int) {
      refuse(req);
    };
    ops.removexattr = [](fuse_req_t req, fuse_ino_t, const char*) { refuse(req); };
    ops.create = [](fuse_req_t req, fuse_ino_t, const char*, mode_t, fuse_file_info*) {
      refuse(req);
    };
    ops.fallocate = [](fuse_req_t req, fuse_ino_t, int, off_t, off_t, fuse_file_info*) {
      refuse(req);
    };
    // Not set on purpose: flush, release, releasedir, fsync, access, getxattr and listxattr.
    // libfuse answers them with ENOSYS and the kernel stops sending them.
    return ops;
  }();
  static const fuse_lowlevel_ops read_write = [] {
    fuse_lowlevel_ops ops = read_only;
    add_write_operations(ops);
    return ops;
  }();
  return writable ? read_write : read_only;
}

}  // namespace anchorfs::fs
