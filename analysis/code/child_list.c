// anchorfs_child_list: a node's children read straight from the runtime's subtrees (see child_list.h).
#include "analysis/code/child_list.h"

#include "./language.h"
#include "./subtree.h"
#include "./tree.h"

typedef struct {
  const TSTree* tree;
  bool named_only;
  TSNode* nodes;
  TSFieldId* fields;
  uint32_t capacity;
  uint32_t count;
} ChildList;

// The field a parent's production gives its structural child `index` itself (inherited entries
// name fields of the child's own children, which the cursor reports on those children).
static TSFieldId own_field(const TSLanguage* language, Subtree parent, uint32_t index) {
  const TSFieldMapEntry *map, *end;
  ts_language_field_map(language, parent.ptr->production_id, &map, &end);
  for (; map < end; ++map) {
    if (!map->inherited && map->child_index == index) return map->field_id;
  }
  return 0;
}

// The field the cursor reports for structural child `index` of parent: its own, else (unless it
// is an extra, where the cursor's walk up stops) the one its hidden ancestors give.
static TSFieldId field_of(const TSLanguage* language, Subtree parent, uint32_t index, bool extra,
                          TSFieldId inherited) {
  if (extra) return 0;
  const TSFieldId own = own_field(language, parent, index);
  return own != 0 ? own : inherited;
}

// Visits parent's children from `position` (parent's start). A hidden child with visible
// children is looked through, as the cursor does; `inherited` is the field the hidden ancestors
// give (the cursor walks up through them until a field is found or an extra node stops it).
static void collect(ChildList* out, Subtree parent, Length position, TSFieldId inherited) {
  const TSLanguage* language = out->tree->language;
  const TSSymbol* aliases = ts_language_alias_sequence(language, parent.ptr->production_id);
  const Subtree* children = ts_subtree_children(parent);
  uint32_t structural = 0;
  for (uint32_t i = 0; i < parent.ptr->child_count; ++i) {
    const Subtree* child = &children[i];
    if (i > 0) position = length_add(position, ts_subtree_padding(*child));
    const bool extra = ts_subtree_extra(*child);
    const uint32_t index = structural;
    TSSymbol alias = 0;
    if (!extra) {
      if (aliases) alias = aliases[structural];
      structural++;
    }
    if (ts_subtree_visible(*child) || alias != 0) {
      const bool named = alias != 0 ? ts_language_symbol_metadata(language, alias).named
                                    : ts_subtree_named(*child);
      if (named || !out->named_only) {
        if (out->count < out->capacity) {
          out->nodes[out->count] = ts_node_new(out->tree, child, position, alias);
          if (out->fields) {
            out->fields[out->count] = field_of(language, parent, index, extra, inherited);
          }
        }
        out->count++;
      }
    } else if (ts_subtree_visible_child_count(*child) > 0) {
      const TSFieldId field =
          out->fields ? field_of(language, parent, index, extra, inherited) : 0;
      collect(out, *child, position, field);
    }
    position = length_add(position, ts_subtree_size(*child));
  }
}

uint32_t anchorfs_child_list(TSNode node, bool named_only, TSNode* nodes, TSFieldId* fields,
                             uint32_t capacity) {
  if (node.id == NULL) return 0;
  const Subtree self = *(const Subtree*)node.id;
  if (ts_subtree_child_count(self) == 0) return 0;
  ChildList out = {node.tree, named_only, nodes, fields, capacity, 0};
  const Length start = {node.context[0], {node.context[1], node.context[2]}};
  collect(&out, self, start, 0);
  return out.count;
}
