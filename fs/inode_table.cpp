// Lookup counting, retiring replaced file versions on a swap, and releasing them on forget.
#include "fs/inode_table.h"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

namespace anchorfs::fs {

InodeTable::InodeTable(std::shared_ptr<const Generation> first) : generation_(std::move(first)) {}

void InodeTable::retire_locked(const Generation& generation, uint32_t index) {
  const Snapshot& snapshot = generation.snapshot();
  // Directories keep their numbers while they exist; a removed one has nothing left to serve.
  if (S_ISDIR(snapshot.entry(index).mode)) return;
  auto& slot = retired_[generation.inode(index)];
  if (!slot) {
    slot = std::make_shared<const RetiredFile>(
        RetiredFile{snapshot.entry(index), snapshot.layout_ptr(index), generation.content(index)});
  }
}

void InodeTable::swap(std::shared_ptr<const Generation> next, Invalidations& changed) {
  const sync::MutexLock lock(mutex_);
  std::shared_ptr<const Generation> previous = generation_.load();
  for (const auto& [inode, index] : changed.dropped) {
    if (lookups_.contains(inode)) retire_locked(*previous, index);
  }
  trim_locked(*previous, *next, changed);
  generation_.store(std::move(next));
}

void InodeTable::listed(uint64_t inode) {
  const sync::MutexLock lock(mutex_);
  listed_.insert(inode);
}

void InodeTable::trim_locked(const Generation& previous, const Generation& next,
                             Invalidations& changed) {
  // listed() runs before a listing reads its generation, under this lock like the swap: a
  // listing not marked here is read from `next` or later. (A loop, not erase_if: the
  // thread-safety analysis does not see this function's lock inside a lambda.)
  size_t kept = 0;
  for (size_t i = 0; i < changed.contents.size(); ++i) {
    const uint64_t inode = changed.contents[i];
    if (listed_.erase(inode) != 0) {
      changed.contents[kept++] = inode;
      continue;
    }
    const std::optional<uint32_t> before = previous.entry(inode);
    const std::optional<uint32_t> after = next.entry(inode);
    if (before && after &&
        !same_attributes(previous.snapshot().entry(*before), next.snapshot().entry(*after))) {
      changed.attributes.push_back(inode);
    }
  }
  changed.contents.resize(kept);
  // A git index gets a new number with every generation (its stat data name inode numbers).
  // While its checkout bytes stay the same, a stale number only serves stat data of an older
  // generation, which makes git compare those files' bytes: never a wrong answer. A kernel
  // that forgot the old number holds no dentry of it, so there is nothing to drop.
  const Snapshot& old_snapshot = previous.snapshot();
  const Snapshot& new_snapshot = next.snapshot();
  for (const Snapshot::ServedIndex& old_index : old_snapshot.git_indexes()) {
    const std::string& path = old_snapshot.entry(old_index.entry).path;
    const std::optional<uint32_t> new_index = new_snapshot.find(path);
    if (!new_index || !new_snapshot.is_git_index(*new_index) ||
        lookups_.contains(previous.inode(old_index.entry)) ||
        old_snapshot.content(old_index.entry) != new_snapshot.content(*new_index)) {
      continue;
    }
    const analysis::TreeEntry& index_entry = old_snapshot.entry(old_index.entry);
    const uint32_t parent = index_entry.parent == analysis::kNoParent ? 0 : index_entry.parent;
    const std::pair<uint64_t, std::string> name{previous.inode(parent),
                                                std::string(old_snapshot.name(old_index.entry))};
    const auto found = std::lower_bound(changed.names.begin(), changed.names.end(), name);
    if (found != changed.names.end() && *found == name) changed.names.erase(found);
  }
}

void InodeTable::remember(const Generation& served, std::span<const uint32_t> entries) {
  if (entries.empty()) return;
  const sync::MutexLock lock(mutex_);
  std::shared_ptr<const Generation> now = generation_.load();
  const bool served_is_current = now.get() == &served;
  for (uint32_t index : entries) {
    const uint64_t inode = served.inode(index);
    ++lookups_[inode];
    if (!served_is_current && !now->entry(inode)) retire_locked(served, index);
  }
}

bool InodeTable::forget(uint64_t inode, uint64_t count) {
  const sync::MutexLock lock(mutex_);
  auto found = lookups_.find(inode);
  if (found == lookups_.end()) return true;
  if (found->second > count) {
    found->second -= count;
    return false;
  }
  lookups_.erase(found);
  retired_.erase(inode);
  served_.erase(inode);
  return true;
}

void InodeTable::mark_served(uint64_t inode) {
  const sync::MutexLock lock(mutex_);
  served_.insert(inode);
}

bool InodeTable::follow(uint64_t inode, const analysis::TreeEntry& was,
                        std::shared_ptr<const RetiredFile> now) {
  const sync::MutexLock lock(mutex_);
  auto found = retired_.find(inode);
  if (found == retired_.end()) return false;
  const analysis::TreeEntry& serves = found->second->entry;
  const bool still_was = serves.device == was.device && serves.inode == was.inode &&
                         serves.size == was.size && serves.mtime_ns == was.mtime_ns &&
                         serves.ctime_ns == was.ctime_ns && serves.mode == was.mode;
  if (!still_was) return true;  // a concurrent reader's follow got there first
  if (served_.contains(inode)) return false;
  found->second = std::move(now);
  return true;
}

std::shared_ptr<const RetiredFile> InodeTable::retired(uint64_t inode) const {
  const sync::MutexLock lock(mutex_);
  auto found = retired_.find(inode);
  return found == retired_.end() ? nullptr : found->second;
}

size_t InodeTable::known_inodes() const {
  const sync::MutexLock lock(mutex_);
  return lookups_.size();
}

size_t InodeTable::retired_inodes() const {
  const sync::MutexLock lock(mutex_);
  return retired_.size();
}

}  // namespace anchorfs::fs
