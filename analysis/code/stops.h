// anchorfs_stops: the nodes under a node at which a walk has work, found without listing the rest.
#pragma once

#include <tree_sitter/api.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// What a walk does at a named node that has children, by its symbol (ts_node_symbol).
enum {
  ANCHORFS_DESCEND = 0,      // nothing of its own: its children are looked at
  ANCHORFS_STOP = 1,         // the walk visits it
  ANCHORFS_STOP_LISTED = 2,  // as STOP, with where it sits in its parent's child list
  ANCHORFS_DROP = 3,         // neither it nor anything under it
};

// A node the walk visits. For ANCHORFS_STOP_LISTED: `parent` is the node whose child list
// (anchorfs_child_list(parent, false, ...)) holds it, at `index`; else parent is null.
typedef struct {
  TSNode node;
  TSNode parent;
  uint32_t index;
} AnchorfsStop;

// Writes the first `capacity` stops under `node` to out[], in source order, and returns how
// many there are: node's descendants, looked for among the named children with children (as
// ts_node_named_child and ts_node_child_count see them) of `node` and of every ANCHORFS_DESCEND
// node between; actions[] gives each symbol's action (ANCHORFS_DESCEND past action_count).
// Anonymous children and leaves are passed over. Below kAnchorfsStopsDepth nested descended
// nodes, a DESCEND node is returned as a stop (the caller walks it with another call), so the
// walk needs no recursion and a bounded stack whatever the nesting. UINT32_MAX when even the
// grammar's hidden nodes nest too deep for that stack (the caller lists the children itself).
uint32_t anchorfs_stops(TSNode node, const uint8_t* actions, uint32_t action_count,
                        AnchorfsStop* out, uint32_t capacity);

#ifdef __cplusplus
}
#endif
