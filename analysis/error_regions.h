// Where a syntax tree has errors, and which tag anchors they rule out.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace anchorfs::analysis {

// The byte spans of a tree's ERROR nodes and MISSING tokens (a MISSING token is an empty span at
// the place the parser assumed it). A file with errors is tagged everywhere else: tree-sitter
// prices an error recovery by the bytes and lines it skips, so a comment placed outside every
// skipped span only makes the recoveries it did not choose dearer, and the file parses to the
// same tree (errors included) with its tag blocks in.
class ErrorRegions {
 public:
  ErrorRegions(TSNode root, std::string_view bytes);

  bool empty() const { return spans_.empty(); }
  size_t size() const { return spans_.size(); }

  // Whether a block inserted at the line start `anchor`, above a definition whose header (the
  // line naming it) ends at `header_end`, would sit inside an error region, between one and the
  // definition, or right after one with nothing but whitespace between (an error just above a
  // definition may be part of it: a broken attribute, decorator or annotation).
  bool blocks(uint64_t anchor, uint64_t header_end) const;

  // The end of the 1-based line `line` (the offset of its line break, or the end of the bytes).
  uint64_t line_end(uint32_t line) const;

 private:
  std::string_view bytes_;
  std::vector<std::pair<uint64_t, uint64_t>> spans_;  // [begin, end) in tree order
  std::vector<uint64_t> line_starts_;                 // filled only when there are spans
};

}  // namespace anchorfs::analysis
