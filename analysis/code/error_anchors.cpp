// Drops the anchors a file's syntax errors rule out (analysis/code/error_anchors.h).
#include "analysis/code/error_anchors.h"

#include "analysis/error_regions.h"

namespace anchorfs::analysis::code {

void clear_anchors_at_errors(TSNode root, std::string_view bytes, CodeFacts& facts) {
  if (!ts_node_has_error(root)) return;
  if (ts_node_is_error(root)) facts.parsed_cleanly = false;
  const ErrorRegions errors(root, bytes);
  facts.error_regions = static_cast<uint32_t>(errors.size());
  for (Definition& d : facts.definitions) {
    if (d.has_anchor && errors.blocks(d.anchor_offset, errors.line_end(d.line))) {
      d.has_anchor = false;
    }
  }
  if (facts.has_file_anchor) {
    const size_t eol = bytes.find('\n', facts.file_anchor);
    if (errors.blocks(facts.file_anchor, eol == std::string_view::npos ? bytes.size() : eol)) {
      facts.has_file_anchor = false;
    }
  }
}

}  // namespace anchorfs::analysis::code
