// The symbol-to-kind table of tree-sitter-go.
#include "analysis/go/grammar.h"

#include <cstring>
#include <iterator>
#include <vector>

namespace anchorfs::analysis::go {
namespace {

struct Named {
  const char* name;
  Node kind;
};

constexpr Named kNamed[] = {
    {"package_clause", Node::PackageClause},
    {"import_spec", Node::ImportSpec},
    {"function_declaration", Node::FunctionDeclaration},
    {"method_declaration", Node::MethodDeclaration},
    {"type_declaration", Node::TypeDeclaration},
    {"type_spec", Node::TypeSpec},
    {"var_spec", Node::VarSpec},
    {"const_spec", Node::ConstSpec},
    {"short_var_declaration", Node::ShortVarDeclaration},
    {"range_clause", Node::RangeClause},
    {"type_switch_statement", Node::TypeSwitchStatement},
    {"func_literal", Node::FuncLiteral},
    {"call_expression", Node::CallExpression},
    {"selector_expression", Node::SelectorExpression},
    {"qualified_type", Node::QualifiedType},
    {"comment", Node::Comment},
    {"interpreted_string_literal", Node::Literal},
    {"raw_string_literal", Node::Literal},
    {"rune_literal", Node::Literal},
};

constexpr const char* kFieldNames[] = {
    "alias", "arguments", "body", "element", "field",           "function", "index",    "left",
    "name",  "operand",   "package",        "parameters",      "path",     "receiver", "result",
    "right", "type",      "type_arguments", "type_parameters", "value"};
static_assert(std::size(kFieldNames) == static_cast<size_t>(Field::Value) + 1);

std::vector<Node> build_table() {
  const TSLanguage* language = tree_sitter_go();
  const uint32_t count = ts_language_symbol_count(language);
  std::vector<Node> table(count, Node::Other);
  for (uint32_t s = 0; s < count; ++s) {
    const auto symbol = static_cast<TSSymbol>(s);
    if (ts_language_symbol_type(language, symbol) != TSSymbolTypeRegular) continue;
    const char* name = ts_language_symbol_name(language, symbol);
    if (name == nullptr) continue;
    for (const Named& entry : kNamed) {
      if (std::strcmp(entry.name, name) == 0) table[s] = entry.kind;
    }
  }
  return table;
}

}  // namespace

TSNode child(TSNode node, Field f) {
  static const std::vector<TSFieldId> ids = [] {
    std::vector<TSFieldId> v;
    for (const char* name : kFieldNames) {
      v.push_back(ts_language_field_id_for_name(tree_sitter_go(), name,
                                                static_cast<uint32_t>(std::strlen(name))));
    }
    return v;
  }();
  return ts_node_child_by_field_id(node, ids[static_cast<size_t>(f)]);
}

Node kind_of(TSNode node) {
  static const std::vector<Node> table = build_table();
  const TSSymbol symbol = ts_node_symbol(node);
  return symbol < table.size() ? table[symbol] : Node::Other;
}

}  // namespace anchorfs::analysis::go
