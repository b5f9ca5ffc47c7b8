// tree-sitter-go's node types as a small enum, looked up once by symbol for the extractor's walk.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>

extern "C" const TSLanguage* tree_sitter_go();

namespace anchorfs::analysis::go {

// The node types the extractor treats specially; everything else is Other (walked through).
enum class Node : uint8_t {
  Other,
  PackageClause,
  ImportSpec,
  FunctionDeclaration,
  MethodDeclaration,
  TypeDeclaration,
  TypeSpec,
  VarSpec,
  ConstSpec,
  ShortVarDeclaration,
  RangeClause,
  TypeSwitchStatement,
  FuncLiteral,
  CallExpression,
  SelectorExpression,
  QualifiedType,
  Comment,
  Literal,  // strings and runes: nothing inside is walked
};

// The fields the extractor reads, their ids looked up once (by name, tree-sitter compares
// strings with every field of the grammar).
enum class Field : uint8_t {
  Alias,
  Arguments,
  Body,
  Element,
  Field,
  Function,
  Index,
  Left,
  Name,
  Operand,
  Package,
  Parameters,
  Path,
  Receiver,
  Result,
  Right,
  Type,
  TypeArguments,
  TypeParameters,
  Value,
};

// The grammar's id of field `f`.
TSFieldId field_id(Field f);

// The child of `node` in `f`, or a null node.
TSNode child(TSNode node, Field f);

// The kind of `node` (a table indexed by grammar symbol, built on first use).
Node kind_of(TSNode node);

}  // namespace anchorfs::analysis::go
