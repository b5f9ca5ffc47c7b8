// Stat identities, and which files are too young to be known by theirs.
#include "analysis/stat_identity.h"

#include <sys/stat.h>

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
  std::unordered_map<std::string_view, const TreeEntry*> by_path;
  by_path.reserve(tree.entries.size());
  for (const TreeEntry& entry : tree.entries) by_path.emplace(entry.path, &entry);
  std::vector<const TreeEntry*> entries;
  entries.reserve(sources.size());
  for (const SourceFile& source : sources) {
    const auto it = by_path.find(source.path);
    entries.push_back(it != by_path.end() && S_ISREG(it->second->mode) ? it->second : nullptr);
  }
  return entries;
}

}  // namespace anchorfs::analysis
