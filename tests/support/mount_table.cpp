// Parsing /proc/self/mountinfo: "id parent major:minor root point options [tags] - type source super".
#include "tests/support/mount_table.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace anchorfs::test_support {
namespace {

std::string unescape(const std::string& field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      out.push_back(static_cast<char>(std::stoi(field.substr(i + 1, 3), nullptr, 8)));
      i += 3;
    } else {
      out.push_back(field[i]);
    }
  }
  return out;
}

}  // namespace

std::vector<MountEntry> mount_table() {
  std::vector<MountEntry> entries;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<std::string> parts;
    std::string part;
    while (fields >> part) parts.push_back(part);
    size_t dash = 6;
    while (dash < parts.size() && parts[dash] != "-") ++dash;
    if (parts.size() < 5 || dash + 3 >= parts.size()) continue;
    entries.push_back({unescape(parts[4]), parts[dash + 1], unescape(parts[dash + 2]),
                       parts[dash + 3]});
  }
  return entries;
}

bool is_mounted(const std::string& path) {
  return !mount_fstype(path).empty();
}

std::string mount_fstype(const std::string& path) {
  std::string fstype;
  for (const MountEntry& entry : mount_table()) {
    if (entry.point == path) fstype = entry.fstype;  // the last one listed is on top
  }
  return fstype;
}

std::vector<std::string> mounts_below(const std::string& dir) {
  std::vector<std::string> points;
  for (const MountEntry& entry : mount_table()) {
    if (entry.point.rfind(dir + "/", 0) == 0) points.push_back(entry.point);
  }
  std::sort(points.begin(), points.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return points;
}

}  // namespace anchorfs::test_support
