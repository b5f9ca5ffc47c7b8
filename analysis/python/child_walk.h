// Collecting a syntax node's children onto a walker's stack (the Python walk, the dense collector).
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <vector>

#include "analysis/code/child_list.h"

namespace anchorfs::analysis::python {

// Children read per call into a buffer on the stack; wider nodes (long bodies, literals) take a
// second call into one their size.
inline constexpr uint32_t kChildBatch = 32;

// Appends n's named children (or all of them) to `stack` as {node, field, kind_of(node)}, in one
// pass over the node's children (anchorfs_child_list): ts_node_named_child(i) rescans from the
// first child and a cursor step costs several times a step of that pass. Field ids cost a
// lookup per child, so they are read only `with_fields` (else 0).
template <typename Child, typename KindOf>
void push_children(std::vector<Child>& stack, TSNode n, bool named_only, bool with_fields,
                   const KindOf& kind_of) {
  TSNode nodes[kChildBatch];
  TSFieldId fields[kChildBatch];
  const uint32_t count =
      anchorfs_child_list(n, named_only, nodes, with_fields ? fields : nullptr, kChildBatch);
  const TSNode* node = nodes;
  const TSFieldId* field = fields;
  std::vector<TSNode> wide_nodes;
  std::vector<TSFieldId> wide_fields;
  if (count > kChildBatch) {
    wide_nodes.resize(count);
    if (with_fields) wide_fields.resize(count);
    anchorfs_child_list(n, named_only, wide_nodes.data(),
                        with_fields ? wide_fields.data() : nullptr, count);
    node = wide_nodes.data();
    field = wide_fields.data();
  }
  for (uint32_t i = 0; i < count; ++i) {
    stack.push_back({node[i], with_fields ? field[i] : TSFieldId{0}, kind_of(node[i])});
  }
}

}  // namespace anchorfs::analysis::python
