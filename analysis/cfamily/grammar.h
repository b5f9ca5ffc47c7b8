// tree-sitter-c and tree-sitter-cpp node types as one small enum, looked up once per grammar
// symbol for the extractor's walk; and which grammar a file is parsed with.
#pragma once

#include <tree_sitter/api.h>

#include <array>
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

// The fields the extractor reads.
enum class Field : uint8_t {
  Alternative,
  Argument,
  Arguments,
  Body,
  Condition,
  Declarator,
  DefaultValue,
  Field,
  Function,
  Name,
  Operator,
  Parameters,
  Path,
  Scope,
  Type,
  Value,
};
inline constexpr size_t kFieldCount = static_cast<size_t>(Field::Value) + 1;
using FieldIds = std::array<TSFieldId, kFieldCount>;

// Each field's id in the grammar of `dialect`, looked up once: tree-sitter finds a field by name
// by comparing the name with every field of the grammar, which was most of a walk's field reads.
const FieldIds& field_ids(Dialect dialect);

// The kind of `node` in the grammar of `dialect`.
Node kind_of(TSNode node, Dialect dialect);

const TSLanguage* grammar_of(Dialect dialect);

}  // namespace anchorfs::analysis::cfamily
