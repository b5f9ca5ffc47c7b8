// Rust facts of one file: definitions with their tag anchors, `mod`/`use` declarations, call
// sites and the names whose types are evident, in the CodeFacts form of facts_layout.h.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "analysis/code/code_facts.h"

namespace anchorfs::analysis::rust {

// Parses `bytes` once; facts of an unparsable file say only that (never tagged).
code::CodeFacts extract_facts(std::string_view bytes);

}  // namespace anchorfs::analysis::rust
