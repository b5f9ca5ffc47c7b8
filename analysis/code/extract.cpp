// The shared extraction prologue: layout, bounded parse, file anchor, walk, error anchors.
#include "analysis/code/extract.h"

#include "analysis/code/anchors.h"
#include "analysis/code/error_anchors.h"
#include "analysis/code/syntax.h"
#include "analysis/code/text_layout.h"

namespace anchorfs::analysis::code {

CodeFacts extract(std::string_view bytes, const ExtractRules& rules,
                  const std::function<void(TSNode root, CodeFacts& facts)>& walk) {
  CodeFacts facts;
  set_layout(facts, bytes);
  const ParsedTree tree(rules.grammar, bytes);
  if (!tree) return facts;
  const TSNode root = tree.root();
  facts.parsed_cleanly = true;
  if (const auto anchor = file_anchor(bytes, rules.shebang, rules.separated)) {
    facts.has_file_anchor = true;
    facts.file_anchor = *anchor;
  }
  walk(root, facts);
  if (rules.errors_clear_anchors) clear_anchors_at_errors(root, bytes, facts);
  return facts;
}

}  // namespace anchorfs::analysis::code
