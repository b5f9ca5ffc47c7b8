// A file's tag plan: what text to insert at which offsets of the original bytes, and its inverse.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::render {

// `text` goes immediately before original byte `offset` (offset == size appends).
struct Insertion {
  uint64_t offset = 0;
  std::string text;
};

// Sorted by offset; an empty plan means the file is served unchanged.
struct TagPlan {
  std::vector<Insertion> insertions;
  uint64_t added_bytes() const;
};

// The tagged view of `original` under `plan`.
std::string apply(std::string_view original, const TagPlan& plan);

// Removes every tag block (any comment syntax anchorfs writes) from a tagged view.
std::string strip(std::string_view tagged);

}  // namespace anchorfs::render
