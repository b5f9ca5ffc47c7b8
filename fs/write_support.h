// Writable mounts: what the request handlers of fs/write_*.cpp share.
#pragma once

#include <fuse_lowlevel.h>
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "fs/generation.h"
#include "fs/server_state.h"

namespace anchorfs::fs {

void reply_error(fuse_req_t req, int error);
// The repository path of directory `ino` in the current generation, or an errno.
int directory_path(const ServerState& state, fuse_ino_t ino, std::string& path);
// New objects belong to their creator, as on a local filesystem (the daemon may be root).
void give_to_caller(fuse_req_t req, int dir_fd, const char* name);
// A change made through the mount to `path` (chmod, chown, times, xattrs) moved the checkout
// file from version `before` to `after`: writers staged on `before` are still on the file.
void adopt_change(ServerState& state, const std::string& path, const struct stat& before,
                  const struct stat& after, const timespec* times);
// Leaves out of `changed` the name of entry `index` of `generation`, which a request made: the
// kernel makes that dentry from the reply, and dropping it after would only cost a lookup.
void keep_made_name(Invalidations& changed, const Generation& generation, uint32_t index);
// The reply that made that dentry never reached the kernel (interrupted): a negative lookup it
// holds for the name must go after all, and the directory's attributes (see leave_to_kernel).
void made_name_not_replied(ServerState& state, const Generation& generation, uint32_t index);
// Rescans `path` after a change that made it and replies with the entry now there.
void reply_entry_at(fuse_req_t req, ServerState& state, const std::string& path);
// Rescans `touched` after a change (see rescan) and replies success.
void reply_done(fuse_req_t req, ServerState& state, std::span<const std::string> touched,
                std::span<const PathMove> moves = {});

// The size of the file open as `fd` (0 when fstat fails).
uint64_t file_size(int fd);

// Before the stage of `file` (handle `handle`) grows to `size` bytes: an in-memory stage past
// kMemoryStageBytes moves to an O_TMPFILE beside where the file is stored (fs/checkout_io.h).
// Returns 0 or an errno.
int make_room(ServerState& state, uint64_t handle, OpenFile& file, uint64_t size)
    REQUIRES(file.mutex);

// fs/write_files.cpp: opens `served` (inode `ino`) for writing with open(2) `flags` and fills in
// `fi`. A tagged file, and any file opened with O_TRUNC, is written through a private stage
// (fs/store.h); a file served from the checkout in place. The caller of `req` must be allowed what
// `flags` ask on the file the open reaches (a file renamed over the looked-up one since is checked
// by its own mode and owner); null `req`: a file just created for the caller. Returns 0 or an
// errno.
int open_handle(fuse_req_t req, ServerState& state, const Served& served, uint64_t ino, int flags,
                fuse_file_info* fi);
// An open with write access or O_TRUNC: replies with a handle.
void open_for_writing(fuse_req_t req, ServerState& state, uint64_t ino, fuse_file_info* fi);
// Reads through a write handle (the stage, or the checkout file).
void read_open_file(fuse_req_t req, ServerState& state, uint64_t handle, size_t size, off_t off);

// fs/write_reads.cpp: the attributes of `ino` as a writer changes them (live for files written in
// place, the stage's size while a file is being written); returns the attribute timeout to give.
double writable_attributes(const ServerState& state, uint64_t ino, const Served& served,
                           struct stat& st);

}  // namespace anchorfs::fs
