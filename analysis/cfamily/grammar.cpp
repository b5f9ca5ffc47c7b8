// The node kinds the C and C++ extractor reads, one symbol table per grammar.
#include "analysis/cfamily/grammar.h"

#include "analysis/code/symbols.h"

namespace anchorfs::analysis::cfamily {
namespace {

constexpr code::SymbolKind<Node> kNamed[] = {
    {"function_definition", Node::FunctionDefinition},
    {"declaration", Node::Declaration},
    {"field_declaration", Node::Declaration},
    {"parameter_list", Node::ParameterList},
    {"struct_specifier", Node::StructLike},
    {"union_specifier", Node::StructLike},
    {"class_specifier", Node::StructLike},
    {"enum_specifier", Node::EnumSpecifier},
    {"type_definition", Node::TypeDefinition},
    {"namespace_definition", Node::Namespace},
    {"template_declaration", Node::Template},
    {"linkage_specification", Node::Linkage},
    {"preproc_include", Node::PreprocInclude},
    {"preproc_function_def", Node::PreprocFunctionDef},
    {"preproc_def", Node::PreprocOther},
    {"preproc_call", Node::PreprocOther},
    {"call_expression", Node::Call},
    {"new_expression", Node::New},
    {"lambda_expression", Node::Lambda},
    {"comment", Node::Comment},
    {"string_literal", Node::Literal},
    {"raw_string_literal", Node::Literal},
    {"concatenated_string", Node::Literal},
    {"char_literal", Node::Literal},
    {"system_lib_string", Node::Literal},
};

constexpr std::string_view kFieldNames[kFieldCount] = {
    "alternative",   "argument", "arguments", "body",  "condition", "declarator",
    "default_value", "field",    "function",  "name",  "operator",  "parameters",
    "path",          "scope",    "type",      "value",
};

FieldIds look_up_fields(const TSLanguage* language) {
  FieldIds ids{};
  for (size_t f = 0; f < kFieldCount; ++f) ids[f] = code::field_id(language, kFieldNames[f]);
  return ids;
}

}  // namespace

const FieldIds& field_ids(Dialect dialect) {
  static const FieldIds c = look_up_fields(tree_sitter_c());
  static const FieldIds cpp = look_up_fields(tree_sitter_cpp());
  return dialect == Dialect::Cpp ? cpp : c;
}

const TSLanguage* grammar_of(Dialect dialect) {
  return dialect == Dialect::Cpp ? tree_sitter_cpp() : tree_sitter_c();
}

Node kind_of(TSNode node, Dialect dialect) {
  static const code::SymbolTable<Node> c(tree_sitter_c(), kNamed, Node::Other);
  static const code::SymbolTable<Node> cpp(tree_sitter_cpp(), kNamed, Node::Other);
  return (dialect == Dialect::Cpp ? cpp : c).of(node);
}

}  // namespace anchorfs::analysis::cfamily
