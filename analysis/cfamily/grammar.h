// tree-sitter-c and tree-sitter-cpp node types as one small enum, looked up once per grammar
// symbol for the extractor's walk; and which grammar a file is parsed with.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>

extern "C" const TSLanguage* tree_sitter_c();
extern "C" const TSLanguage* tree_sitter_cpp();

namespace anchorfs::analysis::cfamily {

enum class Dialect : uint8_t { C, Cpp };

// The node types the extractor treats specially; everything else is Other (walked through).
enum class Node : uint8_t {
  Other,
  FunctionDefinition,
  Declaration,  // declaration, field_declaration: prototypes, locals, fields
  ParameterList,
  StructLike,  // struct_specifier, union_specifier, class_specifier
  EnumSpecifier,
  TypeDefinition,
  Namespace,
  Template,  // template_declaration
  Linkage,   // extern "C" { ... }
  PreprocInclude,
  PreprocFunctionDef,
  PreprocOther,  // #define without parameters and other directives: nothing to walk
  Call,
  New,
  Lambda,
  Comment,
  Literal,  // strings and characters: nothing inside is walked
};

// The kind of `node` in the grammar of `dialect`.
Node kind_of(TSNode node, Dialect dialect);

const TSLanguage* grammar_of(Dialect dialect);

}  // namespace anchorfs::analysis::cfamily
