// Everything `anchorfs mount` verifies before it forks, so failures are one clear line.
#pragma once

#include <string>

namespace anchorfs::cli {

struct CheckedMountPaths {
  std::string repo;        // canonical
  std::string mountpoint;  // canonical
};

// Throws CliError for: REPO missing or not a directory; MOUNTPOINT missing, not a directory,
// not empty, already a mount, or a dead FUSE mount; one inside the other; no usable /dev/fuse.
CheckedMountPaths check_mount_paths(const std::string& repo, const std::string& mountpoint);

// Whether the FUSE mount at `mountpoint` lost its daemon (answers ENOTCONN).
bool fuse_mount_is_dead(const std::string& mountpoint);

// The first executable `program` in $PATH; "" when there is none.
std::string find_on_path(const char* program);

// What the daemon writes (--trace FILE, --log FILE, the --cache-dir root) must lie outside REPO
// and MOUNTPOINT (`path` resolved through symlinks): inside REPO each write would trigger a refresh
// that writes again; inside MOUNTPOINT it would be written through the mount itself. Throws
// CliError naming `option` and the directory it falls in.
void check_outside_mount(const std::string& option, const std::string& path,
                         const CheckedMountPaths& paths);

// REPO exists and is a directory; returns its canonical path.
std::string check_repo(const std::string& repo);

}  // namespace anchorfs::cli
