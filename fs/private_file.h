// Files anchorfs writes for its user (the trace, the daemon's log): never through a symlink,
// never into a file another user owns or links to, readable by their owner only.
#pragma once

#include <string>

namespace anchorfs::fs {

enum class PrivateOpen { Append, Truncate };

struct PrivateFile {
  int fd = -1;          // open for writing (O_APPEND with PrivateOpen::Append), close-on-exec
  std::string problem;  // why it was refused, when fd < 0
};

// Opens `path` for writing, creating it with mode 0600 (O_EXCL first; never following a symlink
// at the last component, O_NOFOLLOW). A file already there is used only when it is a regular file
// owned by this process's user with no other hard link; it is then made 0600 and, for Truncate,
// emptied (after the checks, so a refused file is never cut).
PrivateFile open_private_file(const std::string& path, PrivateOpen how);

}  // namespace anchorfs::fs
