// Random access into a tagged file: maps view ranges onto original ranges and tag texts.
#include "fs/file_layout.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "fs/source_file.h"

namespace anchorfs::fs {

FileLayout::FileLayout(const render::TagPlan& plan, uint64_t original_size)
    : original_size_(original_size) {
  if (plan.insertions.empty()) return;
  offsets_.reserve(plan.insertions.size());
  text_view_start_.reserve(plan.insertions.size());
  added_before_.reserve(plan.insertions.size() + 1);
  added_before_.push_back(0);
  texts_.reserve(plan.added_bytes());  // one allocation, not one per doubling
  for (const render::Insertion& insertion : plan.insertions) {
    offsets_.push_back(insertion.offset);
    text_view_start_.push_back(insertion.offset + texts_.size());
    texts_ += insertion.text;
    added_before_.push_back(texts_.size());
  }
}

render::TagPlan FileLayout::plan() const {
  render::TagPlan plan;
  plan.insertions.reserve(offsets_.size());
  for (size_t k = 0; k < offsets_.size(); ++k) {
    plan.insertions.push_back({offsets_[k], std::string(text(k))});
  }
  return plan;
}

FileLayout::OriginalSpan FileLayout::original_span(uint64_t offset, uint64_t size) const {
  // The first original byte at or after view offset p: inside text k it is the byte the text
  // precedes; after text k it is p minus the tag bytes so far.
  auto first_original_at = [this](uint64_t p) -> uint64_t {
    auto next = std::upper_bound(text_view_start_.begin(), text_view_start_.end(), p);
    size_t k = static_cast<size_t>(next - text_view_start_.begin());
    if (k > 0 && p < text_view_start_[k - 1] + (added_before_[k] - added_before_[k - 1])) {
      return offsets_[k - 1];
    }
    return p - (added_before_.empty() ? 0 : added_before_[k]);
  };
  return {first_original_at(offset), first_original_at(offset + size)};
}

void FileLayout::assemble(uint64_t offset, std::span<char> out, const char* original,
                          uint64_t original_begin) const {
  const uint64_t end = offset + out.size();
  const size_t count = offsets_.size();
  size_t next = static_cast<size_t>(
      std::upper_bound(text_view_start_.begin(), text_view_start_.end(), offset) -
      text_view_start_.begin());
  char* write = out.data();
  uint64_t p = offset;
  while (p < end) {
    while (next < count && text_view_start_[next] <= p) ++next;
    if (next > 0) {
      const size_t k = next - 1;
      const uint64_t text_end = text_view_start_[k] + (added_before_[k + 1] - added_before_[k]);
      if (p < text_end) {
        const uint64_t take = std::min(end, text_end) - p;
        std::memcpy(write, texts_.data() + added_before_[k] + (p - text_view_start_[k]), take);
        write += take;
        p += take;
        continue;
      }
    }
    const uint64_t run_end = next < count ? text_view_start_[next] : view_size();
    const uint64_t take = std::min(end, run_end) - p;
    const uint64_t source = p - added_before_[next];
    std::memcpy(write, original + (source - original_begin), take);
    write += take;
    p += take;
  }
}

bool FileLayout::read(int fd, uint64_t offset, std::span<char> out) const {
  if (empty()) {
    ssize_t n = pread_fully(fd, out.data(), out.size(), offset);
    if (n < 0) return false;
    if (static_cast<size_t>(n) != out.size()) {
      errno = EIO;
      return false;
    }
    return true;
  }
  const OriginalSpan span = original_span(offset, out.size());
  thread_local std::vector<char> original;
  original.resize(span.end - span.begin);
  ssize_t n = pread_fully(fd, original.data(), original.size(), span.begin);
  if (n < 0) return false;
  if (static_cast<size_t>(n) != original.size()) {
    errno = EIO;
    return false;
  }
  assemble(offset, out, original.data(), span.begin);
  return true;
}

}  // namespace anchorfs::fs
