// Open source descriptors, one per served file version (inode number), verified when opened.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <unordered_map>

#include "sync/mutex.h"

namespace anchorfs::fs {

// A source file opened for one served version; closes its descriptor when the last user lets go
// (a read in flight keeps it open even after it left the cache).
class SourceHandle {
 public:
  explicit SourceHandle(int fd) : fd_(fd) {}
  ~SourceHandle();
  SourceHandle(const SourceHandle&) = delete;
  SourceHandle& operator=(const SourceHandle&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// The descriptors of the versions served lately, by inode number, least recently used evicted
// beyond `capacity`. Keeping the descriptor is what lets a version be read to its end after the
// source was renamed over or deleted (the old inode stays readable through it); a version whose
// descriptor was evicted is opened again by path and must pass verification again.
// Thread-safety: every member is thread-safe (one mutex, held only for the map operations).
class SourceHandles {
 public:
  explicit SourceHandles(size_t capacity);

  std::shared_ptr<const SourceHandle> find(uint64_t inode);
  void insert(uint64_t inode, std::shared_ptr<const SourceHandle> handle);
  void erase(uint64_t inode);
  // Closes the older half (the process ran out of descriptors).
  void shrink();
  size_t size() const;

 private:
  using Order = std::list<uint64_t>;  // most recently used first
  struct Slot {
    std::shared_ptr<const SourceHandle> handle;
    Order::iterator position;
  };

  const size_t capacity_;
  mutable sync::Mutex mutex_;
  Order order_ GUARDED_BY(mutex_);
  std::unordered_map<uint64_t, Slot> slots_ GUARDED_BY(mutex_);
};

// How many source descriptors a server keeps: a quarter of the descriptor limit, within [64,
// 16384].
size_t default_source_handle_capacity();

}  // namespace anchorfs::fs
