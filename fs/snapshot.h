// An immutable view of a repository for the FUSE server: entries, attributes, listings, tag
// layouts.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/source_tree.h"
#include "fs/file_layout.h"
#include "fs/file_trace.h"
#include "render/laid_out_plans.h"
#include "render/tag_plan.h"

namespace anchorfs::fs {

struct GitViewOptions;  // fs/git_view.h

// A git index served from memory, translated per generation, and the worktree its paths are
// relative to in the tree ("" for the top repository, "lib" for a submodule at lib/).
struct GitIndexFile {
  std::string path;
  std::string worktree;
};

// Regular files served from memory instead of the source tree: the overlays of the view's `.git`
// (see fs/git_view.h). Each path must name a regular entry of the tree whose size is the bytes'.
struct VirtualFiles {
  std::vector<std::pair<std::string, std::shared_ptr<const std::string>>> files;
  // The virtual files holding a git index (the top repository's, a nested one's or a
  // submodule's), each served translated per generation.
  std::vector<GitIndexFile> git_indexes;
  // How the `.git` was made, so a writable mount's rescans make it again (null: no view .git).
  std::shared_ptr<const GitViewOptions> options;
  // A writable mount's rescan the analysis has not caught up with: a file the filter covers and
  // this snapshot serves untagged may be re-tagged next (fs/git_view.h, served_git_index).
  bool awaiting_analysis = false;
};

// How requests serve an entry, decided once when the snapshot is built: open, read and getattr
// dispatch on it instead of working it out again from the mode, the layout and the overlays.
enum class Serving : uint8_t {
  Directory,
  Symlink,
  Special,   // FIFO, socket, device node: the kernel opens it itself; a read reaching us is EIO
  Checkout,  // a regular file served as the checkout holds it (untagged)
  LaidOut,   // a regular file served tagged: its bytes spliced with tag text (FileLayout)
  Memory,    // a regular file served from memory: a .git overlay (VirtualFiles)
};
Serving serving_of(const analysis::TreeEntry& entry, const FileLayout& layout, bool in_memory);

// Entry indices are those of the SourceTree: 0 is the root, every parent precedes its children,
// and a directory's children are contiguous and sorted bytewise by name.
// Thread-safety: immutable after construction; every member is safe to call concurrently.
class Snapshot {
 public:
  // `traces`: by entry, or empty when the mount is not traced.
  Snapshot(analysis::SourceTree tree, std::vector<FileLayout> layouts,
           std::vector<uint32_t> layout_of_entry,
           std::vector<std::shared_ptr<const FileTrace>> traces = {},
           VirtualFiles virtual_files = {});
  // The same with layouts shared with another snapshot (index 0 must be an empty layout).
  // `retire`: the tree's storage goes to fs/tree_recycling.h when the snapshot is destroyed (a
  // writable mount's per-change snapshots: the next one reuses it).
  enum class TreeStorage : uint8_t { Free, Retire };
  Snapshot(analysis::SourceTree tree, std::vector<std::shared_ptr<const FileLayout>> layouts,
           std::vector<uint32_t> layout_of_entry,
           std::vector<std::shared_ptr<const FileTrace>> traces = {},
           VirtualFiles virtual_files = {}, TreeStorage storage = TreeStorage::Free);
  ~Snapshot();
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

  const std::string& root() const { return tree_.root; }  // absolute source directory
  size_t size() const { return tree_.entries.size(); }
  const analysis::TreeEntry& entry(uint32_t index) const { return tree_.entries[index]; }
  const std::vector<analysis::ScanProblem>& problems() const { return tree_.problems; }
  const analysis::SourceTree& tree() const { return tree_; }

  // The last path component of an entry ("" for the root).
  std::string_view name(uint32_t index) const;
  // The child of directory `dir` called `name`, if any (binary search over the sorted children).
  std::optional<uint32_t> child(uint32_t dir, std::string_view name) const;
  // The entry at a repository-relative path ("" is the root), if any.
  std::optional<uint32_t> find(std::string_view path) const;

  // The tag layout of a regular file; an empty layout (no insertions) for everything else.
  const FileLayout& layout(uint32_t index) const { return *layout_ptr(index); }
  // The same layout, shareable beyond the snapshot's lifetime (an old inode keeps only its own).
  // Every distinct layout (index 0: the empty one).
  const std::vector<std::shared_ptr<const FileLayout>>& layouts() const { return layouts_; }
  const std::shared_ptr<const FileLayout>& layout_ptr(uint32_t index) const {
    return layouts_[layout_of_entry_[index]];
  }
  // How requests serve entry `index` (see Serving).
  Serving serving(uint32_t index) const { return serving_[index]; }
  // The bytes of a file served from memory (a .git overlay), or null for a source-tree file.
  const std::shared_ptr<const std::string>& content(uint32_t index) const {
    // (Asked for every entry of every swap: the map is searched only for the few in memory.)
    if (index >= serving_.size() || serving_[index] != Serving::Memory) return kNoContent;
    return contents_.find(index)->second;
  }
  // The virtual files holding a git index (translated per generation), by entry, with the
  // worktree their paths are relative to.
  struct ServedIndex {
    uint32_t entry = 0;
    std::string worktree;
  };
  const std::vector<ServedIndex>& git_indexes() const { return git_indexes_; }
  // The worktree of the git index at entry `index`, or null when `index` holds none.
  const std::string* git_index_worktree(uint32_t index) const;
  bool is_git_index(uint32_t index) const { return git_index_worktree(index) != nullptr; }
  // The options the view's `.git` was grafted with, or null.
  const std::shared_ptr<const GitViewOptions>& git_view() const { return git_view_; }
  // Whether this is a writable mount's rescan still to be analysed (VirtualFiles).
  bool awaiting_analysis() const { return awaiting_analysis_; }

  // What a reader sees as st_size: the original size plus the tag bytes for regular files.
  uint64_t view_size(uint32_t index) const;
  // Attributes as served (st_ino left 0: the server owns inode numbers).
  struct stat attributes(uint32_t index) const;

  // What a trace records about a regular file's served bytes; null when the file was not
  // analysed or the snapshot was built without plan maps.
  const FileTrace* trace(uint32_t index) const {
    return index < traces_.size() ? traces_[index].get() : nullptr;
  }
  // The same, shareable with another snapshot (null likewise).
  std::shared_ptr<const FileTrace> trace_ptr(uint32_t index) const {
    return index < traces_.size() ? traces_[index] : nullptr;
  }
  // Whether the snapshot was built with traces.
  bool traced() const { return !traces_.empty(); }

  // Total tag bytes and number of tagged files, for summaries.
  uint64_t tag_bytes() const { return tag_bytes_; }
  size_t tagged_files() const { return tagged_files_; }

 private:
  analysis::SourceTree tree_;
  std::vector<uint32_t> name_offset_;  // where each entry's last component starts in its path
  std::vector<std::shared_ptr<const FileLayout>> layouts_;  // [0]: the shared empty layout
  std::vector<uint32_t> layout_of_entry_;                   // index into layouts_, 0 when untagged
  std::vector<std::shared_ptr<const FileTrace>> traces_;    // by entry; empty when untraced
  static const std::shared_ptr<const std::string> kNoContent;
  std::unordered_map<uint32_t, std::shared_ptr<const std::string>> contents_;  // by entry
  std::vector<Serving> serving_;                                                 // by entry
  std::vector<ServedIndex> git_indexes_;
  std::shared_ptr<const GitViewOptions> git_view_;
  bool awaiting_analysis_ = false;
  TreeStorage storage_ = TreeStorage::Free;
  uint64_t tag_bytes_ = 0;
  size_t tagged_files_ = 0;
};

// What a reader sees as st_size for `entry` served with `layout`: original size plus tag bytes.
uint64_t view_size(const analysis::TreeEntry& entry, const FileLayout& layout);
// The attributes served for `entry` with `layout` (st_ino left 0: the server owns inode numbers).
struct stat served_attributes(const analysis::TreeEntry& entry, const FileLayout& layout);

// Builds a snapshot. `plans` maps repository-relative paths of regular files to their tag plans
// (files without a plan, or with an empty one, are served unchanged); `virtual_files` are served
// from memory. Throws std::invalid_argument with a clear message when a plan or a virtual file
// names no regular file of the tree (or a virtual file's size differs from its entry's), a plan is
// not sorted by offset, or inserts beyond the end of its file.
std::shared_ptr<const Snapshot> make_snapshot(
    analysis::SourceTree tree, std::vector<std::pair<std::string, render::TagPlan>> plans);

// The same, with what traces record per file: `maps` (sorted by path, from plan_maps_by_path
// with the same view as `plans`) become each file's FileTrace. Maps for paths that are not
// regular files of the tree are ignored (the tree may have changed since the analysis).
std::shared_ptr<const Snapshot> make_snapshot(
    analysis::SourceTree tree, std::vector<std::pair<std::string, render::TagPlan>> plans,
    const render::PlanMapsByPath& maps, VirtualFiles virtual_files = {});

// The same from plans already laid out (a stored view, render/laid_out_plans.h): every layout
// views `plans`' buffer, which the snapshot keeps alive; nothing is copied per insertion.
std::shared_ptr<const Snapshot> make_snapshot_from(
    analysis::SourceTree tree, const std::shared_ptr<const render::LaidOutPlans>& plans,
    const render::PlanMapsByPath& maps = {}, VirtualFiles virtual_files = {});

}  // namespace anchorfs::fs
