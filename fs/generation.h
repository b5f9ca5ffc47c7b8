// A snapshot paired with its inode numbers: an inode number names one unchanging file version.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "fs/snapshot.h"

namespace anchorfs::fs {

inline constexpr uint64_t kRootInode = 1;  // FUSE_ROOT_ID

// A rename the kernel performed through the mount: `from` (and everything below it) now lives at
// `to`. The kernel moved its own dentries, so the moved entries must keep their inode numbers.
struct PathMove {
  std::string from;
  std::string to;
};

// The path an entry at `path` had before `moves` (itself when no move covers it).
std::string path_before_moves(std::string_view path, std::span<const PathMove> moves);

// What one request serves from. Thread-safety: immutable after construction.
class Generation {
 public:
  // The first generation of a mount: entry i gets inode i + 1 (the root gets kRootInode).
  explicit Generation(std::shared_ptr<const Snapshot> snapshot);
  // The generation after `previous`. An entry keeps its inode number when `previous` had the
  // same path with the same file type and, unless it is a directory, the same served content
  // (same source identity and same tags); every other entry gets a fresh number above all numbers
  // used so far (never reused). So a number never stands for two different sizes or contents,
  // and the kernel's cached size and pages for it can never disagree with what is served.
  // An entry covered by `moves` is matched with the entry it was renamed from; a moved file keeps
  // its number when its bytes and tags are the same (its ctime, which a rename sets, aside).
  Generation(std::shared_ptr<const Snapshot> snapshot, const Generation& previous,
             std::span<const PathMove> moves = {});

  const Snapshot& snapshot() const { return *snapshot_; }
  const std::shared_ptr<const Snapshot>& snapshot_ptr() const { return snapshot_; }
  uint64_t inode(uint32_t entry) const { return inode_of_entry_[entry]; }
  // The entry an inode number names in this generation, if any.
  std::optional<uint32_t> entry(uint64_t inode) const;
  uint64_t next_inode() const { return next_inode_; }

 private:
  void index_inodes();

  std::shared_ptr<const Snapshot> snapshot_;
  std::vector<uint64_t> inode_of_entry_;
  // (inode, entry) sorted by inode: memory follows the tree's size, not how many numbers a long
  // series of refreshes has handed out.
  std::vector<std::pair<uint64_t, uint32_t>> entry_of_inode_;
  uint64_t next_inode_ = 0;  // the first number never handed out
};

// Two non-directory entries serve the same content: same source identity (size, mtime, ctime,
// source inode, symlink target, device number) and the same tags.
bool same_content(const Snapshot& a, uint32_t a_entry, const Snapshot& b, uint32_t b_entry);

// What the kernel must forget after a swap from `before` to `after`, and which inodes left.
struct Invalidations {
  // Directories whose listing changed (a name added or removed, or naming a new inode): drop
  // the cached listing and attributes. Files never appear here: changed files get new inodes.
  std::vector<uint64_t> contents;
  std::vector<uint64_t> attributes;  // inodes kept whose other attributes changed
  // (parent inode, name) for every name added, removed or now naming a new inode, under a
  // parent that `before` already had: drops the cached dentry or negative lookup. Sorted.
  std::vector<std::pair<uint64_t, std::string>> names;
  // (inode, entry in `before`) for every inode `before` had and `after` has not.
  std::vector<std::pair<uint64_t, uint32_t>> dropped;
};

Invalidations diff_generations(const Generation& before, const Generation& after);

}  // namespace anchorfs::fs
