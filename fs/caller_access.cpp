// Permission checks against a file's live attributes, for the caller of a FUSE request.
#include "fs/caller_access.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

namespace anchorfs::fs {
namespace {

// Whether `gid` is one of the caller's supplementary groups (read from /proc by libfuse: only
// asked when the owner and primary group did not decide).
bool in_supplementary_groups(fuse_req_t req, gid_t gid) {
  std::vector<gid_t> groups(64);
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int n = fuse_req_getgroups(req, static_cast<int>(groups.size()), groups.data());
    if (n < 0) return false;  // unknown: the narrower answer (other bits) stands
    if (static_cast<size_t>(n) <= groups.size()) {
      return std::find(groups.begin(), groups.begin() + n, gid) != groups.begin() + n;
    }
    groups.resize(static_cast<size_t>(n));
  }
  return false;
}

}  // namespace

int caller_may(fuse_req_t req, const struct stat& st, int want) {
  const fuse_ctx* caller = fuse_req_ctx(req);
  if (caller->uid == 0) return 0;
  mode_t bits = 0;
  if (caller->uid == st.st_uid) {
    bits = (st.st_mode >> 6) & 07;
  } else if (caller->gid == st.st_gid || (((st.st_mode >> 3) & 07) != (st.st_mode & 07) &&
                                          in_supplementary_groups(req, st.st_gid))) {
    bits = (st.st_mode >> 3) & 07;
  } else {
    bits = st.st_mode & 07;
  }
  const mode_t needed = ((want & R_OK) != 0 ? 04 : 0) | ((want & W_OK) != 0 ? 02 : 0);
  return (bits & needed) == needed ? 0 : EACCES;
}

int caller_owns(fuse_req_t req, const struct stat& st) {
  const fuse_ctx* caller = fuse_req_ctx(req);
  return caller->uid == 0 || caller->uid == st.st_uid ? 0 : EPERM;
}

int access_for_open(int flags) {
  int want = 0;
  const int mode = flags & O_ACCMODE;
  if (mode == O_RDONLY || mode == O_RDWR) want |= R_OK;
  if (mode == O_WRONLY || mode == O_RDWR || (flags & O_TRUNC) != 0) want |= W_OK;
  return want;
}

}  // namespace anchorfs::fs
