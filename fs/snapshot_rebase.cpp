// rebase_snapshot() and patch_snapshot(): carry tag layouts over to a fresh scan for files whose
// bytes are unchanged.
#include "fs/snapshot_rebase.h"

#include <sys/stat.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/rescan_paths.h"
#include "fs/git_view.h"
#include "fs/tree_recycling.h"

namespace anchorfs::fs {
namespace {

// Whether regular file `entry` still has the bytes `old` recorded: same size, mtime and source
// inode.
bool same_source_bytes(const analysis::TreeEntry& old, const analysis::TreeEntry& entry) {
  return S_ISREG(entry.mode) && S_ISREG(old.mode) && old.size == entry.size &&
         old.mtime_ns == entry.mtime_ns && old.inode == entry.inode;
}

// The layout `current` served for entry `was`, if `entry` (its file now) still has the bytes it
// was made for: the identity read() checks before splicing tags.
const std::shared_ptr<const FileLayout>* carried_layout(const Snapshot& current, uint32_t was,
                                                        const analysis::TreeEntry& entry) {
  if (current.layout(was).empty() || !same_source_bytes(current.entry(was), entry)) return nullptr;
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

// Whether the analysis reads the same from `a` and `b`: the same kind of entry, owner and mode,
// and for a file the same bytes by the identity read() checks (size, mtime, inode). A change of
// ctime alone (a user xattr, a link made elsewhere) changes nothing it could tag differently.
bool same_for_analysis(const analysis::TreeEntry& a, const analysis::TreeEntry& b) {
  return a.mode == b.mode && a.uid == b.uid && a.gid == b.gid && a.size == b.size &&
         a.mtime_ns == b.mtime_ns && a.inode == b.inode && a.device == b.device &&
         a.rdev == b.rdev && a.symlink_target == b.symlink_target;
}

// The entry of `tree` at `path`, if any (children are sorted by name, as in Snapshot::find).
const analysis::TreeEntry* find_in(const analysis::SourceTree& tree, std::string_view path) {
  uint32_t at = 0;
  size_t start = 0;
  while (start < path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    const analysis::TreeEntry& dir = tree.entries[at];
    const auto first = tree.entries.begin() + dir.first_child;
    const auto last = first + dir.child_count;
    const std::string_view wanted = path.substr(0, slash);
    const auto found = std::lower_bound(first, last, wanted,
                                        [](const analysis::TreeEntry& e, std::string_view p) {
                                          return e.path < p;
                                        });
    if (found == last || found->path != wanted) return nullptr;
    at = static_cast<uint32_t>(found - tree.entries.begin());
    start = slash + 1;
  }
  return &tree.entries[at];
}

// Whether the analysis could tag `fresh` otherwise than it tagged `current`, judged at `paths`
// (all others the same in both): one outside every repository's own files was made, removed or
// changed. Git's own writes (`index.lock`, objects, refs) are not: a snapshot they make serves the
// tags of the last analysis, which are still right, and is not "awaiting analysis" (whose index
// serves untagged files sizeless, which git's forced checkout takes for changed files and
// replaces: fuzz seed 129).
bool reaches_analysis(const Snapshot& current, const analysis::SourceTree& fresh,
                      std::span<const std::string> paths) {
  if (current.awaiting_analysis()) return true;
  for (const std::string& path : paths) {
    if (inside_git_dir(path)) continue;
    const std::optional<uint32_t> was = current.find(path);
    const analysis::TreeEntry* now = find_in(fresh, path);
    if (was.has_value() != (now != nullptr)) return true;
    if (now != nullptr && !same_for_analysis(current.entry(*was), *now)) return true;
  }
  return false;
}

// How many entries of `current` lie outside the repositories' own files.
size_t outside_git_files(const Snapshot& current) {
  size_t count = 0;
  for (uint32_t i = 0; i < current.size(); ++i) count += !inside_git_dir(current.entry(i).path);
  return count;
}

}  // namespace

std::shared_ptr<const Snapshot> rebase_snapshot(const Snapshot& current, analysis::SourceTree fresh,
                                                std::span<const PathMove> moves) {
  // The layouts carried over, by path: grafting the view's `.git` below may add entries (a
  // missing info/attributes, a nested repository's overlays), which moves entry indices.
  std::unordered_map<std::string, std::shared_ptr<const FileLayout>> carried;
  // Whether the analysis could tag this tree otherwise (see reaches_analysis): every entry
  // outside the repositories' own files compared with the one `current` had at its path.
  bool awaiting_analysis = current.awaiting_analysis();
  size_t outside_git = 0;
  for (const analysis::TreeEntry& entry : fresh.entries) {
    const std::string before = path_before_moves(entry.path, moves);
    const std::optional<uint32_t> was = current.find(before);
    if (!inside_git_dir(entry.path)) {
      ++outside_git;
      awaiting_analysis = awaiting_analysis || !was || before != entry.path ||
                          !same_for_analysis(current.entry(*was), entry);
    }
    if (!S_ISREG(entry.mode) || !was) continue;
    if (const std::shared_ptr<const FileLayout>* layout = carried_layout(current, *was, entry)) {
      carried.emplace(entry.path, *layout);
    }
  }
  awaiting_analysis = awaiting_analysis || outside_git != outside_git_files(current);
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
  git_files.awaiting_analysis = awaiting_analysis;
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
                                               std::vector<uint8_t>& copied,
                                               TagsCarriedIf carry_if, int root_fd) {
  std::vector<std::string> paths(touched.begin(), touched.end());
  std::unordered_set<std::string_view> same_version_only;
  if (carry_if == TagsCarriedIf::SameVersion) {
    same_version_only.insert(touched.begin(), touched.end());
  }
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
      analysis::rescan_paths(current.tree(), paths, {.skip_device = skip_device}, &origin, &copied,
                             take_retired_entries(), root_fd);
  if (!tree) return nullptr;
  std::vector<std::shared_ptr<const FileLayout>> layouts{current.layout_ptr(0)};
  std::vector<uint32_t> layout_of_entry(tree->entries.size(), 0);
  VirtualFiles files;
  files.options = current.git_view();
  files.awaiting_analysis = reaches_analysis(current, *tree, paths);
  // A traced mount keeps what its traces record about the files it still serves as they were.
  std::vector<std::shared_ptr<const FileTrace>> traces(current.traced() ? tree->entries.size() : 0);
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
    // (Empty for a change made through the mount: no hashing of every path of every swap.)
    if (!same_version_only.empty() && same_version_only.contains(entry.path) &&
        current.entry(was).ctime_ns != entry.ctime_ns) {
      continue;
    }
    // What the trace says of a file's served bytes holds while they are the same bytes.
    if (!traces.empty() && same_source_bytes(current.entry(was), entry)) {
      traces[i] = current.trace_ptr(was);
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
        std::move(*tree), std::move(layouts), std::move(layout_of_entry), std::move(traces),
        std::move(files), Snapshot::TreeStorage::Retire);
  } catch (const std::invalid_argument&) {
    return nullptr;  // an overlay's checkout file changed under it (a link elsewhere): rebuild
  }
}

}  // namespace anchorfs::fs
