// SharedMutex with ReaderLock and WriterLock: std::shared_mutex annotated for -Wthread-safety.
#pragma once

#include <shared_mutex>

#include "sync/thread_annotations.h"

namespace anchorfs::sync {

// Many readers or one writer. Data GUARDED_BY it may be read under either lock and written
// only under the exclusive one; REQUIRES_SHARED marks functions that only read.
class CAPABILITY("shared mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void lock() ACQUIRE() { mutex_.lock(); }
  void unlock() RELEASE() { mutex_.unlock(); }
  void lock_shared() ACQUIRE_SHARED() { mutex_.lock_shared(); }
  void unlock_shared() RELEASE_SHARED() { mutex_.unlock_shared(); }

 private:
  std::shared_mutex mutex_;
};

// Holds a SharedMutex shared for the scope; unlock() ends that early.
class SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex& mutex) ACQUIRE_SHARED(mutex) : mutex_(mutex) {
    mutex_.lock_shared();
  }
  ~ReaderLock() RELEASE() {
    if (held_) mutex_.unlock_shared();
  }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

  void unlock() RELEASE() {
    mutex_.unlock_shared();
    held_ = false;
  }

 private:
  SharedMutex& mutex_;
  bool held_ = true;
};

// Holds a SharedMutex exclusively for the scope.
class SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex& mutex) ACQUIRE(mutex) : mutex_(mutex) { mutex_.lock(); }
  ~WriterLock() RELEASE() { mutex_.unlock(); }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  SharedMutex& mutex_;
};

}  // namespace anchorfs::sync
