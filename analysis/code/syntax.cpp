// A bounded parse: a syntax tree that would outgrow its memory budget is no tree at all.
#include "analysis/code/syntax.h"

#include <cstdint>

#include "analysis/parse_budget.h"

namespace anchorfs::analysis::code {
namespace {

// tree-sitter 0.20 keeps a subtree's depth in 16 bits: a tree nested deeper than 65535 levels
// corrupts the heap when it is deleted (200k `(` in a row does it). Brackets are counted without
// regard to strings or comments, so this errs on the side of no tree; real code is nowhere near.
constexpr int64_t kMaxBracketNesting = 30000;

bool nests_too_deep(std::string_view bytes) {
  int64_t depth = 0;
  for (const char c : bytes) {
    if (c == '(' || c == '[' || c == '{') {
      if (++depth > kMaxBracketNesting) return true;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
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
