// Where a tagged file's bytes come from: original ranges and tag texts, by offset in the view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "render/tag_plan.h"

namespace anchorfs::fs {

// A TagPlan precomputed for random access: the view is original[0, o0) text0 original[o0, o1)
// text1 ... original[on, size). Thread-safety: immutable after construction.
class FileLayout {
 public:
  FileLayout() = default;
  // `plan` must be sorted by offset with every offset <= original_size (not checked here).
  FileLayout(const render::TagPlan& plan, uint64_t original_size);

  bool empty() const { return offsets_.empty(); }
  uint64_t original_size() const { return original_size_; }
  uint64_t view_size() const { return original_size_ + added_bytes(); }
  uint64_t added_bytes() const { return added_before_.empty() ? 0 : added_before_.back(); }
  size_t insertions() const { return offsets_.size(); }
  // Insertion k: its text, and the plan itself (what a writer of this version was served).
  std::string_view text(size_t k) const {
    return std::string_view(texts_).substr(added_before_[k], added_before_[k + 1] - added_before_[k]);
  }
  render::TagPlan plan() const;
  // Same original size and same insertions.
  bool operator==(const FileLayout& other) const = default;

  // Fills `out` with view bytes [offset, offset + out.size()), which must lie within the view,
  // reading the original bytes from `fd` (one pread of one contiguous range). Returns false with
  // errno set when the original cannot be read in full (EIO for a short read).
  bool read(int fd, uint64_t offset, std::span<char> out) const;

 private:
  // The original range [begin, end) that view bytes [offset, offset + size) draw from.
  struct OriginalSpan {
    uint64_t begin = 0;
    uint64_t end = 0;
  };
  OriginalSpan original_span(uint64_t offset, uint64_t size) const;
  // Copies view bytes [offset, offset + out.size()) given the original bytes of original_span().
  void assemble(uint64_t offset, std::span<char> out, const char* original,
                uint64_t original_begin) const;

  uint64_t original_size_ = 0;
  // Text k is texts_[added_before_[k], added_before_[k + 1]), inserted before original byte
  // offsets_[k]; it starts at view offset text_view_start_[k] = offsets_[k] + added_before_[k].
  std::string texts_;
  std::vector<uint64_t> offsets_;
  std::vector<uint64_t> text_view_start_;
  std::vector<uint64_t> added_before_;  // size insertions() + 1 (or empty when untagged)
};

}  // namespace anchorfs::fs
