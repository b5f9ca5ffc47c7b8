// Where black wants no tag block: between a flow-control line and the definition opening its body.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

namespace anchorfs::analysis::python {

// The compound statement (`if`, `for`, `while`, `with`, `try`, `match`) whose clause body starts
// with `outer` (a definition, or its decorated form) right after the clause's colon; a null node
// otherwise. black writes an empty line between `if x:` (`else:`, `try:`, ...) and such a
// definition, but none between that line and a comment, and strip would take an empty line below
// a block for its separator: a block goes above the compound statement instead.
// `text` is the source the tree was parsed from.
TSNode flow_control_host(std::string_view text, TSNode outer);

}  // namespace anchorfs::analysis::python
