// Collecting a syntax node's children onto a walker's stack (the Python walk, the dense collector).
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <vector>

namespace anchorfs::analysis::python {

// Up to this many named children are read by index rather than with the cursor.
inline constexpr uint32_t kIndexedChildren = 4;

// Appends n's named children (or all of them) to `stack` as {node, field, kind_of(node)}.
// Field ids cost a lookup per child, so they are read only `with_fields` (else 0). A cursor step
// costs several times a step of ts_node_named_child's scan from the first child, so nodes with
// few children (nearly all) are read by index; the scan is quadratic, so wide ones (bodies, long
// literals) take the cursor.
template <typename Child, typename KindOf>
void push_children(std::vector<Child>& stack, TSTreeCursor* cursor, TSNode n, bool named_only,
                   bool with_fields, const KindOf& kind_of) {
  if (ts_node_child_count(n) == 0) return;
  if (named_only && !with_fields) {
    const uint32_t count = ts_node_named_child_count(n);
    if (count <= kIndexedChildren) {
      for (uint32_t i = 0; i < count; ++i) {
        const TSNode c = ts_node_named_child(n, i);
        stack.push_back({c, TSFieldId{0}, kind_of(c)});
      }
      return;
    }
  }
  ts_tree_cursor_reset(cursor, n);
  if (!ts_tree_cursor_goto_first_child(cursor)) return;
  do {
    const TSNode c = ts_tree_cursor_current_node(cursor);
    if (named_only && !ts_node_is_named(c)) continue;
    stack.push_back(
        {c, with_fields ? ts_tree_cursor_current_field_id(cursor) : TSFieldId{0}, kind_of(c)});
  } while (ts_tree_cursor_goto_next_sibling(cursor));
}

}  // namespace anchorfs::analysis::python
