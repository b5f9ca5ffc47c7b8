// rebase_snapshot(): carries tag layouts over to a fresh scan for files whose bytes are unchanged.
#include "fs/snapshot_rebase.h"

#include <sys/stat.h>

#include <string>
#include <utility>
#include <vector>

namespace anchorfs::fs {

std::shared_ptr<const Snapshot> rebase_snapshot(const Snapshot& current, analysis::SourceTree fresh,
                                                std::span<const PathMove> moves) {
  std::vector<std::shared_ptr<const FileLayout>> layouts{current.layout_ptr(0)};
  std::vector<uint32_t> layout_of_entry(fresh.entries.size(), 0);
  for (uint32_t i = 0; i < fresh.entries.size(); ++i) {
    const analysis::TreeEntry& entry = fresh.entries[i];
    if (!S_ISREG(entry.mode)) continue;
    const std::optional<uint32_t> was = current.find(path_before_moves(entry.path, moves));
    if (!was || current.layout(*was).empty()) continue;
    const analysis::TreeEntry& old = current.entry(*was);
    // The identity read() checks before splicing tags: the bytes the layout was made for.
    if (!S_ISREG(old.mode) || old.size != entry.size || old.mtime_ns != entry.mtime_ns ||
        old.inode != entry.inode) {
      continue;
    }
    layout_of_entry[i] = static_cast<uint32_t>(layouts.size());
    layouts.push_back(current.layout_ptr(*was));
  }
  return std::make_shared<const Snapshot>(std::move(fresh), std::move(layouts),
                                          std::move(layout_of_entry));
}

}  // namespace anchorfs::fs
