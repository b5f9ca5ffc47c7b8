// Opening a path inside a directory without following symlinks, whatever the path's length.
#pragma once

#include <sys/types.h>

#include <string>

namespace anchorfs::analysis {

// Opens `path` (relative; "" or "." is `dir_fd` itself) beneath the directory `dir_fd` with
// `flags`, following no symlink on the way and never leaving `dir_fd` (openat2 with
// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS where the kernel has it, else openat with O_NOFOLLOW on
// the last component). A path too long for one system call is resolved a run of directories at a
// time, so depth is limited only by the tree. `mode` is for O_CREAT and O_TMPFILE. Returns the fd,
// or -1 with errno set (EPERM when `flags` has O_NOATIME and the caller may not use it; ELOOP or
// EXDEV for a path that would leave `dir_fd`).
int open_beneath(int dir_fd, const std::string& path, int flags, mode_t mode = 0);

}  // namespace anchorfs::analysis
