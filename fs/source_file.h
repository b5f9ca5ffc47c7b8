// Opening and reading files of the source tree safely: no symlink followed, nothing that blocks.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace anchorfs::fs {

// Opens `path` (relative to the directory `root_fd`) read-only without following any symlink
// on the way (openat2 RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH where available, else O_NOFOLLOW on
// the last component), non-blocking (a FIFO swapped in since the scan cannot hang us), without
// touching atime where permitted. Returns the fd, or -1 with errno set.
int open_source(int root_fd, const std::string& path);

// Opens `path` beneath `root_fd` with `flags` (and `mode` when creating) under the same rule:
// no symlink on the way, nothing outside the root ("" is the root itself). A trailing symlink
// is opened itself only with O_PATH|O_NOFOLLOW. Returns the fd, or -1 with errno set (ELOOP or
// EXDEV for a path that would leave the root).
int open_beneath(int root_fd, const std::string& path, int flags, mode_t mode = 0);

// Reads up to `size` bytes at `offset`, retrying short reads; returns the bytes read (fewer only
// at end of file) or -1 with errno set.
ssize_t pread_fully(int fd, char* buffer, size_t size, uint64_t offset);

}  // namespace anchorfs::fs
