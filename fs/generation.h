// A snapshot paired with its inode numbers: an inode number names one unchanging file version.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/rescan_paths.h"
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
  // `origin`, when given, is for each entry of `snapshot` the entry of `previous`'s snapshot at
  // the same path, or analysis::kNoOrigin (what analysis::rescan_paths reports): it spares
  // looking every path up. `copied`, when given with `origin`, says which entries are their
  // origin's copied as they were (analysis::rescan_paths): those serving the same layout need no
  // comparing.
  Generation(std::shared_ptr<const Snapshot> snapshot, const Generation& previous,
             std::span<const PathMove> moves = {}, std::span<const uint32_t> origin = {},
             const std::vector<uint8_t>* copied = nullptr);

  const Snapshot& snapshot() const { return *snapshot_; }
  const std::shared_ptr<const Snapshot>& snapshot_ptr() const { return snapshot_; }
  uint64_t inode(uint32_t entry) const { return inode_of_entry_[entry]; }
  // The entry of the generation this one was made from whose inode number `entry` kept, if any
  // (kNoOrigin otherwise, and for a first generation).
  uint32_t kept_from(uint32_t entry) const {
    return kept_from_.empty() ? analysis::kNoOrigin : kept_from_[entry];
  }
  // The generation this one was made from (0 for a first one): see kept_from.
  uint64_t previous_serial() const { return previous_serial_; }
  uint64_t serial() const { return serial_; }
  // The entry an inode number names in this generation, if any.
  std::optional<uint32_t> entry(uint64_t inode) const;
  uint64_t next_inode() const { return next_inode_; }
  // The bytes of a file served from memory, or null: the snapshot's virtual files, except the git
  // indexes, which this generation serves with the stat data of its own inode numbers (translated
  // when first asked for: a writable mount makes a generation per change, and git reads few).
  const std::shared_ptr<const std::string>& content(uint32_t entry) const;
  // Whether this generation's git index may leave the size of a renumbered file out (see
  // served_git_index): right only until the kernel has dropped the files' old names. A generation
  // made from this one with the same snapshot then serves the full index.
  bool index_provisional() const { return index_provisional_; }

 private:
  void index_inodes();
  // The same for a generation made from `previous` (kept_from_ set).
  void index_inodes_after(const Generation& previous);
  void translate_git_index() const;

  std::shared_ptr<const Snapshot> snapshot_;
  std::vector<uint64_t> inode_of_entry_;
  std::vector<uint32_t> kept_from_;  // by entry: see kept_from()
  uint64_t serial_ = 0;              // unique per generation made in this process
  uint64_t previous_serial_ = 0;
  // (inode, entry) sorted by inode: memory follows the tree's size, not how many numbers a long
  // series of refreshes has handed out.
  std::vector<std::pair<uint64_t, uint32_t>> entry_of_inode_;
  uint64_t next_inode_ = 0;  // the first number never handed out
  // The snapshot's git indexes as this generation serves them (see fs/git_view.h), in the order
  // of Snapshot::git_indexes(), set once by translate_git_index() under git_index_once_.
  mutable std::once_flag git_index_once_;
  mutable std::vector<std::shared_ptr<const std::string>> git_indexes_;
  std::vector<bool> renumbered_;  // by entry, empty when none: see index_provisional()
  bool index_provisional_ = false;
};

// Two non-directory entries serve the same content: same source identity (size, mtime, ctime,
// source inode, symlink target, device number), the same tags and the same in-memory bytes. A
// git index never does: what it says depends on the inode numbers of its generation.
bool same_content(const Snapshot& a, uint32_t a_entry, const Snapshot& b, uint32_t b_entry);

// Whether the kernel's cached attributes of `a` still hold for `b` (access times aside).
bool same_attributes(const analysis::TreeEntry& a, const analysis::TreeEntry& b);

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

// `copied`, when given, is for each entry of `after` whether it is the entry of `before` it kept
// its number from, copied as it was (analysis::rescan_paths, a change without moves): its
// attributes need no comparing.
Invalidations diff_generations(const Generation& before, const Generation& after,
                               const std::vector<uint8_t>* copied = nullptr);

// Leaves out of `changed` what the kernel updates by itself once a request that changed
// directory `parent` succeeds (create, mkdir, mknod, symlink, link, unlink, rmdir): the
// directory's cached attributes, and for an unlink or rmdir the `removed` name. Sending those
// again costs a notification each, and a name dropped after a create of the same name (git
// removes a file, then creates it) costs the kernel the dentry that create made.
void leave_to_kernel(Invalidations& changed, uint64_t parent, std::string_view removed = {});

}  // namespace anchorfs::fs
