// What the handlers of both kinds of mount share for serving reads: resolving, verifying and
// tracing, replying to an open, and reading by the entry's Serving strategy.
#pragma once

#include <fcntl.h>
#include <fuse_lowlevel.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "fs/server_state.h"
#include "fs/tracer.h"

namespace anchorfs::fs {

// Hands a request to the tracer, if any; `served` names what it was served from.
struct TraceRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};
void trace(const ServerState& state, fuse_req_t req, TraceOp op, fuse_ino_t ino,
           const Served& served, TraceRange range = {}, const char* name = nullptr,
           bool found = false);

// Whether the kernel must ask before using its page and listing caches: a tracer that wants
// every read sees an open first, and the open drops the pages.
bool traced_uncached(const ServerState& state);

// The connection's options at init. `every_open`: the mount needs every open (a writable one:
// writers get a handle of their own), so no_open is never asked for.
void configure_connection(ServerState& state, fuse_conn_info* conn, bool every_open);

// Whether open(2) `flags` ask to change the file (write access or O_TRUNC).
inline bool opens_for_writing(int flags) {
  return (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC) != 0;
}

// Whether a read-only mount checks a file served as `serving` against the checkout when the kernel
// asks for its name or attributes, and lets it cache neither: an empty file served from the
// checkout. Every read checks the version it serves, but the kernel reads nothing past the size it
// holds, so no read of a file it holds as empty ever arrives; and an empty version is what a stat
// catches between an in-place save's truncation and its write.
bool checked_at_attributes(const ServerState& state, const analysis::TreeEntry& entry,
                           Serving serving);
// Whether the checkout still holds `entry`'s version at its path.
bool checkout_holds(const ServerState& state, const analysis::TreeEntry& entry);
// Inode `ino`, served as `served`, met a checkout that no longer holds its version: the change is
// served untagged from now on, and `ino` follows it when it may (read_support.cpp); returns the
// version `ino` now serves if it moved.
std::optional<Served> follow_change(ServerState& state, fuse_ino_t ino, const Served& served);

// An open for reading of `served` (inode `ino`): a file read from the checkout is opened and
// verified to be the served version here, so the pages the kernel keeps are of this version.
// Returns 0 or the errno to reply.
int check_reader_open(ServerState& state, fuse_ino_t ino, const Served& served);
// Replies to a successful open for reading.
void reply_reader_open(fuse_req_t req, ServerState& state, fuse_ino_t ino, const Served& served,
                       fuse_file_info* fi);

// Replies to a read of `size` bytes at `off` of `served` as its Serving strategy says: memory,
// the checkout's bytes (verified version), or the laid-out tagged view.
void serve_read(fuse_req_t req, ServerState& state, fuse_ino_t ino, const Served& served,
                size_t size, off_t off);

}  // namespace anchorfs::fs
