// Whether the process behind a FUSE request may use a file as it is now: the check the kernel
// made against the attributes it was told, made again against the file a request actually reaches.
#pragma once

#include <fuse_lowlevel.h>
#include <sys/stat.h>

namespace anchorfs::fs {

// The kernel's rule for `want` (R_OK, W_OK, a mix) on a file with attributes `st`, for the
// caller of `req`: uid 0 may read and write anything; else the owner bits for the owner, the
// group bits for a member of the file's group (primary or supplementary), the other bits for
// everyone else. Returns 0 or EACCES.
int caller_may(fuse_req_t req, const struct stat& st, int want);

// Whether the caller of `req` owns the file with attributes `st` (or is uid 0): what chmod,
// chown to oneself and setting explicit times ask. Returns 0 or EPERM.
int caller_owns(fuse_req_t req, const struct stat& st);

// The access an open(2) flag set asks for: R_OK, W_OK or both (O_TRUNC asks for writing).
int access_for_open(int flags);

}  // namespace anchorfs::fs
