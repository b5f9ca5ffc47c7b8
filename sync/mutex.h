// Mutex, TimedMutex and MutexLock: std::mutex and std::timed_mutex annotated for -Wthread-safety.
#pragma once

#include <chrono>
#include <mutex>

#include "sync/thread_annotations.h"

namespace anchorfs::sync {

class CondVar;

// A std::mutex the analysis knows about: members declared GUARDED_BY(m) may only be used while
// it is held. Lock it with MutexLock; lock()/unlock() are for the rare hand-over-hand cases.
class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() ACQUIRE() { mutex_.lock(); }
  void unlock() RELEASE() { mutex_.unlock(); }
  bool try_lock() TRY_ACQUIRE(true) { return mutex_.try_lock(); }

 private:
  friend class CondVar;  // waits on the native mutex
  std::mutex mutex_;
};

// A std::timed_mutex, for a caller that must not wait forever for the lock.
class CAPABILITY("mutex") TimedMutex {
 public:
  TimedMutex() = default;
  TimedMutex(const TimedMutex&) = delete;
  TimedMutex& operator=(const TimedMutex&) = delete;

  void lock() ACQUIRE() { mutex_.lock(); }
  void unlock() RELEASE() { mutex_.unlock(); }
  template <typename Rep, typename Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& timeout) TRY_ACQUIRE(true) {
    return mutex_.try_lock_for(timeout);
  }

 private:
  std::timed_mutex mutex_;
};

// Holds a Mutex or TimedMutex from construction to the end of the scope. unlock() and lock()
// let a loop drop the mutex around slow work (the analysis tracks both).
template <typename M>
class SCOPED_CAPABILITY Lock {
 public:
  explicit Lock(M& mutex) ACQUIRE(mutex) : mutex_(mutex) { mutex_.lock(); }
  // Takes over a mutex the caller already locked (say, by a successful try_lock()).
  Lock(M& mutex, std::adopt_lock_t) REQUIRES(mutex) : mutex_(mutex) {}
  ~Lock() RELEASE() {
    if (held_) mutex_.unlock();
  }
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;

  void unlock() RELEASE() {
    mutex_.unlock();
    held_ = false;
  }
  void lock() ACQUIRE() {
    mutex_.lock();
    held_ = true;
  }

 private:
  M& mutex_;
  bool held_ = true;
};

using MutexLock = Lock<Mutex>;
using TimedMutexLock = Lock<TimedMutex>;

}  // namespace anchorfs::sync
