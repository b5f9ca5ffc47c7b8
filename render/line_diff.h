// A line diff (Myers' O(ND) algorithm) with a bound on the edit distance it will search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace anchorfs::render {

// Indices of two matched (equal) lines.
struct LinePair {
  size_t a = 0;
  size_t b = 0;
};

// A longest common subsequence of the lines `a` and `b`, in order, or nullopt when more than
// `max_edits` lines must be inserted or deleted to turn one into the other (the search costs
// O((|a| + |b|) * max_edits) time and O(max_edits^2) memory, so callers bound both).
std::optional<std::vector<LinePair>> diff_lines(std::span<const std::string_view> a,
                                                std::span<const std::string_view> b,
                                                size_t max_edits);

}  // namespace anchorfs::render
