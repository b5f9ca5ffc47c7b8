// An LRU of verified source descriptors keyed by served inode number.
#include "fs/source_handles.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace anchorfs::fs {

SourceHandle::~SourceHandle() {
  if (fd_ >= 0) ::close(fd_);
}

SourceHandles::SourceHandles(size_t capacity) : capacity_(std::max<size_t>(capacity, 1)) {}

std::shared_ptr<const SourceHandle> SourceHandles::find(uint64_t inode) {
  const sync::MutexLock lock(mutex_);
  auto found = slots_.find(inode);
  if (found == slots_.end()) return nullptr;
  order_.splice(order_.begin(), order_, found->second.position);
  return found->second.handle;
}

void SourceHandles::insert(uint64_t inode, std::shared_ptr<const SourceHandle> handle) {
  std::vector<std::shared_ptr<const SourceHandle>> evicted;  // closed outside the lock
  const sync::MutexLock lock(mutex_);
  auto found = slots_.find(inode);
  if (found != slots_.end()) {
    evicted.push_back(std::move(found->second.handle));
    found->second.handle = std::move(handle);
    order_.splice(order_.begin(), order_, found->second.position);
    return;
  }
  order_.push_front(inode);
  slots_.emplace(inode, Slot{std::move(handle), order_.begin()});
  while (slots_.size() > capacity_) {
    auto oldest = slots_.find(order_.back());
    evicted.push_back(std::move(oldest->second.handle));
    slots_.erase(oldest);
    order_.pop_back();
  }
}

void SourceHandles::erase(uint64_t inode) {
  std::shared_ptr<const SourceHandle> evicted;
  const sync::MutexLock lock(mutex_);
  auto found = slots_.find(inode);
  if (found == slots_.end()) return;
  evicted = std::move(found->second.handle);
  order_.erase(found->second.position);
  slots_.erase(found);
}

void SourceHandles::shrink() {
  std::vector<std::shared_ptr<const SourceHandle>> evicted;
  const sync::MutexLock lock(mutex_);
  const size_t keep = slots_.size() / 2;
  while (slots_.size() > keep) {
    auto oldest = slots_.find(order_.back());
    evicted.push_back(std::move(oldest->second.handle));
    slots_.erase(oldest);
    order_.pop_back();
  }
}

size_t SourceHandles::size() const {
  const sync::MutexLock lock(mutex_);
  return slots_.size();
}

size_t default_source_handle_capacity() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 16384;
  return std::clamp<size_t>(static_cast<size_t>(limit.rlim_cur) / 4, 64, 16384);
}

}  // namespace anchorfs::fs
