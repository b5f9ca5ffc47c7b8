// Tree-sitter plumbing every brace-language front end shares: a bounded parse in the thread's
// parse arena, node text and lines.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>

#include "analysis/parse_arena.h"

namespace anchorfs::analysis::code {

// An owned syntax tree; empty when the bytes could not be parsed within their memory budget
// (analysis/parse_budget.h) or are too large for tree-sitter's 32-bit offsets. It is parsed by
// its own parser in the thread's ParseArena and goes with the arena, all at once: nothing from
// the tree (nodes, cursors) may be used after it.
class ParsedTree {
 public:
  ParsedTree(const TSLanguage* language, std::string_view bytes);
  ParsedTree(const ParsedTree&) = delete;
  ParsedTree& operator=(const ParsedTree&) = delete;

  explicit operator bool() const { return tree_ != nullptr; }
  TSNode root() const { return ts_tree_root_node(tree_); }

 private:
  ParseArena arena_;  // holds the tree: it goes with the arena
  TSTree* tree_ = nullptr;
};

inline std::string_view text_of(TSNode node, std::string_view bytes) {
  const uint32_t begin = ts_node_start_byte(node);
  const uint32_t end = ts_node_end_byte(node);
  if (begin > end || end > bytes.size()) return {};
  return bytes.substr(begin, end - begin);
}

// 1-based line of the node's first byte.
inline uint32_t line_of(TSNode node) {
  return ts_node_start_point(node).row + 1;
}

// The child in `field`, or a null node.
inline TSNode field(TSNode node, std::string_view name) {
  return ts_node_child_by_field_name(node, name.data(), static_cast<uint32_t>(name.size()));
}

inline std::string_view type_of(TSNode node) {
  return ts_node_type(node);
}

}  // namespace anchorfs::analysis::code
