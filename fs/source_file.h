// Opening and reading files of the source tree safely: no symlink followed, nothing that blocks,
// and only the very version a snapshot recorded.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/source_tree.h"

namespace anchorfs::fs {

// Opens `path` (relative to the directory `root_fd`) read-only without following any symlink
// on the way (openat2 RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH where available, else O_NOFOLLOW on
// the last component), non-blocking (a FIFO swapped in since the scan cannot hang us), without
// touching atime where permitted. Paths longer than the kernel takes in one call are resolved
// directory by directory, so depth is limited only by the tree. Returns the fd, or -1 with errno
// set.
int open_source(int root_fd, const std::string& path);

// The errno a reader gets when opening a source failed with `error`: the causes a caller can act
// on keep their value (ENOENT, EACCES, EPERM, ENOTDIR, EMFILE, ENFILE, ENOMEM, ENAMETOOLONG);
// the rest (a symlink or a mount swapped in on the way: ELOOP, EXDEV, ...) are EIO.
int open_error_for_reader(int error);

// Opens `path` beneath `root_fd` with `flags` (and `mode` when creating) under the same rule:
// no symlink on the way, nothing outside the root ("" is the root itself). A trailing symlink
// is opened itself only with O_PATH|O_NOFOLLOW. Returns the fd, or -1 with errno set (ELOOP or
// EXDEV for a path that would leave the root).
int open_beneath(int root_fd, const std::string& path, int flags, mode_t mode = 0);

// Whether `st` (fstat of a source just opened) is the version `entry` recorded: same file (device,
// inode), type and permissions (mode, owner, group), size, mtime and ctime. ctime is what no user
// can set back, so a same-size rewrite with its mtime restored is caught too.
bool is_recorded_version(const struct stat& st, const analysis::TreeEntry& entry);

// Whether a descriptor that passed is_recorded_version still holds that version's bytes and
// permissions. As is_recorded_version, except that a ctime change is accepted once the file has
// no name left (a rename over it or an unlink changes ctime, not the bytes the descriptor reads).
bool still_recorded_version(const struct stat& st, const analysis::TreeEntry& entry);

// Reads up to `size` bytes at `offset`, retrying short reads; returns the bytes read (fewer only
// at end of file) or -1 with errno set.
ssize_t pread_fully(int fd, char* buffer, size_t size, uint64_t offset);

}  // namespace anchorfs::fs
