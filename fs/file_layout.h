// Where a tagged file's bytes come from: original ranges and tag texts, by offset in the view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "render/laid_out_plans.h"
#include "render/tag_plan.h"

namespace anchorfs::fs {

// A TagPlan precomputed for random access: the view is original[0, o0) text0 original[o0, o1)
// text1 ... original[on, size). It views a laid-out plan (render/laid_out_plans.h) whose buffer
// it keeps alive, so a snapshot of a stored view copies no tag text.
// Thread-safety: immutable after construction.
class FileLayout {
 public:
  FileLayout() = default;
  // `plan` must be sorted by offset with every offset <= original_size (not checked here).
  FileLayout(const render::TagPlan& plan, uint64_t original_size);
  // Views `plan`, whose bytes `owner` keeps alive; the same preconditions.
  FileLayout(std::shared_ptr<const void> owner, const render::LaidOutPlan& plan,
             uint64_t original_size);

  bool empty() const { return plan_.insertions == 0; }
  uint64_t original_size() const { return original_size_; }
  uint64_t view_size() const { return original_size_ + added_bytes(); }
  uint64_t added_bytes() const { return plan_.text_bytes; }
  size_t insertions() const { return plan_.insertions; }
  // Insertion k: its text, and the plan itself (what a writer of this version was served).
  std::string_view text(size_t k) const { return plan_.text(k); }
  render::TagPlan plan() const { return plan_.plan(); }
  // Same original size and same insertions.
  bool operator==(const FileLayout& other) const {
    return original_size_ == other.original_size_ && plan_.same_insertions(other.plan_);
  }

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
  // Text k starts at view offset offset(k) + tag bytes before it.
  uint64_t text_view_start(size_t k) const { return plan_.offset(k) + plan_.text_end_before(k); }
  // The number of texts starting at or before view offset p.
  size_t texts_starting_by(uint64_t p) const;

  std::shared_ptr<const void> owner_;  // keeps plan_'s bytes alive
  render::LaidOutPlan plan_;
  uint64_t original_size_ = 0;
};

}  // namespace anchorfs::fs
