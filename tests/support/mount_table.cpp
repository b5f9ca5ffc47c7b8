// Mount-table questions for tests, over the CLI's mountinfo parser.
#include "tests/support/mount_table.h"

#include <algorithm>
#include <optional>

namespace anchorfs::test_support {

bool is_mounted(const std::string& path) {
  return cli::find_mount(path).has_value();
}

std::string mount_fstype(const std::string& path) {
  const std::optional<MountEntry> mounted = cli::find_mount(path);
  return mounted ? mounted->fstype : std::string();
}

std::vector<std::string> mounts_below(const std::string& dir) {
  std::vector<std::string> points;
  for (const MountEntry& entry : mount_table()) {
    if (entry.mount_point.rfind(dir + "/", 0) == 0) points.push_back(entry.mount_point);
  }
  std::sort(points.begin(), points.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return points;
}

}  // namespace anchorfs::test_support
