// rebase_snapshot(): carries tag layouts over to a fresh scan for files whose bytes are unchanged.
#include "fs/snapshot_rebase.h"

#include <sys/stat.h>

#include <string>
#include <utility>
#include <vector>

#include "fs/git_view.h"

namespace anchorfs::fs {

std::shared_ptr<const Snapshot> rebase_snapshot(const Snapshot& current, analysis::SourceTree fresh,
                                                std::span<const PathMove> moves) {
  // The view's `.git` is made again from the repository as it is now, like every refresh does.
  VirtualFiles git_files;
  if (current.git_view()) git_files = graft_git_view(fresh, *current.git_view());
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
  return std::make_shared<const Snapshot>(
      std::move(fresh), std::move(layouts), std::move(layout_of_entry),
      std::vector<std::shared_ptr<const FileTrace>>{}, std::move(git_files));
}

}  // namespace anchorfs::fs
