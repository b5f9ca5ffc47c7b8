// Inode numbering across snapshots and the kernel-cache diff between two generations.
#include "fs/generation.h"

#include <sys/stat.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace anchorfs::fs {

std::string path_before_moves(std::string_view path, std::span<const PathMove> moves) {
  for (const PathMove& move : moves) {
    if (path == move.to) return move.from;
    if (path.size() > move.to.size() && path.starts_with(move.to) && path[move.to.size()] == '/') {
      return move.from + std::string(path.substr(move.to.size()));
    }
  }
  return std::string(path);
}

namespace {

bool same_version(const Snapshot& a, uint32_t a_entry, const Snapshot& b, uint32_t b_entry,
                  bool compare_ctime) {
  const analysis::TreeEntry& x = a.entry(a_entry);
  const analysis::TreeEntry& y = b.entry(b_entry);
  if ((x.mode & S_IFMT) != (y.mode & S_IFMT) || x.size != y.size || x.mtime_ns != y.mtime_ns ||
      (compare_ctime && x.ctime_ns != y.ctime_ns) || x.inode != y.inode || x.rdev != y.rdev ||
      x.symlink_target != y.symlink_target) {
    return false;
  }
  const std::shared_ptr<const FileLayout>& x_layout = a.layout_ptr(a_entry);
  const std::shared_ptr<const FileLayout>& y_layout = b.layout_ptr(b_entry);
  return x_layout == y_layout || *x_layout == *y_layout;
}

}  // namespace

bool same_content(const Snapshot& a, uint32_t a_entry, const Snapshot& b, uint32_t b_entry) {
  return same_version(a, a_entry, b, b_entry, true);
}

Generation::Generation(std::shared_ptr<const Snapshot> snapshot) : snapshot_(std::move(snapshot)) {
  inode_of_entry_.resize(snapshot_->size());
  for (uint32_t i = 0; i < snapshot_->size(); ++i) inode_of_entry_[i] = kRootInode + i;
  next_inode_ = kRootInode + snapshot_->size();
  index_inodes();
}

Generation::Generation(std::shared_ptr<const Snapshot> snapshot, const Generation& previous,
                       std::span<const PathMove> moves)
    : snapshot_(std::move(snapshot)), next_inode_(previous.next_inode_) {
  const Snapshot& old = previous.snapshot();
  std::unordered_map<std::string_view, uint32_t> old_entry_of_path;
  old_entry_of_path.reserve(old.size());
  for (uint32_t i = 0; i < old.size(); ++i) old_entry_of_path.emplace(old.entry(i).path, i);

  inode_of_entry_.resize(snapshot_->size());
  for (uint32_t i = 0; i < snapshot_->size(); ++i) {
    const analysis::TreeEntry& entry = snapshot_->entry(i);
    const std::string before = moves.empty() ? std::string() : path_before_moves(entry.path, moves);
    const bool moved = !moves.empty() && before != entry.path;
    auto found = old_entry_of_path.find(moved ? std::string_view(before) : entry.path);
    bool keep = false;
    if (found != old_entry_of_path.end()) {
      const analysis::TreeEntry& was = old.entry(found->second);
      keep = S_ISDIR(entry.mode) ? S_ISDIR(was.mode)
                                 : same_version(old, found->second, *snapshot_, i, !moved);
    }
    inode_of_entry_[i] = keep ? previous.inode(found->second) : next_inode_++;
  }
  inode_of_entry_[0] = kRootInode;
  index_inodes();
}

void Generation::index_inodes() {
  entry_of_inode_.clear();
  entry_of_inode_.reserve(inode_of_entry_.size());
  for (uint32_t i = 0; i < inode_of_entry_.size(); ++i) {
    entry_of_inode_.emplace_back(inode_of_entry_[i], i);
  }
  std::sort(entry_of_inode_.begin(), entry_of_inode_.end());
}

std::optional<uint32_t> Generation::entry(uint64_t inode) const {
  auto found = std::lower_bound(entry_of_inode_.begin(), entry_of_inode_.end(),
                                std::make_pair(inode, uint32_t{0}));
  if (found == entry_of_inode_.end() || found->first != inode) return std::nullopt;
  return found->second;
}

namespace {

// Access times are left out: scanning a directory moves its atime, and pushing that to the
// kernel after every refresh would cost more than a slightly old atime ever could.
bool same_attributes(const analysis::TreeEntry& a, const analysis::TreeEntry& b) {
  return a.mode == b.mode && a.uid == b.uid && a.gid == b.gid && a.nlink == b.nlink &&
         a.mtime_ns == b.mtime_ns && a.ctime_ns == b.ctime_ns && a.rdev == b.rdev;
}

// Same names naming the same inodes (the kernel's cached listing holds both).
bool same_children(const Generation& before, uint32_t old_dir, const Generation& after,
                   uint32_t new_dir) {
  const analysis::TreeEntry& a = before.snapshot().entry(old_dir);
  const analysis::TreeEntry& b = after.snapshot().entry(new_dir);
  if (a.child_count != b.child_count) return false;
  for (uint32_t k = 0; k < a.child_count; ++k) {
    if (before.inode(a.first_child + k) != after.inode(b.first_child + k)) return false;
  }
  return true;
}

uint32_t parent_of(const analysis::TreeEntry& entry) {
  return entry.parent == analysis::kNoParent ? 0 : entry.parent;
}

}  // namespace

Invalidations diff_generations(const Generation& before, const Generation& after) {
  Invalidations out;
  const Snapshot& old = before.snapshot();
  const Snapshot& next = after.snapshot();
  for (uint32_t i = 0; i < next.size(); ++i) {
    const uint64_t inode = after.inode(i);
    const analysis::TreeEntry& entry = next.entry(i);
    std::optional<uint32_t> was = before.entry(inode);
    if (!was) {
      // A new name, or an old name for a new file: drop the kernel's dentry or negative lookup
      // (the kernel only has one if it has the parent).
      const uint64_t parent = after.inode(parent_of(entry));
      if (i != 0 && before.entry(parent)) {
        out.names.emplace_back(parent, std::string(next.name(i)));
      }
      continue;
    }
    const analysis::TreeEntry& previous = old.entry(*was);
    if (S_ISDIR(entry.mode) && !same_children(before, *was, after, i)) {
      out.contents.push_back(inode);
    } else if (!same_attributes(previous, entry)) {
      out.attributes.push_back(inode);
    }
  }
  for (uint32_t i = 0; i < old.size(); ++i) {
    const uint64_t inode = before.inode(i);
    if (after.entry(inode)) continue;
    out.dropped.emplace_back(inode, i);
    const uint64_t parent = before.inode(parent_of(old.entry(i)));
    // Children of a removed directory go with it; only names under surviving parents matter.
    if (i != 0 && after.entry(parent)) {
      out.names.emplace_back(parent, std::string(old.name(i)));
    }
  }
  std::sort(out.names.begin(), out.names.end());
  out.names.erase(std::unique(out.names.begin(), out.names.end()), out.names.end());
  return out;
}

}  // namespace anchorfs::fs
