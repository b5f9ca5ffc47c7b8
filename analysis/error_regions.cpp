// Collects a tree's error spans and tests tag anchors against them (analysis/error_regions.h).
#include "analysis/error_regions.h"

#include <algorithm>

namespace anchorfs::analysis {
namespace {

// Appends the spans of `node`'s subtree; only subtrees that hold an error are visited, so a clean
// tree costs one call. An explicit stack: error trees may nest deeply.
void collect(TSNode root, std::vector<std::pair<uint64_t, uint64_t>>& spans) {
  std::vector<TSNode> pending{root};
  while (!pending.empty()) {
    const TSNode node = pending.back();
    pending.pop_back();
    if (ts_node_is_error(node) || ts_node_is_missing(node)) {
      spans.emplace_back(ts_node_start_byte(node), ts_node_end_byte(node));
      continue;
    }
    if (!ts_node_has_error(node)) continue;
    for (uint32_t i = ts_node_child_count(node); i > 0; --i) {
      pending.push_back(ts_node_child(node, i - 1));
    }
  }
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

ErrorRegions::ErrorRegions(TSNode root, std::string_view bytes) : bytes_(bytes) {
  if (!ts_node_has_error(root)) return;
  collect(root, spans_);
  line_starts_.push_back(0);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\n') line_starts_.push_back(i + 1);
  }
}

uint64_t ErrorRegions::line_end(uint32_t line) const {
  if (line == 0 || line >= line_starts_.size()) return bytes_.size();
  return line_starts_[line] - 1;  // the '\n' ending the line
}

bool ErrorRegions::blocks(uint64_t anchor, uint64_t header_end) const {
  // Back from the anchor over whitespace: an error ending there is just above the definition.
  uint64_t after_code = std::min<uint64_t>(anchor, bytes_.size());
  while (after_code > 0 && is_space(bytes_[after_code - 1])) --after_code;
  return std::any_of(spans_.begin(), spans_.end(), [&](const auto& span) {
    return span.first <= header_end && span.second >= after_code;
  });
}

}  // namespace anchorfs::analysis
