// A bounded parse: a syntax tree that would outgrow its memory budget is no tree at all.
#include "analysis/code/syntax.h"

#include <cstdint>

#include "analysis/parse_budget.h"

namespace anchorfs::analysis::code {

ParsedTree::ParsedTree(const TSLanguage* language, std::string_view bytes) {
  TSParser* parser = arena_.parser();
  if (bytes.size() > UINT32_MAX || nests_too_deep_to_parse(bytes) ||
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
