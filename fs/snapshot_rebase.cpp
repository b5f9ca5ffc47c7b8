// rebase_snapshot(): carries tag layouts over to a fresh scan for files whose bytes are unchanged.
#include "fs/snapshot_rebase.h"

#include <sys/stat.h>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fs/git_view.h"

namespace anchorfs::fs {
namespace {

// `path` matches one of the view's filter patterns ("*.ext" or "/exact/path").
bool filtered(const std::vector<std::string>& patterns, const std::string& path) {
  const std::string_view base = std::string_view(path).substr(path.rfind('/') + 1);
  for (const std::string& pattern : patterns) {
    if (pattern.starts_with("/") ? pattern.substr(1) == path
                                 : pattern.starts_with("*") && base.ends_with(pattern.substr(1))) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::shared_ptr<const Snapshot> rebase_snapshot(const Snapshot& current, analysis::SourceTree fresh,
                                                std::span<const PathMove> moves) {
  // The layouts carried over, by path: grafting the view's `.git` below may add entries (a
  // missing info/attributes, a nested repository's overlays), which moves entry indices.
  std::unordered_map<std::string, std::shared_ptr<const FileLayout>> carried;
  for (const analysis::TreeEntry& entry : fresh.entries) {
    if (!S_ISREG(entry.mode)) continue;
    const std::optional<uint32_t> was = current.find(path_before_moves(entry.path, moves));
    if (!was || current.layout(*was).empty()) continue;
    const analysis::TreeEntry& old = current.entry(*was);
    // The identity read() checks before splicing tags: the bytes the layout was made for.
    if (!S_ISREG(old.mode) || old.size != entry.size || old.mtime_ns != entry.mtime_ns ||
        old.inode != entry.inode) {
      continue;
    }
    carried.emplace(entry.path, current.layout_ptr(*was));
  }
  // The view's `.git` is made again from the repository as it is now, like every refresh does;
  // a tagged file whose new name no filter pattern covers (`mv a.py a.py.bak`) gets its own,
  // so git in the view still reads the checkout's bytes of it.
  VirtualFiles git_files;
  if (current.git_view()) {
    GitViewOptions options = *current.git_view();
    for (const analysis::TreeEntry& entry : fresh.entries) {
      if (carried.contains(entry.path) && !filtered(options.filter_patterns, entry.path)) {
        options.filter_patterns.push_back("/" + entry.path);
      }
    }
    git_files = graft_git_view(fresh, options);
  }
  std::vector<std::shared_ptr<const FileLayout>> layouts{current.layout_ptr(0)};
  std::vector<uint32_t> layout_of_entry(fresh.entries.size(), 0);
  for (uint32_t i = 0; i < fresh.entries.size(); ++i) {
    const analysis::TreeEntry& entry = fresh.entries[i];
    auto found = S_ISREG(entry.mode) ? carried.find(entry.path) : carried.end();
    if (found == carried.end()) continue;
    layout_of_entry[i] = static_cast<uint32_t>(layouts.size());
    layouts.push_back(std::move(found->second));
    carried.erase(found);
  }
  return std::make_shared<const Snapshot>(
      std::move(fresh), std::move(layouts), std::move(layout_of_entry),
      std::vector<std::shared_ptr<const FileTrace>>{}, std::move(git_files));
}

}  // namespace anchorfs::fs
