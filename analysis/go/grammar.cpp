// The node kinds and fields the Go extractor reads, looked up once in tree-sitter-go.
#include "analysis/go/grammar.h"

#include <iterator>
#include <string_view>
#include <vector>

#include "analysis/code/child_list.h"
#include "analysis/code/symbols.h"

namespace anchorfs::analysis::go {
namespace {

constexpr code::SymbolKind<Node> kNamed[] = {
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

constexpr std::string_view kFieldNames[] = {
    "alias",    "arguments", "body",    "element", "field",          "function",
    "index",    "left",      "name",    "operand", "package",        "parameters",
    "path",     "receiver",  "result",  "right",   "type",           "type_arguments",
    "type_parameters",       "value"};
static_assert(std::size(kFieldNames) == static_cast<size_t>(Field::Value) + 1);

}  // namespace

TSFieldId field_id(Field f) {
  static const std::vector<TSFieldId> ids = [] {
    std::vector<TSFieldId> v;
    for (const std::string_view name : kFieldNames) {
      v.push_back(code::field_id(tree_sitter_go(), name));
    }
    return v;
  }();
  return ids[static_cast<size_t>(f)];
}

TSNode child(TSNode node, Field f) {
  return anchorfs_child_by_field(node, field_id(f));
}

Node kind_of(TSNode node) {
  static const code::SymbolTable<Node> table(tree_sitter_go(), kNamed, Node::Other);
  return table.of(node);
}

}  // namespace anchorfs::analysis::go
