// Python facts extraction: one tree-sitter parse of a file's bytes into FileFacts.
#pragma once

#include <string_view>

#include "analysis/python/facts.h"
#include "analysis/python/nesting.h"

struct TSParser;

namespace anchorfs::analysis::python {

// Parses `bytes` (in a ParseArena, with the arena's parser) and extracts its facts
// in one walk of the tree, the dense view's facts too when `dense`. The facts are compact
// (docs/extraction.md): opaque lists hold only sub-expressions with effects, operator chains are
// one opaque expression, and there is one Name expression per (scope, name).
FileFacts extract_facts(std::string_view bytes, bool dense = true);

}  // namespace anchorfs::analysis::python
