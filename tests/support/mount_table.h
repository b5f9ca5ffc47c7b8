// Questions tests ask of the mount table (parsed by cli/mountinfo.h, the CLI's own parser).
#pragma once

#include <string>
#include <vector>

#include "cli/mountinfo.h"

namespace anchorfs::test_support {

using cli::mount_table;
using cli::MountEntry;

// Whether something is mounted exactly at `path`.
bool is_mounted(const std::string& path);
// The filesystem type mounted at `path` ("" when nothing is).
std::string mount_fstype(const std::string& path);
// Mount points strictly below `dir`, deepest first (the order to detach them in).
std::vector<std::string> mounts_below(const std::string& dir);

}  // namespace anchorfs::test_support
