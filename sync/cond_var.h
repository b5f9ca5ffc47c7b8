// CondVar: a std::condition_variable that waits on an annotated sync::Mutex.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "sync/mutex.h"
#include "sync/thread_annotations.h"

namespace anchorfs::sync {

// The caller holds `mutex` (REQUIRES), so the analysis checks the state a wait loop reads:
//   while (!ready_) changed_.wait(mutex_);
// The predicate forms run their predicate under the mutex too, but the analysis cannot see that
// inside a lambda: they are for predicates over atomics or locals; a predicate over GUARDED_BY
// state is flagged, and then the loop belongs at the call site.
class CondVar {
 public:
  void notify_one() noexcept { condition_.notify_one(); }
  void notify_all() noexcept { condition_.notify_all(); }

  // Releases `mutex` while blocked; holds it again on return (which may be spurious).
  void wait(Mutex& mutex) REQUIRES(mutex) {
    std::unique_lock lock(mutex.mutex_, std::adopt_lock);
    condition_.wait(lock);
    lock.release();  // still held: the caller's scope owns it
  }

  // As wait(); false once `deadline` has passed.
  template <typename Clock, typename Duration>
  bool wait_until(Mutex& mutex, const std::chrono::time_point<Clock, Duration>& deadline)
      REQUIRES(mutex) {
    std::unique_lock lock(mutex.mutex_, std::adopt_lock);
    const std::cv_status status = condition_.wait_until(lock, deadline);
    lock.release();
    return status == std::cv_status::no_timeout;
  }

  // Waits until `done()` or `timeout`; returns done().
  template <typename Rep, typename Period, typename Predicate>
  bool wait_for(Mutex& mutex, const std::chrono::duration<Rep, Period>& timeout, Predicate done)
      REQUIRES(mutex) {
    std::unique_lock lock(mutex.mutex_, std::adopt_lock);
    const bool result = condition_.wait_for(lock, timeout, std::move(done));
    lock.release();
    return result;
  }

 private:
  std::condition_variable condition_;
};

}  // namespace anchorfs::sync
