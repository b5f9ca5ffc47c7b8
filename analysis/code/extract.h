// The one prologue and epilogue of every brace-language extraction around a front end's walk.
#pragma once

#include <tree_sitter/api.h>

#include <functional>
#include <string_view>

#include "analysis/code/code_facts.h"

namespace anchorfs::analysis::code {

struct ExtractRules {
  const TSLanguage* grammar = nullptr;
  // A first "#!" line keeps the file's block below it (code::file_anchor).
  bool shebang = false;
  // The front end separates its blocks (TagSyntax::separate_blocks): the file block stays at the
  // very start even above empty lines (code::file_anchor).
  bool separated = false;
  // Syntax errors drop the anchors they rule out (code::clear_anchors_at_errors). C's anchors
  // are decided by its own preprocessor-level scan instead: a tag line at a line start it allows
  // is whitespace to the compiler however tree-sitter read the macros around it.
  bool errors_clear_anchors = true;
};

// The facts of one file: its layout always; when it parses within its budget, parsed_cleanly
// and the file's anchor, then `walk` over the syntax tree (which clears parsed_cleanly when the
// tree is deeper than code::kMaxDepth), then the anchors syntax errors rule out are dropped.
CodeFacts extract(std::string_view bytes, const ExtractRules& rules,
                  const std::function<void(TSNode root, CodeFacts& facts)>& walk);

}  // namespace anchorfs::analysis::code
