// A bounded parse: a syntax tree that would outgrow its memory budget is no tree at all.
#include "analysis/code/syntax.h"

#include <cstdint>

#include "analysis/parse_budget.h"

namespace anchorfs::analysis::code {
namespace {

// libtree-sitter 0.20.7 corrupts its heap freeing the tree it built for bytes with about 65,000
// brackets open at once (error recovery, whatever the grammar: ts_tree_delete aborts with
// "munmap_chunk(): invalid pointer"). No real source nests so deep; such bytes get no tree.
constexpr int64_t kMaxOpenBrackets = 50000;

bool nests_too_deep(std::string_view bytes) {
  int64_t open = 0;
  for (const char c : bytes) {
    if (c == '(' || c == '[' || c == '{') {
      if (++open > kMaxOpenBrackets) return true;
    } else if ((c == ')' || c == ']' || c == '}') && open > 0) {
      --open;
    }
  }
  return false;
}

}  // namespace

ParsedTree::ParsedTree(TSParser* parser, const TSLanguage* language, std::string_view bytes) {
  if (bytes.size() > UINT32_MAX || nests_too_deep(bytes) ||
      !ts_parser_set_language(parser, language)) {
    return;
  }
  {
    const ParseBudget budget(parser, parse_budget_bytes(bytes.size()));
    tree_ = ts_parser_parse_string(parser, nullptr, bytes.data(),
                                   static_cast<uint32_t>(bytes.size()));
  }
  if (tree_ == nullptr) ts_parser_reset(parser);
}

}  // namespace anchorfs::analysis::code
