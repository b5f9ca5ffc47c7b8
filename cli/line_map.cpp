// LineMap: byte offsets of line starts, shifted by the tag blocks before them.
#include "cli/line_map.h"

#include <algorithm>

namespace anchorfs::cli {
namespace {

// Where line `line` (from 1) starts in `text`; nullopt when the text has fewer lines. A last
// line without a terminator counts; the empty "line" after a final '\n' does not.
std::optional<size_t> line_start(std::string_view text, size_t line) {
  if (line == 0) return std::nullopt;
  size_t pos = 0;
  for (size_t current = 1; current < line; ++current) {
    const size_t newline = text.find('\n', pos);
    if (newline == std::string_view::npos) return std::nullopt;
    pos = newline + 1;
  }
  if (pos >= text.size()) return std::nullopt;
  return pos;
}

size_t line_of(std::string_view text, size_t offset) {
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

}  // namespace

LineMap::LineMap(std::string view)
    : view_(std::move(view)),
      checkout_(render::strip(view_)),
      blocks_(render::tag_block_ranges(view_)) {}

std::optional<LineMap::Mapped> LineMap::to_checkout(size_t line) const {
  std::optional<size_t> start = line_start(view_, line);
  if (!start) return std::nullopt;
  size_t offset = *start;
  size_t removed = 0;
  bool tag_line = false;
  for (const render::ByteRange& block : blocks_) {
    if (block.begin > offset) break;
    if (offset < block.end) {
      tag_line = true;
      offset = block.end;
    }
    removed += block.end - block.begin;
  }
  return Mapped{line_of(checkout_, offset - removed), tag_line};
}

std::optional<size_t> LineMap::to_view(size_t line) const {
  std::optional<size_t> start = line_start(checkout_, line);
  if (!start) return std::nullopt;
  // A block inserted at this line's start sits above it: count it.
  size_t removed = 0;
  for (const render::ByteRange& block : blocks_) {
    if (block.begin - removed > *start) break;
    removed += block.end - block.begin;
  }
  return line_of(view_, *start + removed);
}

}  // namespace anchorfs::cli
