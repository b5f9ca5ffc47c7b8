// /proc/self/mountinfo parsing (octal escapes, the optional-fields separator).
#include "cli/mountinfo.h"

#include <fstream>
#include <sstream>

namespace anchorfs::cli {
namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape(const std::string& field) {
  std::string out;
  out.reserve(field.size());
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      const char a = field[i + 1], b = field[i + 2], c = field[i + 3];
      if (a >= '0' && a <= '3' && b >= '0' && b <= '7' && c >= '0' && c <= '7') {
        out.push_back(static_cast<char>((a - '0') * 64 + (b - '0') * 8 + (c - '0')));
        i += 3;
        continue;
      }
    }
    out.push_back(field[i]);
  }
  return out;
}

}  // namespace

std::vector<MountEntry> parse_mountinfo(const std::string& text) {
  std::vector<MountEntry> mounts;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::vector<std::string> parts;
    std::string part;
    while (fields >> part) parts.push_back(part);
    // id parent major:minor root mount_point options [optional...] - fstype source super_options
    size_t dash = 6;
    while (dash < parts.size() && parts[dash] != "-") ++dash;
    if (dash + 1 >= parts.size()) continue;
    MountEntry entry;
    entry.device = parts[2];
    entry.mount_point = unescape(parts[4]);
    entry.fstype = unescape(parts[dash + 1]);
    if (dash + 2 < parts.size()) entry.source = unescape(parts[dash + 2]);
    if (dash + 3 < parts.size()) entry.super_options = unescape(parts[dash + 3]);
    mounts.push_back(std::move(entry));
  }
  return mounts;
}

std::vector<MountEntry> mount_table() {
  std::ifstream in("/proc/self/mountinfo");
  std::stringstream text;
  text << in.rdbuf();
  return parse_mountinfo(text.str());
}

std::optional<MountEntry> find_mount(const std::string& canonical_path) {
  std::optional<MountEntry> found;
  for (MountEntry& entry : mount_table()) {
    if (entry.mount_point == canonical_path) found = std::move(entry);
  }
  return found;
}

}  // namespace anchorfs::cli
