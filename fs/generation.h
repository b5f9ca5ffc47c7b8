// A snapshot paired with its inode numbers; numbers follow paths from one snapshot to the next.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fs/snapshot.h"

namespace anchorfs::fs {

inline constexpr uint64_t kRootInode = 1;  // FUSE_ROOT_ID

// What one request serves from. Thread-safety: immutable after construction.
class Generation {
 public:
  // The first generation of a mount: entry i gets inode i + 1 (the root gets kRootInode).
  explicit Generation(std::shared_ptr<const Snapshot> snapshot);
  // The generation after `previous`: a path present in both with the same file type keeps its
  // inode; every other entry gets a fresh number above all numbers used so far (never reused).
  Generation(std::shared_ptr<const Snapshot> snapshot, const Generation& previous);

  const Snapshot& snapshot() const { return *snapshot_; }
  const std::shared_ptr<const Snapshot>& snapshot_ptr() const { return snapshot_; }
  uint64_t inode(uint32_t entry) const { return inode_of_entry_[entry]; }
  // The entry an inode number names in this generation, if any.
  std::optional<uint32_t> entry(uint64_t inode) const;
  uint64_t next_inode() const { return next_inode_; }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  void index_inodes();

  std::shared_ptr<const Snapshot> snapshot_;
  std::vector<uint64_t> inode_of_entry_;
  std::vector<uint32_t> entry_of_inode_;  // by inode number; kAbsent for numbers not in use
  uint64_t next_inode_ = 0;               // the first number never handed out
};

// What the kernel must forget after a swap from `before` to `after`.
struct Invalidations {
  std::vector<uint64_t> contents;    // inodes whose bytes, size or listing changed (drop pages too)
  std::vector<uint64_t> attributes;  // inodes whose other attributes changed
  std::vector<std::pair<uint64_t, std::string>> names;  // (parent inode, name) added or removed
};

Invalidations diff_generations(const Generation& before, const Generation& after);

}  // namespace anchorfs::fs
