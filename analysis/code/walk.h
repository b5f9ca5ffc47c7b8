// The one depth policy of brace-language walks, and the child lists they walk on.
#pragma once

#include <tree_sitter/api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <utility>
#include <vector>

#include "analysis/code/child_list.h"

namespace anchorfs::analysis::code {

// Walks recurse; a syntax tree nested deeper than this is served untagged (the extractor clears
// `parsed_cleanly`), the same in every brace language. No real source file nests so far.
inline constexpr int kMaxDepth = 400;

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
    each(node, depth, /*named_only=*/true, std::forward<F>(f));
  }

  // Calls f on each child of `node`, the anonymous ones too unless `named_only`; `depth` as
  // each_named's.
  template <typename F>
  void each(TSNode node, size_t depth, bool named_only, F&& f) {
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
      if (named_only && !ts_node_is_named(level.children[i])) continue;
      level.at = i;
      f(level.children[i]);
    }
    level.count = 0;  // no loop stands on its children any more (on())
  }

 private:
  std::deque<Level> levels_;  // a deque: a running loop's Level stays put as deeper ones are added
};

// A node's named children (ts_node_named_child's, in order), or all its children
// (ts_node_child's) when kNamedOnly is false, listed once by anchorfs_child_list:
// ts_node_named_child(i) rescans the children from the first, so a loop of it is quadratic and
// costs hundreds of instructions a call even on short lists.
template <bool kNamedOnly>
class ListedChildren {
 public:
  explicit ListedChildren(TSNode node) {
    if (ts_node_is_null(node)) return;
    count_ = anchorfs_child_list(node, kNamedOnly, small_.data(), nullptr, kSmall);
    if (count_ > kSmall) {
      large_.resize(count_);
      anchorfs_child_list(node, kNamedOnly, large_.data(), nullptr, count_);
      data_ = large_.data();
    }
  }
  ListedChildren(const ListedChildren&) = delete;
  ListedChildren& operator=(const ListedChildren&) = delete;

  uint32_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // The i-th, or a null node past the end (as ts_node_named_child).
  TSNode operator[](uint32_t i) const { return i < count_ ? data_[i] : TSNode{}; }
  const TSNode* begin() const { return data_; }
  const TSNode* end() const { return data_ + count_; }

 private:
  static constexpr uint32_t kSmall = 8;  // most lists: parameters, arguments, a type's parts
  std::array<TSNode, kSmall> small_;
  std::vector<TSNode> large_;
  const TSNode* data_ = small_.data();
  uint32_t count_ = 0;
};
using NamedChildren = ListedChildren<true>;
using AllChildren = ListedChildren<false>;

// A node's children with their fields, listed once (anchorfs_child_list), for a walk that asks
// several fields of one node: each anchorfs_child_by_field steps from the first child again.
// [field] is the first child a cursor reports in the field: ts_node_child_by_field_id's node in
// the brace grammars (tests/analysis/child_list_test.cpp; not Python's match_statement `body`).
class FieldChildren {
 public:
  explicit FieldChildren(TSNode node) {
    if (ts_node_is_null(node)) return;
    count_ = anchorfs_child_list(node, false, nodes_.data(), fields_.data(), kSmall);
    if (count_ > kSmall) {
      wide_nodes_.resize(count_);
      wide_fields_.resize(count_);
      anchorfs_child_list(node, false, wide_nodes_.data(), wide_fields_.data(), count_);
      nodes_data_ = wide_nodes_.data();
      fields_data_ = wide_fields_.data();
    }
  }
  FieldChildren(const FieldChildren&) = delete;
  FieldChildren& operator=(const FieldChildren&) = delete;

  TSNode operator[](TSFieldId field) const {
    if (field == 0) return TSNode{};
    for (uint32_t i = 0; i < count_; ++i) {
      if (fields_data_[i] == field) return nodes_data_[i];
    }
    return TSNode{};
  }
  // All the children, named and anonymous (AllChildren's list).
  std::span<const TSNode> all() const { return {nodes_data_, count_}; }

 private:
  static constexpr uint32_t kSmall = 16;  // a declaration's or a call's children
  std::array<TSNode, kSmall> nodes_;
  std::array<TSFieldId, kSmall> fields_;
  std::vector<TSNode> wide_nodes_;
  std::vector<TSFieldId> wide_fields_;
  const TSNode* nodes_data_ = nodes_.data();
  const TSFieldId* fields_data_ = fields_.data();
  uint32_t count_ = 0;
};

// Calls f on each child of `node` in field `field`, in order (the children a cursor reports
// with that field id), from one anchorfs_child_list pass.
template <typename F>
void each_in_field(TSNode node, TSFieldId field, F&& f) {
  constexpr uint32_t kSmall = 16;
  std::array<TSNode, kSmall> nodes;
  std::array<TSFieldId, kSmall> fields;
  const uint32_t count = anchorfs_child_list(node, false, nodes.data(), fields.data(), kSmall);
  if (count <= kSmall) {
    for (uint32_t i = 0; i < count; ++i) {
      if (fields[i] == field) f(nodes[i]);
    }
    return;
  }
  std::vector<TSNode> wide_nodes(count);
  std::vector<TSFieldId> wide_fields(count);
  anchorfs_child_list(node, false, wide_nodes.data(), wide_fields.data(), count);
  for (uint32_t i = 0; i < count; ++i) {
    if (wide_fields[i] == field) f(wide_nodes[i]);
  }
}

}  // namespace anchorfs::analysis::code
