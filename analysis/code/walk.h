// The one depth policy of brace-language walks, and reusable child cursors for them.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <deque>

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

}  // namespace anchorfs::analysis::code
