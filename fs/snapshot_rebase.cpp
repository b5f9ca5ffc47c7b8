// rebase_snapshot() and patch_snapshot(): carry tag layouts over to a fresh scan for files whose
// bytes are unchanged.
#include "fs/snapshot_rebase.h"

#include <sys/stat.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/rescan_paths.h"
#include "fs/git_view.h"

namespace anchorfs::fs {
namespace {

// The layout `current` served for entry `was`, if `entry` (its file now) still has the bytes it
// was made for: the identity read() checks before splicing tags.
const std::shared_ptr<const FileLayout>* carried_layout(const Snapshot& current, uint32_t was,
                                                        const analysis::TreeEntry& entry) {
  if (!S_ISREG(entry.mode) || current.layout(was).empty()) return nullptr;
  const analysis::TreeEntry& old = current.entry(was);
  if (!S_ISREG(old.mode) || old.size != entry.size || old.mtime_ns != entry.mtime_ns ||
      old.inode != entry.inode) {
    return nullptr;
  }
  return &current.layout_ptr(was);
}

// What a change at `path` does to the view's `.git` that only a whole rescan rebuilds: a
// repository made or removed (a `.git` itself), an overlay replaced or made (index, config,
// info, info/attributes of any repository), anything in a `.git` the view builds as a directory
// of its own (a linked worktree's).
bool reaches_git_overlays(const Snapshot& current, std::string_view path) {
  if (const std::optional<uint32_t> index = current.find(path); index && current.content(*index)) {
    return true;
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (path.substr(start, slash - start) == ".git") {
      if (slash == path.size()) return true;
      const std::string_view rest = path.substr(slash + 1);
      if (rest == "index" || rest == "config" || rest == "info" || rest == "info/attributes") {
        return true;
      }
      if (start == 0) {
        struct stat st {};
        if (::lstat((current.root() + "/.git").c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
          return true;
        }
      }
    }
    start = slash + 1;
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
    if (!was) continue;
    if (const std::shared_ptr<const FileLayout>* layout = carried_layout(current, *was, entry)) {
      carried.emplace(entry.path, *layout);
    }
  }
  // The view's `.git` is made again from the repository as it is now, like every refresh does;
  // a tagged file whose new name no filter pattern covers (`mv a.py a.py.bak`) gets its own,
  // so git in the view still reads the checkout's bytes of it.
  VirtualFiles git_files;
  if (current.git_view()) {
    GitViewOptions options = *current.git_view();
    for (const analysis::TreeEntry& entry : fresh.entries) {
      if (carried.contains(entry.path) && !filter_covers(options, entry.path)) {
        options.filter_patterns.push_back("/" + entry.path);
      }
    }
    git_files = graft_git_view(fresh, options);
  }
  git_files.awaiting_analysis = true;
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

std::shared_ptr<const Snapshot> patch_snapshot(const Snapshot& current,
                                               std::span<const std::string> touched,
                                               std::span<const PathMove> moves,
                                               uint64_t skip_device,
                                               std::vector<uint32_t>& origin,
                                               std::vector<uint8_t>& copied) {
  std::vector<std::string> paths(touched.begin(), touched.end());
  for (const PathMove& move : moves) {
    const std::optional<uint32_t> from = current.find(move.from);
    if (from && S_ISDIR(current.entry(*from).mode)) return nullptr;
    paths.push_back(move.from);
    paths.push_back(move.to);
  }
  for (const std::string& path : paths) {
    if (reaches_git_overlays(current, path)) return nullptr;
  }
  std::optional<analysis::SourceTree> tree =
      analysis::rescan_paths(current.tree(), paths, {.skip_device = skip_device}, &origin, &copied);
  if (!tree) return nullptr;
  std::vector<std::shared_ptr<const FileLayout>> layouts{current.layout_ptr(0)};
  std::vector<uint32_t> layout_of_entry(tree->entries.size(), 0);
  VirtualFiles files;
  files.options = current.git_view();
  files.awaiting_analysis = true;
  for (uint32_t i = 0; i < tree->entries.size(); ++i) {
    const analysis::TreeEntry& entry = tree->entries[i];
    // What the entry was: the entry it was renamed from, else the one at its path.
    uint32_t was = origin[i];
    if (!moves.empty()) {
      const std::string before = path_before_moves(entry.path, moves);
      if (before != entry.path) was = current.find(before).value_or(analysis::kNoOrigin);
    }
    if (was == analysis::kNoOrigin) continue;
    // An overlay of the view's `.git` whose path no change touched: served as it was.
    if (const std::shared_ptr<const std::string>& bytes = current.content(was)) {
      files.files.emplace_back(entry.path, bytes);
      if (const std::string* worktree = current.git_index_worktree(was)) {
        files.git_indexes.push_back({entry.path, *worktree});
      }
      continue;
    }
    const std::shared_ptr<const FileLayout>* layout = carried_layout(current, was, entry);
    if (layout == nullptr) continue;
    // A tagged file under a name the view's filter does not cover: the whole rescan adds it.
    if (current.git_view() && current.entry(was).path != entry.path &&
        !filter_covers(*current.git_view(), entry.path)) {
      return nullptr;
    }
    layout_of_entry[i] = static_cast<uint32_t>(layouts.size());
    layouts.push_back(*layout);
  }
  try {
    return std::make_shared<const Snapshot>(
        std::move(*tree), std::move(layouts), std::move(layout_of_entry),
        std::vector<std::shared_ptr<const FileTrace>>{}, std::move(files));
  } catch (const std::invalid_argument&) {
    return nullptr;  // an overlay's checkout file changed under it (a link elsewhere): rebuild
  }
}

}  // namespace anchorfs::fs
