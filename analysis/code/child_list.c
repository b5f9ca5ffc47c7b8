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

// ts_node_new's node, built here: the runtime's function is in another translation unit, and a
// call per listed child was ~15 % of collect's instructions (callgrind, sympy core + polys).
static inline TSNode node_at(const TSTree* tree, const Subtree* subtree, Length position,
                             TSSymbol alias) {
  TSNode node = {{position.bytes, position.extent.row, position.extent.column, alias},
                 subtree,
                 tree};
  return node;
}

// Lists `child` (visible, or aliased to a symbol) at `position` unless it is unnamed and only
// named children are asked for; `field` is computed only when fields are asked for.
static inline void add_child(ChildList* out, const TSLanguage* language, const Subtree* child,
                             Length position, TSSymbol alias, Subtree parent, uint32_t index,
                             bool extra, TSFieldId inherited) {
  const bool named = alias != 0 ? ts_language_symbol_metadata(language, alias).named
                                : ts_subtree_named(*child);
  if (!named && out->named_only) return;
  if (out->count < out->capacity) {
    out->nodes[out->count] = node_at(out->tree, child, position, alias);
    if (out->fields) out->fields[out->count] = field_of(language, parent, index, extra, inherited);
  }
  out->count++;
}

static void collect(ChildList* out, Subtree parent, Length position, TSFieldId inherited);

// Looks through `hidden` (a hidden child with visible children, at `position`; `field` the one
// its hidden ancestors give) as the cursor does. Most such children are one-child wrappers (the
// supertypes: Python's expression -> primary_expression -> identifier), 3/4 of the hidden nodes
// on sympy (callgrind: 1.17 M collect calls for 1.98 M children): those are descended here in a
// loop instead of a call each.
static void look_through(ChildList* out, Subtree hidden, Length position, TSFieldId field) {
  const TSLanguage* language = out->tree->language;
  while (hidden.ptr->child_count == 1) {
    const Subtree* only = ts_subtree_children(hidden);
    const bool extra = ts_subtree_extra(*only);
    TSSymbol alias = 0;
    if (!extra) {
      const TSSymbol* aliases = ts_language_alias_sequence(language, hidden.ptr->production_id);
      if (aliases) alias = aliases[0];
    }
    if (ts_subtree_visible(*only) || alias != 0) {
      add_child(out, language, only, position, alias, hidden, 0, extra, field);
      return;
    }
    if (ts_subtree_visible_child_count(*only) == 0) return;
    if (out->fields) field = field_of(language, hidden, 0, extra, field);
    hidden = *only;  // the only child starts where its parent does
  }
  collect(out, hidden, position, field);
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
      add_child(out, language, child, position, alias, parent, index, extra, inherited);
    } else if (ts_subtree_visible_child_count(*child) > 0) {
      const TSFieldId field =
          out->fields ? field_of(language, parent, index, extra, inherited) : 0;
      look_through(out, *child, position, field);
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

// One step of a walk over a parent's children: the child, its position, alias and whether it is
// an extra (which has no structural index).
typedef struct {
  const Subtree* children;
  uint32_t count, index, structural;
  const TSSymbol* aliases;
  Length position;
} Steps;

static Steps steps_of(const TSLanguage* language, Subtree parent, Length position) {
  Steps s = {ts_subtree_children(parent), parent.ptr->child_count, 0, 0,
             ts_language_alias_sequence(language, parent.ptr->production_id), position};
  return s;
}

// A child reached by a step: its position, alias and structural index (meaningless for an extra).
typedef struct {
  const Subtree* subtree;
  Length at;
  TSSymbol alias;
  uint32_t structural;
} Step;

// Advances to the next child: false at the end.
static bool step(Steps* s, Step* child) {
  if (s->index == s->count) return false;
  child->subtree = &s->children[s->index];
  if (s->index > 0) s->position = length_add(s->position, ts_subtree_padding(*child->subtree));
  child->at = s->position;
  child->alias = 0;
  child->structural = s->structural;
  if (!ts_subtree_extra(*child->subtree)) {
    if (s->aliases) child->alias = s->aliases[s->structural];
    s->structural++;
  }
  s->position = length_add(s->position, ts_subtree_size(*child->subtree));
  s->index++;
  return true;
}

// ts_node_child(node, 0) of a node made from `parent` at `position`: its first visible child,
// looking through hidden ones that have visible children.
static TSNode first_visible(const TSTree* tree, Subtree parent, Length position) {
  for (;;) {
    Steps s = steps_of(tree->language, parent, position);
    Step c;
    bool descended = false;
    while (step(&s, &c)) {
      if (ts_subtree_visible(*c.subtree) || c.alias != 0) {
        return node_at(tree, c.subtree, c.at, c.alias);
      }
      if (ts_subtree_visible_child_count(*c.subtree) > 0) {
        parent = *c.subtree;
        position = c.at;
        descended = true;
        break;
      }
    }
    if (!descended) return node_at(NULL, NULL, length_zero(), 0);
  }
}

TSNode anchorfs_child_by_field(TSNode node, TSFieldId field_id) {
  const TSNode none = node_at(NULL, NULL, length_zero(), 0);
  for (;;) {
    if (field_id == 0 || node.id == NULL) return none;
    const Subtree self = *(const Subtree*)node.id;
    if (ts_subtree_child_count(self) == 0 || self.ptr->visible_child_count == 0) return none;
    const TSLanguage* language = node.tree->language;
    const TSFieldMapEntry *map, *end;
    ts_language_field_map(language, self.ptr->production_id, &map, &end);
    if (map == end) return none;
    // The entries for field_id, in child order (the map is sorted by field id).
    while (map->field_id < field_id) {
      if (++map == end) return none;
    }
    while (end[-1].field_id > field_id) {
      if (--end == map) return none;
    }
    const Length start = {node.context[0], {node.context[1], node.context[2]}};
    Steps s = steps_of(language, self, start);
    Step c;
    bool again = false;
    while (step(&s, &c)) {
      if (ts_subtree_extra(*c.subtree)) continue;
      if (c.structural < map->child_index) continue;
      const TSNode found = node_at(node.tree, c.subtree, c.at, c.alias);
      if (map->inherited) {
        // Hidden nodes' fields are inherited by their visible parent: look inside, the last
        // possible one without recursion.
        if (map + 1 == end) {
          node = found;
          again = true;
          break;
        }
        const TSNode inner = anchorfs_child_by_field(found, field_id);
        if (inner.id != NULL) return inner;
        if (++map == end) return none;
      } else if (ts_subtree_visible(*c.subtree) || c.alias != 0) {
        return found;
      } else if (ts_subtree_visible_child_count(*c.subtree) > 0) {
        // A field on a hidden node with visible children names its first visible child.
        return first_visible(node.tree, *c.subtree, c.at);
      } else if (++map == end) {
        return none;
      }
    }
    if (!again) return none;
  }
}
