// The symbol-to-kind tables of tree-sitter-c and tree-sitter-cpp.
#include "analysis/cfamily/grammar.h"

#include <cstring>
#include <vector>

namespace anchorfs::analysis::cfamily {
namespace {

struct Named {
  const char* name;
  Node kind;
};

constexpr Named kNamed[] = {
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

std::vector<Node> build_table(const TSLanguage* language) {
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

const TSLanguage* grammar_of(Dialect dialect) {
  return dialect == Dialect::Cpp ? tree_sitter_cpp() : tree_sitter_c();
}

Node kind_of(TSNode node, Dialect dialect) {
  static const std::vector<Node> c = build_table(tree_sitter_c());
  static const std::vector<Node> cpp = build_table(tree_sitter_cpp());
  const std::vector<Node>& table = dialect == Dialect::Cpp ? cpp : c;
  const TSSymbol symbol = ts_node_symbol(node);
  return symbol < table.size() ? table[symbol] : Node::Other;
}

}  // namespace anchorfs::analysis::cfamily
