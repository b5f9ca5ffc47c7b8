// LSD radix sorting by 16-bit digits: the graph's edges and the resolvers' packed integer pairs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace anchorfs::analysis {

// One stable counting pass by a 16-bit digit, from `items` into `out` (then swapped); none when
// every item has the same digit. `counts` holds 1 << 16 counters.
template <typename T, typename Digit>
void radix_pass(std::vector<T>& items, std::vector<T>& out, std::vector<size_t>& counts,
                Digit digit) {
  std::fill(counts.begin(), counts.end(), 0);
  for (const T& item : items) ++counts[digit(item)];
  if (counts[digit(items.front())] == items.size()) return;
  size_t at = 0;
  for (size_t& count : counts) at += std::exchange(count, at);
  for (const T& item : items) out[counts[digit(item)]++] = item;
  items.swap(out);
}

// Sorts 64-bit integers ascending: the order std::sort gives, in linear time. Packed id pairs
// (caller and callee, position and statement) mostly fit far fewer than 64 bits, and a digit
// every value shares costs one counting pass and no move.
inline void radix_sort(std::vector<uint64_t>& values) {
  if (values.size() < 1024) {  // a pass clears 64 Ki counters
    std::sort(values.begin(), values.end());
    return;
  }
  std::vector<uint64_t> out(values.size());
  std::vector<size_t> counts(size_t{1} << 16);
  for (unsigned shift = 0; shift < 64; shift += 16) {
    radix_pass(values, out, counts, [shift](uint64_t v) { return (v >> shift) & 0xffff; });
  }
}

}  // namespace anchorfs::analysis
