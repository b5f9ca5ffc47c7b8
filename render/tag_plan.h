// A file's tag plan: what text to insert at which offsets of the original bytes, and its inverse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::render {

// `text` goes immediately before original byte `offset` (offset == size appends).
struct Insertion {
  uint64_t offset = 0;
  std::string text;
  friend bool operator==(const Insertion&, const Insertion&) = default;
};

// Sorted by offset; an empty plan means the file is served unchanged.
struct TagPlan {
  std::vector<Insertion> insertions;
  uint64_t added_bytes() const;
  friend bool operator==(const TagPlan&, const TagPlan&) = default;
};

// The tagged view of `original` under `plan`, in one linear pass. Throws std::invalid_argument
// when insertions are unsorted or beyond the end of `original`.
std::string apply(std::string_view original, const TagPlan& plan);

// Removes every tag block (any comment syntax anchorfs writes, either style) from a tagged view:
// paper, a run of whole lines opened and closed by the same delimiter line
// `<ws># === <Kind> Annotation ===` with only comment lines between; lean, a header line
// `<ws># @<kind> <name>` and the field lines after it (same indent, fields in contract order);
// terminators (\n, \r\n, \r) included. A leading UTF-8 BOM is kept.
// strip(apply(x, plan)) == x whenever x itself contains no delimiter line (has_tag_delimiter)
// and the plan inserts at line starts, as render_plans does; see docs/tag-format.md.
std::string strip(std::string_view tagged);

// Bytes [begin, end) of a text.
struct ByteRange {
  size_t begin = 0;
  size_t end = 0;
};

// The tag blocks strip() removes from `tagged`, in order (what strip keeps is everything else).
std::vector<ByteRange> tag_block_ranges(std::string_view tagged);

// True when `text` already contains a delimiter line or a lean header, or a field-like comment
// line among its first three lines (where a lean file block could precede it): such a file
// cannot be tagged reversibly and should be served unchanged.
bool has_tag_delimiter(std::string_view text);

}  // namespace anchorfs::render
