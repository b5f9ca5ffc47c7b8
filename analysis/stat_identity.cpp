// Stat identities, and which files are too young to be known by theirs.
#include "analysis/stat_identity.h"

#include <sys/stat.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace anchorfs::analysis {

StatIdentity stat_identity(const TreeEntry& entry) {
  return {entry.mode,  entry.size,   entry.mtime_ns, entry.ctime_ns,
          entry.inode, entry.device, entry.uid,      entry.gid};
}

bool racily_clean(const TreeEntry& entry, std::chrono::system_clock::time_point now) {
  const int64_t from =
      std::chrono::duration_cast<std::chrono::nanoseconds>((now - kRacyWindow).time_since_epoch())
          .count();
  return entry.mtime_ns >= from || entry.ctime_ns >= from;
}

std::vector<const TreeEntry*> regular_entries(const SourceTree& tree,
                                              const std::vector<SourceFile>& sources) {
  // Sources select_sources made from this very tree name their entry; a map of every path (a
  // tenth of a second on the kernel, and this runs up to three times a build) only otherwise.
  const auto named = [&](const SourceFile& source) {
    return source.entry < tree.entries.size() && tree.entries[source.entry].path == source.path;
  };
  std::unordered_map<std::string_view, const TreeEntry*> by_path;
  if (!std::all_of(sources.begin(), sources.end(), named)) {
    by_path.reserve(tree.entries.size());
    for (const TreeEntry& entry : tree.entries) by_path.emplace(entry.path, &entry);
  }
  std::vector<const TreeEntry*> entries;
  entries.reserve(sources.size());
  for (const SourceFile& source : sources) {
    const TreeEntry* entry = nullptr;
    if (named(source)) {
      entry = &tree.entries[source.entry];
    } else if (const auto it = by_path.find(source.path); it != by_path.end()) {
      entry = it->second;
    }
    entries.push_back(entry != nullptr && S_ISREG(entry->mode) ? entry : nullptr);
  }
  return entries;
}

}  // namespace anchorfs::analysis
