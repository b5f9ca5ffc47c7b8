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
  auto bytes = std::make_shared<std::string>();
  bytes->reserve(16 * plan.insertions.size() + plan.added_bytes());
  render::append_laid_out(*bytes, plan);
  plan_.insertions = plan.insertions.size();
  plan_.text_bytes = plan.added_bytes();
  plan_.data = bytes->data();
  owner_ = std::move(bytes);
}

FileLayout::FileLayout(std::shared_ptr<const void> owner, const render::LaidOutPlan& plan,
                       uint64_t original_size)
    : owner_(std::move(owner)), plan_(plan), original_size_(original_size) {}

size_t FileLayout::texts_starting_by(uint64_t p) const {
  // text_view_start is non-decreasing in k (offsets sorted, tag bytes accumulate).
  size_t low = 0;
  size_t high = plan_.insertions;
  while (low < high) {
    const size_t mid = low + (high - low) / 2;
    if (text_view_start(mid) <= p) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

FileLayout::OriginalSpan FileLayout::original_span(uint64_t offset, uint64_t size) const {
  // The first original byte at or after view offset p: inside text k it is the byte the text
  // precedes; after text k it is p minus the tag bytes so far.
  auto first_original_at = [this](uint64_t p) -> uint64_t {
    const size_t k = texts_starting_by(p);
    if (k > 0 && p < text_view_start(k - 1) + plan_.text(k - 1).size()) {
      return plan_.offset(k - 1);
    }
    return p - plan_.text_end_before(k);
  };
  return {first_original_at(offset), first_original_at(offset + size)};
}

void FileLayout::assemble(uint64_t offset, std::span<char> out, const char* original,
                          uint64_t original_begin) const {
  const uint64_t end = offset + out.size();
  const size_t count = plan_.insertions;
  size_t next = texts_starting_by(offset);
  char* write = out.data();
  uint64_t p = offset;
  while (p < end) {
    while (next < count && text_view_start(next) <= p) ++next;
    if (next > 0) {
      const size_t k = next - 1;
      const uint64_t start = text_view_start(k);
      const std::string_view text = plan_.text(k);
      const uint64_t text_end = start + text.size();
      if (p < text_end) {
        const uint64_t take = std::min(end, text_end) - p;
        std::memcpy(write, text.data() + (p - start), take);
        write += take;
        p += take;
        continue;
      }
    }
    const uint64_t run_end = next < count ? text_view_start(next) : view_size();
    const uint64_t take = std::min(end, run_end) - p;
    const uint64_t source = p - plan_.text_end_before(next);
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
