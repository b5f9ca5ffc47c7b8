// Keeps a brace-language file's tag anchors clear of its syntax errors.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "analysis/code/code_facts.h"

namespace anchorfs::analysis::code {

// Records how many error regions `root` has and drops every anchor (the file's included) that a
// block could not take without sitting inside one or between one and its definition
// (analysis/error_regions.h). A tree whose root is itself an error is not tagged at all.
void clear_anchors_at_errors(TSNode root, std::string_view bytes, CodeFacts& facts);

}  // namespace anchorfs::analysis::code
