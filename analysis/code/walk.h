// The one depth policy of brace-language walks, and reusable child cursors and lists for them.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "analysis/code/child_list.h"

namespace anchorfs::analysis::code {

// Walks recurse; a syntax tree nested deeper than this is served untagged (the extractor clears
// `parsed_cleanly`), the same in every brace language. No real source file nests so far.
inline constexpr int kMaxDepth = 400;

// Tree cursors reused across a walk, one per depth: tree-sitter finds the i-th child of a node
// by scanning from the first, so a loop over a long child list (a file's declarations, a
// function's statements) goes through a cursor instead.
class ChildCursors {
 public:
  ChildCursors() = default;
  ChildCursors(const ChildCursors&) = delete;
  ChildCursors& operator=(const ChildCursors&) = delete;
  ~ChildCursors() {
    for (TSTreeCursor& cursor : cursors_) ts_tree_cursor_delete(&cursor);
  }

  // A cursor of a running loop standing on `node` (below its loop's node), or null: from it the
  // node's siblings and parent are steps (code::attached_start, parent_of).
  const TSTreeCursor* on(TSNode node) const {
    for (auto cursor = cursors_.rbegin(); cursor != cursors_.rend(); ++cursor) {
      if (ts_node_eq(ts_tree_cursor_current_node(&*cursor), node) &&
          ts_tree_cursor_current_depth(&*cursor) > 0) {
        return &*cursor;
      }
    }
    return nullptr;
  }

  // Calls f on each named child of `node`; `depth` must differ from the depth of every loop
  // that is running around this one.
  template <typename F>
  void each_named(TSNode node, size_t depth, F&& f) {
    while (cursors_.size() <= depth) cursors_.push_back(ts_tree_cursor_new(node));
    TSTreeCursor& cursor = cursors_[depth];
    ts_tree_cursor_reset(&cursor, node);
    if (!ts_tree_cursor_goto_first_child(&cursor)) return;
    do {
      const TSNode child = ts_tree_cursor_current_node(&cursor);
      if (ts_node_is_named(child)) f(child);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }

 private:
  std::deque<TSTreeCursor> cursors_;  // a deque: references stay valid as it grows
};

// The children each running loop of a walk listed (named and anonymous, as a cursor steps
// through them: code/child_list.h), one list per depth, reused across the walk. A listed child
// costs a fraction of a cursor step, and a definition's parent and earlier siblings are read
// from its loop's list instead of tree-sitter's search down from the root.
class ChildLists {
 public:
  struct Level {
    TSNode node{};  // the node whose children are listed
    std::vector<TSNode> children;
    uint32_t count = 0;  // children listed; 0 once the loop is done
    uint32_t at = 0;     // the child the loop stands on
    std::span<const TSNode> before() const { return {children.data(), at}; }
  };

  // The level of a running loop standing on `node`, or null.
  const Level* on(TSNode node) const {
    for (auto level = levels_.rbegin(); level != levels_.rend(); ++level) {
      if (level->at < level->count && ts_node_eq(level->children[level->at], node)) return &*level;
    }
    return nullptr;
  }

  // Calls f on each named child of `node`; `depth` must differ from the depth of every loop
  // that is running around this one.
  template <typename F>
  void each_named(TSNode node, size_t depth, F&& f) {
    while (levels_.size() <= depth) levels_.emplace_back();
    Level& level = levels_[depth];
    level.node = node;
    level.count = anchorfs_child_list(node, /*named_only=*/false, level.children.data(), nullptr,
                                      static_cast<uint32_t>(level.children.size()));
    if (level.count > level.children.size()) {
      level.children.resize(level.count);
      anchorfs_child_list(node, false, level.children.data(), nullptr, level.count);
    }
    for (uint32_t i = 0; i < level.count; ++i) {
      if (!ts_node_is_named(level.children[i])) continue;
      level.at = i;
      f(level.children[i]);
    }
    level.count = 0;  // no loop stands on its children any more (on())
  }

 private:
  std::deque<Level> levels_;  // a deque: a running loop's Level stays put as deeper ones are added
};

}  // namespace anchorfs::analysis::code
