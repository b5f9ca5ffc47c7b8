// ParseSchedule: largest-first hand-out under a budget for the large files in flight.
#include "analysis/parse_schedule.h"

#include <algorithm>
#include <numeric>

namespace anchorfs::analysis {

ParseSchedule::ParseSchedule(const std::vector<uint64_t>& sizes, uint64_t large_budget)
    : sizes_(sizes),
      large_budget_(large_budget),
      by_size_(sizes.size()),
      back_(sizes.size()),
      taken_as_large_(sizes.size(), false) {
  std::iota(by_size_.begin(), by_size_.end(), size_t{0});
  std::stable_sort(by_size_.begin(), by_size_.end(),
                   [&](size_t a, size_t b) { return sizes_[a] > sizes_[b]; });
}

std::optional<size_t> ParseSchedule::next() {
  const sync::MutexLock lock(mutex_);
  if (front_ == back_) return std::nullopt;
  const size_t largest = by_size_[front_];
  // Once even the smallest file left is over the budget, none is left to fill in beside a large
  // one, and any pick breaks the budget: the largest, so the longest parses start first and the
  // cores finish together. (Taking the smallest there left a run of whole bundles, 6-11.5 MB of
  // JavaScript each, to the end on one core while the other idled.)
  const bool only_large_left = sizes_[by_size_[back_ - 1]] > large_budget_;
  if (large_in_flight_ == 0 || large_in_flight_ + sizes_[largest] <= large_budget_ ||
      only_large_left) {
    ++front_;
    large_in_flight_ += sizes_[largest];
    taken_as_large_[largest] = true;
    return largest;
  }
  return by_size_[--back_];
}

void ParseSchedule::finished(size_t index) {
  const sync::MutexLock lock(mutex_);
  if (taken_as_large_[index]) large_in_flight_ -= sizes_[index];
}

}  // namespace anchorfs::analysis
