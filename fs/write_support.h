// Writable mounts: what the request handlers of fs/write_*.cpp share.
#pragma once

#include <fuse_lowlevel.h>
#include <sys/stat.h>

#include <span>
#include <string>

#include "fs/generation.h"
#include "fs/server_state.h"

namespace anchorfs::fs {

// The server state of `req`, counted as one request.
ServerState& writable_state(fuse_req_t req);
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

// The handlers of names (mkdir, mknod, symlink, link, unlink, rmdir, rename) and of extended
// attributes; add_write_operations (server_state.h's users) sets them with the file handlers.
void add_name_operations(fuse_lowlevel_ops& ops);
void add_attribute_operations(fuse_lowlevel_ops& ops);

}  // namespace anchorfs::fs
