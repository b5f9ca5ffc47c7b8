// Counting every separator-aligned suffix once per distinct name, then taking the shortest unique.
#include "render/short_names.h"

#include <algorithm>
#include <unordered_map>

namespace anchorfs::render {

namespace {

// Calls `visit(start)` for every start of a non-empty suffix that begins the name or follows a
// separator, shortest suffix first.
template <typename Visit>
void for_each_suffix(std::string_view name, char separator, Visit visit) {
  for (size_t end = name.size(); end > 0; --end) {
    if (name[end - 1] == separator && end < name.size()) {
      if (visit(static_cast<uint32_t>(end))) return;
    }
  }
  if (!name.empty()) visit(0);
}

}  // namespace

std::vector<uint32_t> unique_suffix_starts(std::span<const std::string_view> names,
                                           char separator) {
  std::vector<std::string_view> distinct(names.begin(), names.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::unordered_map<std::string_view, uint32_t> sharers;
  sharers.reserve(distinct.size() * 2);
  for (std::string_view name : distinct) {
    for_each_suffix(name, separator, [&](uint32_t start) {
      ++sharers[name.substr(start)];
      return false;
    });
  }
  std::vector<uint32_t> starts(names.size(), 0);
  for (size_t i = 0; i < names.size(); ++i) {
    for_each_suffix(names[i], separator, [&](uint32_t start) {
      if (sharers[names[i].substr(start)] != 1) return false;
      starts[i] = start;
      return true;
    });
  }
  return starts;
}

}  // namespace anchorfs::render
