// The mount table as /proc/self/mountinfo lists it, for tests that check and clean up mounts.
#pragma once

#include <string>
#include <vector>

namespace anchorfs::test_support {

struct MountEntry {
  std::string point;          // unescaped (mountinfo writes space, tab, newline, \ as octal)
  std::string fstype;         // "fuse.anchorfs", "ext4", ...
  std::string source;         // the mount source ("fsname")
  std::string super_options;  // "ro,user_id=0,..."
};

std::vector<MountEntry> mount_table();

// Whether something is mounted exactly at `path`.
bool is_mounted(const std::string& path);
// The filesystem type mounted at `path` ("" when nothing is).
std::string mount_fstype(const std::string& path);
// Mount points strictly below `dir`, deepest first (the order to detach them in).
std::vector<std::string> mounts_below(const std::string& dir);

}  // namespace anchorfs::test_support
