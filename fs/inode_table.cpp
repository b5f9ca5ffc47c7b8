// Lookup counting, retiring replaced file versions on a swap, and releasing them on forget.
#include "fs/inode_table.h"

#include <sys/stat.h>

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

void InodeTable::swap(std::shared_ptr<const Generation> next,
                      const std::vector<std::pair<uint64_t, uint32_t>>& dropped) {
  const sync::MutexLock lock(mutex_);
  std::shared_ptr<const Generation> previous = generation_.load();
  for (const auto& [inode, index] : dropped) {
    if (lookups_.contains(inode)) retire_locked(*previous, index);
  }
  generation_.store(std::move(next));
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
