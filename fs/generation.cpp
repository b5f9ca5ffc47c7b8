// Inode numbering across snapshots and the kernel-cache diff between two generations.
#include "fs/generation.h"

#include <sys/stat.h>

#include <string_view>
#include <unordered_map>

namespace anchorfs::fs {

Generation::Generation(std::shared_ptr<const Snapshot> snapshot) : snapshot_(std::move(snapshot)) {
  inode_of_entry_.resize(snapshot_->size());
  for (uint32_t i = 0; i < snapshot_->size(); ++i) inode_of_entry_[i] = kRootInode + i;
  next_inode_ = kRootInode + snapshot_->size();
  index_inodes();
}

Generation::Generation(std::shared_ptr<const Snapshot> snapshot, const Generation& previous)
    : snapshot_(std::move(snapshot)), next_inode_(previous.next_inode_) {
  const Snapshot& old = previous.snapshot();
  std::unordered_map<std::string_view, uint32_t> old_entry_of_path;
  old_entry_of_path.reserve(old.size());
  for (uint32_t i = 0; i < old.size(); ++i) old_entry_of_path.emplace(old.entry(i).path, i);

  inode_of_entry_.resize(snapshot_->size());
  for (uint32_t i = 0; i < snapshot_->size(); ++i) {
    const analysis::TreeEntry& entry = snapshot_->entry(i);
    auto found = old_entry_of_path.find(entry.path);
    const bool same_type = found != old_entry_of_path.end() &&
                           (old.entry(found->second).mode & S_IFMT) == (entry.mode & S_IFMT);
    inode_of_entry_[i] = same_type ? previous.inode(found->second) : next_inode_++;
  }
  inode_of_entry_[0] = kRootInode;
  index_inodes();
}

void Generation::index_inodes() {
  entry_of_inode_.assign(next_inode_, kAbsent);
  for (uint32_t i = 0; i < inode_of_entry_.size(); ++i) entry_of_inode_[inode_of_entry_[i]] = i;
}

std::optional<uint32_t> Generation::entry(uint64_t inode) const {
  if (inode >= entry_of_inode_.size() || entry_of_inode_[inode] == kAbsent) return std::nullopt;
  return entry_of_inode_[inode];
}

namespace {

bool same_source(const analysis::TreeEntry& a, const analysis::TreeEntry& b) {
  return a.size == b.size && a.mtime_ns == b.mtime_ns && a.ctime_ns == b.ctime_ns &&
         a.inode == b.inode && a.symlink_target == b.symlink_target;
}

// Access times are left out: scanning a directory moves its atime, and pushing that to the
// kernel after every refresh would cost more than a slightly old atime ever could.
bool same_attributes(const analysis::TreeEntry& a, const analysis::TreeEntry& b) {
  return a.mode == b.mode && a.uid == b.uid && a.gid == b.gid && a.nlink == b.nlink &&
         a.mtime_ns == b.mtime_ns && a.ctime_ns == b.ctime_ns;
}

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
      // A new name: drop any cached negative lookup of it (only the parent's is in the kernel).
      if (before.entry(after.inode(entry.parent))) {
        out.names.emplace_back(after.inode(entry.parent), std::string(next.name(i)));
      }
      continue;
    }
    const analysis::TreeEntry& previous = old.entry(*was);
    bool contents_changed = false;
    if (S_ISDIR(entry.mode)) {
      contents_changed = !same_children(before, *was, after, i);
    } else {
      contents_changed = !same_source(previous, entry) || old.layout(*was) != next.layout(i);
    }
    if (contents_changed) {
      out.contents.push_back(inode);
    } else if (!same_attributes(previous, entry)) {
      out.attributes.push_back(inode);
    }
  }
  for (uint32_t i = 0; i < old.size(); ++i) {
    const uint64_t inode = before.inode(i);
    if (after.entry(inode)) continue;
    const uint64_t parent =
        before.inode(old.entry(i).parent == analysis::kNoParent ? 0 : old.entry(i).parent);
    // Children of a removed directory go with it; only names under surviving parents matter.
    if (i != 0 && after.entry(parent)) {
      out.names.emplace_back(parent, std::string(old.name(i)));
    }
  }
  return out;
}

}  // namespace anchorfs::fs
