// A node's children in one pass over tree-sitter's own child arrays (ts_node_child scans from the first).
#pragma once

#include <tree_sitter/api.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Writes the first `capacity` of node's children, in order, to nodes[] (and their field ids to
// fields[] unless it is null) and returns how many there are: the nodes a TSTreeCursor visits
// from goto_first_child through goto_next_sibling (hidden nodes are looked through), the unnamed
// ones left out when `named_only`; a field id is ts_tree_cursor_current_field_id's. Compiled
// into the tree-sitter runtime (analysis/code/child_list.c) because it reads the runtime's
// private subtree layout: a cursor step costs several times a step here, and indexed access is
// quadratic in the number of children.
uint32_t anchorfs_child_list(TSNode node, bool named_only, TSNode* nodes, TSFieldId* fields,
                             uint32_t capacity);

// ts_node_child_by_field_id(node, field_id), the same node in every case, without the runtime's
// generic child iterator.
TSNode anchorfs_child_by_field(TSNode node, TSFieldId field_id);

#ifdef __cplusplus
}
#endif
