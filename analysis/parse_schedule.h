// The order in which the parse phase hands out source files to its worker threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sync/mutex.h"

namespace anchorfs::analysis {

// Largest files first, so no core idles at the end behind a huge module started late; but the
// large files in flight at once hold at most `large_budget` bytes of source (a syntax tree costs
// about 100 bytes per source byte: two megabyte-sized test modules parsed together would double
// the daemon's peak memory). A worker that may not start the next large file takes the smallest
// remaining one instead, so it never waits; once every file left is over the budget, the largest
// again (no small file is left to fill in, and the longest must not run last). Thread-safe.
class ParseSchedule {
 public:
  ParseSchedule(const std::vector<uint64_t>& sizes, uint64_t large_budget);

  // The next file index to parse, or nullopt once every file has been handed out.
  std::optional<size_t> next() EXCLUDES(mutex_);
  // Called when the file `index` (from next()) is parsed.
  void finished(size_t index) EXCLUDES(mutex_);

 private:
  const std::vector<uint64_t>& sizes_;
  const uint64_t large_budget_;
  sync::Mutex mutex_;
  std::vector<size_t> by_size_;          // indices, largest first; fixed once constructed
  size_t front_ GUARDED_BY(mutex_) = 0;  // by_size_[front_, back_) are not handed out yet
  size_t back_ GUARDED_BY(mutex_) = 0;
  // Bytes of the files taken from the front, not finished.
  uint64_t large_in_flight_ GUARDED_BY(mutex_) = 0;
  std::vector<bool> taken_as_large_ GUARDED_BY(mutex_);  // by index
};

}  // namespace anchorfs::analysis
