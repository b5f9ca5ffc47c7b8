// PagePrefaulter: faults in reserved memory on a helper thread, ahead of the thread that fills it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

#include "sync/cond_var.h"
#include "sync/mutex.h"

namespace anchorfs::analysis {

// A serial step that fills tables it reserved up front (the Python resolver's variables, read
// lists, call sites) spends ~10 % of its time in the kernel zeroing each fresh page it first
// writes. Here a second thread asks the kernel to fault those pages in first
// (MADV_POPULATE_WRITE: the pages are made present and writable, their bytes unchanged), so the
// zeroing runs on an otherwise idle core. Nothing is written: the owner may fill the same pages
// at the same time, and a range the owner frees or reallocates meanwhile at worst costs the
// helper a wasted fault. A kernel without MADV_POPULATE_WRITE (before 5.14) refuses it, and the
// pages are faulted by the owner as before.
class PagePrefaulter {
 public:
  // Disabled (no thread, add() does nothing) for a caller that may use one thread only.
  explicit PagePrefaulter(bool enabled);
  ~PagePrefaulter();
  PagePrefaulter(const PagePrefaulter&) = delete;
  PagePrefaulter& operator=(const PagePrefaulter&) = delete;

  // Queues the whole pages within [begin, begin + bytes), faulted in the order queued.
  void add(const void* begin, size_t bytes);
  // Queues the reserved space of `v` up to its first `count` elements.
  template <class T>
  void add_reserved(const std::vector<T>& v, size_t count) {
    const size_t end = std::min(count, v.capacity());
    if (end > v.size()) add(v.data() + v.size(), (end - v.size()) * sizeof(T));
  }
  // Waits for the helper to fault in everything queued and stops it; add() does nothing
  // afterwards.
  void finish();

 private:
  struct Range {
    size_t begin, end;  // page-aligned addresses
  };
  void work();

  sync::Mutex mutex_;
  sync::CondVar wake_;
  std::vector<Range> queue_ GUARDED_BY(mutex_);
  bool stopping_ GUARDED_BY(mutex_) = false;
  std::thread thread_;
};

}  // namespace anchorfs::analysis
