// The request handlers of a read-only mount, most of them a writable mount's too: answered from
// the current Generation, or for an old file version the kernel still holds, from that version;
// how a file is opened and read follows its entry's Serving strategy.
#include <fuse_lowlevel.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "fs/handlers.h"
#include "fs/read_support.h"

namespace anchorfs::fs {

namespace {

// A lookup's reply; a file checked at every lookup and getattr is not cached.
fuse_entry_param reader_entry_param(const ServerState& state, const Generation& generation,
                                    uint32_t index) {
  fuse_entry_param e = entry_param(generation, index);
  const Snapshot& snapshot = generation.snapshot();
  if (checked_at_attributes(state, snapshot.entry(index), snapshot.serving(index))) {
    e.attr_timeout = 0;
    e.entry_timeout = 0;
  }
  return e;
}

}  // namespace

void op_init(void* userdata, fuse_conn_info* conn) {
  configure_connection(*static_cast<ServerState*>(userdata), conn, false);
}

void op_lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  ServerState& state = state_of(req);
  state.lookups.fetch_add(1, std::memory_order_relaxed);
  auto generation = state.current();
  std::optional<uint32_t> dir = generation->entry(parent);
  if (!dir) return static_cast<void>(fuse_reply_err(req, ESTALE));
  if (generation->snapshot().serving(*dir) != Serving::Directory) {
    return static_cast<void>(fuse_reply_err(req, ENOTDIR));
  }
  std::optional<uint32_t> child = generation->snapshot().child(*dir, name);
  if (child) {
    // An empty file's name is answered with the file the checkout holds there now.
    const Snapshot& snapshot = generation->snapshot();
    const analysis::TreeEntry& found = snapshot.entry(*child);
    if (checked_at_attributes(state, found, snapshot.serving(*child)) &&
        !checkout_holds(state, found)) {
      const std::string path = found.path;
      if (auto [next, changed] = serve_untagged(state, std::span<const std::string>(&path, 1));
          next) {
        queue_notification(state, std::move(changed));
        generation = std::move(next);
        child = generation->snapshot().find(path);
      }
    }
  }
  if (state.tracer) {
    Served parent_dir;
    parent_dir.generation = generation;
    parent_dir.index = *dir;
    trace(state, req, TraceOp::Lookup, parent, parent_dir, {}, name, child.has_value());
  }
  if (child) {
    const fuse_entry_param e = reader_entry_param(state, *generation, *child);
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
  if (checked_at_attributes(state, *served->entry, served->serving) &&
      !checkout_holds(state, *served->entry)) {
    if (std::optional<Served> followed = follow_change(state, ino, *served)) served = followed;
  }
  struct stat st = served_attributes(*served->entry, *served->layout);
  st.st_ino = ino;
  fuse_reply_attr(
      req, &st, checked_at_attributes(state, *served->entry, served->serving) ? 0 : kCacheSeconds);
}

void op_readlink(fuse_req_t req, fuse_ino_t ino) {
  ServerState& state = state_of(req);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return static_cast<void>(fuse_reply_err(req, ESTALE));
  if (served->serving != Serving::Symlink) return static_cast<void>(fuse_reply_err(req, EINVAL));
  fuse_reply_readlink(req, served->entry->symlink_target.c_str());
}

void op_open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  ServerState& state = state_of(req);
  if (state.no_open) return static_cast<void>(fuse_reply_err(req, ENOSYS));
  if (opens_for_writing(fi->flags)) return static_cast<void>(fuse_reply_err(req, EROFS));
  std::optional<Served> served = resolve(state, ino);
  if (!served) return static_cast<void>(fuse_reply_err(req, ESTALE));
  if (const int error = check_reader_open(state, ino, *served); error != 0) {
    return static_cast<void>(fuse_reply_err(req, error));
  }
  reply_reader_open(req, state, ino, *served, fi);
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

void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  ServerState& state = state_of(req);
  state.reads.fetch_add(1, std::memory_order_relaxed);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return static_cast<void>(fuse_reply_err(req, ESTALE));
  serve_read(req, state, ino, *served, size, off);
}

namespace {

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
  if (snapshot.serving(*index) != Serving::Directory) {
    return static_cast<void>(fuse_reply_err(req, ENOTDIR));
  }
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
      fuse_entry_param e = reader_entry_param(state, *generation, child);
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

}  // namespace

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

}  // namespace anchorfs::fs
