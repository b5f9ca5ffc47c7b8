// Myers' greedy O(ND) diff over lines, with the frontier kept per edit distance to backtrack.
#include "render/line_diff.h"

#include <algorithm>

namespace anchorfs::render {

std::optional<std::vector<LinePair>> diff_lines(std::span<const std::string_view> a,
                                                std::span<const std::string_view> b,
                                                size_t max_edits) {
  const auto n = static_cast<int64_t>(a.size());
  const auto m = static_cast<int64_t>(b.size());
  const int64_t limit = std::min<int64_t>(n + m, static_cast<int64_t>(max_edits));
  // frontier[k + offset]: the furthest x on diagonal k = x - y; one copy per d to backtrack.
  const int64_t offset = limit + 1;
  std::vector<int64_t> frontier(static_cast<size_t>(2 * limit + 3), 0);
  std::vector<std::vector<int64_t>> trace;
  int64_t found = -1;
  for (int64_t d = 0; d <= limit && found < 0; ++d) {
    for (int64_t k = -d; k <= d; k += 2) {
      int64_t x = 0;
      if (k == -d || (k != d && frontier[static_cast<size_t>(k - 1 + offset)] <
                                    frontier[static_cast<size_t>(k + 1 + offset)])) {
        x = frontier[static_cast<size_t>(k + 1 + offset)];  // down: a line of b inserted
      } else {
        x = frontier[static_cast<size_t>(k - 1 + offset)] + 1;  // right: a line of a deleted
      }
      int64_t y = x - k;
      while (x < n && y < m && a[static_cast<size_t>(x)] == b[static_cast<size_t>(y)]) {
        ++x;
        ++y;
      }
      frontier[static_cast<size_t>(k + offset)] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    // Keep only the diagonals this d can reach: O(d) per step, O(D^2) in all.
    trace.emplace_back(frontier.begin() + (offset - d), frontier.begin() + (offset + d + 1));
  }
  if (found < 0) return std::nullopt;
  std::vector<LinePair> pairs;
  int64_t x = n;
  int64_t y = m;
  for (int64_t d = found; d >= 0; --d) {
    const auto at = [&](const std::vector<int64_t>& r, int64_t dd, int64_t k) {
      return r[static_cast<size_t>(k + dd)];
    };
    const int64_t k = x - y;
    int64_t prev_k = k;
    if (d > 0) {
      const std::vector<int64_t>& prev = trace[static_cast<size_t>(d - 1)];
      const bool down = k == -d || (k != d && at(prev, d - 1, k - 1) < at(prev, d - 1, k + 1));
      prev_k = down ? k + 1 : k - 1;
      const int64_t prev_x = at(prev, d - 1, prev_k);
      const int64_t prev_y = prev_x - prev_k;
      // The snake after the step: matched lines.
      const int64_t start_x = down ? prev_x : prev_x + 1;
      while (x > start_x && y > (start_x - k)) {
        --x;
        --y;
        pairs.push_back({static_cast<size_t>(x), static_cast<size_t>(y)});
      }
      x = prev_x;
      y = prev_y;
    } else {
      while (x > 0 && y > 0) {
        --x;
        --y;
        pairs.push_back({static_cast<size_t>(x), static_cast<size_t>(y)});
      }
    }
  }
  std::reverse(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace anchorfs::render
