// The mount table as /proc/self/mountinfo lists it: the one parser the CLI and the tests share.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace anchorfs::cli {

struct MountEntry {
  std::string mount_point;    // unescaped absolute path
  std::string fstype;         // e.g. "fuse.anchorfs", "ext4"
  std::string source;         // the mount source (for anchorfs: the repository)
  std::string device;         // "major:minor" of its filesystem (st_dev)
  std::string super_options;  // per-superblock options, e.g. "ro,user_id=0,group_id=0"
};

// Parses mountinfo text (the format of proc(5)); lines that do not parse are skipped.
std::vector<MountEntry> parse_mountinfo(const std::string& text);

// This process's mount table, in the kernel's order (a mount listed later is on top).
std::vector<MountEntry> mount_table();

// The topmost mount whose mount point is exactly `canonical_path`, if any.
std::optional<MountEntry> find_mount(const std::string& canonical_path);

inline constexpr const char* kAnchorfsFsType = "fuse.anchorfs";

}  // namespace anchorfs::cli
