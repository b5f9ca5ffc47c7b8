// Dense-view syntax facts of one Python file (settings, environment, constants, I/O, data,
// decorators).
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "analysis/python/facts.h"

namespace anchorfs::analysis::python {

// Longest decorator text kept for a REGISTERED_BY label (bytes, before "...").
inline constexpr size_t kMaxDecoratorText = 60;

// Walks the syntax tree `root` of `text` a second time and fills `facts.dense`, interning new
// strings into `facts.strings`. `facts` must be what extract_facts produced for the same tree:
// facts are attributed to its class and function scopes. Leaves `facts.dense` empty for files
// that did not parse cleanly, and when the tree's definitions do not line up with the scopes.
void extract_dense(TSNode root, std::string_view text, FileFacts& facts);

}  // namespace anchorfs::analysis::python
