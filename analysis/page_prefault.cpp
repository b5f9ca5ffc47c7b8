// PagePrefaulter: the helper thread and its madvise calls.
#include "analysis/page_prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>

namespace anchorfs::analysis {

namespace {

#ifndef MADV_POPULATE_WRITE
constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14; older headers lack it
#endif

// One huge page per call: the owner, filling the same range from its start, finds the pages the
// helper has done without waiting for the whole range to be done.
constexpr size_t kStep = size_t{2} << 20;

}  // namespace

PagePrefaulter::PagePrefaulter(bool enabled) {
  if (!enabled) return;
  try {
    thread_ = std::thread([this] { work(); });
  } catch (const std::system_error&) {
    // No thread to be had (a process limit): the owner faults its own pages, as without one.
  }
}

PagePrefaulter::~PagePrefaulter() {
  finish();
}

void PagePrefaulter::add(const void* begin, size_t bytes) {
  if (!thread_.joinable() || bytes == 0) return;
  static const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<size_t>(begin);
  const size_t from = (first + page - 1) / page * page;
  const size_t to = (first + bytes) / page * page;
  if (from >= to) return;
  sync::MutexLock lock(mutex_);
  queue_.push_back({from, to});
  wake_.notify_one();
}

void PagePrefaulter::finish() {
  if (!thread_.joinable()) return;
  {
    sync::MutexLock lock(mutex_);
    stopping_ = true;
    wake_.notify_one();
  }
  thread_.join();
}

void PagePrefaulter::work() {
  size_t next = 0;  // index in queue_ of the next range
  for (;;) {
    Range range{};
    {
      sync::MutexLock lock(mutex_);
      while (next == queue_.size() && !stopping_) wake_.wait(mutex_);
      if (next == queue_.size()) return;
      range = queue_[next++];
    }
    for (size_t at = range.begin; at < range.end; at += kStep) {
      const size_t len = std::min(kStep, range.end - at);
      if (::madvise(reinterpret_cast<void*>(at), len, MADV_POPULATE_WRITE) != 0) break;
    }
  }
}

}  // namespace anchorfs::analysis
