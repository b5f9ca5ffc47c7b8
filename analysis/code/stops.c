// anchorfs_stops (see stops.h): one pass over the runtime's subtrees, no node listed on the way.
#include "analysis/code/stops.h"

#include "./language.h"
#include "./subtree.h"
#include "./tree.h"

// Descended visible nodes before a DESCEND node is handed back as a stop, and the frames kept
// free for the hidden nodes under the last one (grammar rules, balanced repetitions).
#define VISIBLE_DEPTH 96
#define STACK_DEPTH 256
#define HIDDEN_RESERVE 64

// One node whose children are being looked at. A visible node's children form its child list;
// a hidden node's visible children belong to the list of the visible node above it (`level`).
typedef struct {
  const Subtree* children;
  const TSSymbol* aliases;
  uint32_t count, next, structural;
  Length position;  // where the child at `next` starts, before its padding (unless next == 0)
  uint32_t level;   // the frame whose child list these children are in (itself if visible)
  uint32_t listed;  // visible frames: children listed so far (named and anonymous)
  TSNode node;      // visible frames: the node itself
} Frame;

static TSNode make_node(const TSTree* tree, const Subtree* subtree, Length at, TSSymbol alias) {
  TSNode node = {{at.bytes, at.extent.row, at.extent.column, alias}, subtree, tree};
  return node;
}

static void open_frame(Frame* frame, const TSLanguage* language, Subtree parent, Length at,
                       uint32_t level, TSNode node) {
  frame->children = ts_subtree_children(parent);
  frame->aliases = ts_language_alias_sequence(language, parent.ptr->production_id);
  frame->count = parent.ptr->child_count;
  frame->next = 0;
  frame->structural = 0;
  frame->position = at;
  frame->level = level;
  frame->listed = 0;
  frame->node = node;
}

uint32_t anchorfs_stops(TSNode node, const uint8_t* actions, uint32_t action_count,
                        AnchorfsStop* out, uint32_t capacity) {
  if (node.id == NULL) return 0;
  const Subtree self = *(const Subtree*)node.id;
  if (ts_subtree_child_count(self) == 0) return 0;
  const TSTree* tree = node.tree;
  const TSLanguage* language = tree->language;
  const TSNode none = make_node(NULL, NULL, length_zero(), 0);
  Frame stack[STACK_DEPTH];
  uint32_t depth = 1;
  uint32_t visible_depth = 1;
  uint32_t count = 0;
  const Length start = {node.context[0], {node.context[1], node.context[2]}};
  open_frame(&stack[0], language, self, start, 0, node);
  while (depth > 0) {
    Frame* frame = &stack[depth - 1];
    if (frame->next == frame->count) {
      if (frame->level == depth - 1) visible_depth--;
      depth--;
      continue;
    }
    const Subtree* child = &frame->children[frame->next];
    if (child->data.is_inline) {
      // A small leaf (most of a tree's children): only its place in the list counts.
      TSSymbol alias = 0;
      if (!child->data.extra) {
        if (frame->aliases) alias = frame->aliases[frame->structural];
        frame->structural++;
      }
      if (child->data.visible || alias != 0) stack[frame->level].listed++;
      if (frame->next > 0) frame->position = length_add(frame->position, ts_subtree_padding(*child));
      frame->position.bytes += child->data.size_bytes;  // an inline leaf spans no line break
      frame->position.extent.column += child->data.size_bytes;
      frame->next++;
      continue;
    }
    if (frame->next > 0) frame->position = length_add(frame->position, ts_subtree_padding(*child));
    const Length at = frame->position;
    frame->position = length_add(frame->position, ts_subtree_size(*child));
    frame->next++;
    TSSymbol alias = 0;
    if (!ts_subtree_extra(*child)) {
      if (frame->aliases) alias = frame->aliases[frame->structural];
      frame->structural++;
    }
    Frame* level = &stack[frame->level];
    if (ts_subtree_visible(*child) || alias != 0) {
      const uint32_t index = level->listed++;
      const bool named = alias != 0 ? ts_language_symbol_metadata(language, alias).named
                                    : ts_subtree_named(*child);
      // Leaves: ts_node_child_count's test.
      if (!named || ts_subtree_child_count(*child) == 0 || child->ptr->visible_child_count == 0) {
        continue;
      }
      const TSSymbol symbol =
          ts_language_public_symbol(language, alias != 0 ? alias : ts_subtree_symbol(*child));
      const uint8_t action = symbol < action_count ? actions[symbol] : ANCHORFS_DESCEND;
      if (action == ANCHORFS_DROP) continue;
      const TSNode found = make_node(tree, child, at, alias);
      if (action == ANCHORFS_DESCEND && visible_depth < VISIBLE_DEPTH &&
          depth < STACK_DEPTH - HIDDEN_RESERVE) {
        open_frame(&stack[depth], language, *child, at, depth, found);
        depth++;
        visible_depth++;
        continue;
      }
      if (count < capacity) {
        out[count].node = found;
        const bool listed = action == ANCHORFS_STOP_LISTED;
        out[count].parent = listed ? level->node : none;
        out[count].index = listed ? index : 0;
      }
      count++;
    } else if (ts_subtree_visible_child_count(*child) > 0) {
      // Hidden: its visible children are listed as its parent's (as anchorfs_child_list does).
      if (depth == STACK_DEPTH) return UINT32_MAX;
      open_frame(&stack[depth], language, *child, at, frame->level, none);
      depth++;
    }
  }
  return count;
}
