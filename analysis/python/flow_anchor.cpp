// The compound statement above which a definition opening a flow-control body gets its block.
#include "analysis/python/flow_anchor.h"

#include <string_view>

namespace anchorfs::analysis::python {
namespace {

std::string_view type_of(TSNode n) {
  return ts_node_type(n);
}

bool is_compound(std::string_view t) {
  return t == "if_statement" || t == "for_statement" || t == "while_statement" ||
         t == "with_statement" || t == "try_statement";
}

bool is_continuation(std::string_view t) {
  return t == "elif_clause" || t == "else_clause" || t == "except_clause" ||
         t == "except_group_clause" || t == "finally_clause";
}

// False when the source before `begin` cannot end in a clause's colon: the last byte that is not
// ASCII white space is an ASCII byte other than ':' (a BOM or other white space the grammar
// skips is not ASCII, so it is left to the tree). Nearly every definition is ruled out so,
// without ts_node_parent, which searches down from the root: 0.35 % of a sympy analysis.
bool may_follow_colon(std::string_view text, uint32_t begin) {
  for (size_t i = begin < text.size() ? begin : text.size(); i > 0; --i) {
    const unsigned char c = static_cast<unsigned char>(text[i - 1]);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') continue;
    return c == ':' || c >= 0x80;
  }
  return false;
}

}  // namespace

TSNode flow_control_host(std::string_view text, TSNode outer) {
  const TSNode none{};
  if (!may_follow_colon(text, ts_node_start_byte(outer))) return none;
  const TSNode body = ts_node_parent(outer);
  if (ts_node_is_null(body) || type_of(body) != "block") return none;
  // A comment before the definition (in the body or between colon and body) keeps black from
  // wanting the empty line, so the block stays directly above the definition.
  if (!ts_node_eq(ts_node_child(body, 0), outer)) return none;
  const TSNode colon = ts_node_prev_sibling(body);
  if (ts_node_is_null(colon) || type_of(colon) != ":") return none;
  const TSNode clause = ts_node_parent(body);
  if (ts_node_is_null(clause)) return none;
  const std::string_view t = type_of(clause);
  if (is_compound(t)) return clause;
  if (is_continuation(t)) {
    const TSNode statement = ts_node_parent(clause);
    return !ts_node_is_null(statement) && is_compound(type_of(statement)) ? statement : none;
  }
  if (t == "case_clause") {
    const TSNode cases = ts_node_parent(clause);
    const TSNode match = ts_node_is_null(cases) ? none : ts_node_parent(cases);
    return !ts_node_is_null(match) && type_of(match) == "match_statement" ? match : none;
  }
  return none;
}

}  // namespace anchorfs::analysis::python
