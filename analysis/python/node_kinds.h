// The one table of tree-sitter-python node kinds and field ids that the Python walk reads.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/code/symbols.h"

namespace anchorfs::analysis::python {

// The node types the walk distinguishes (for the call graph, for the dense view, or both);
// everything else is Other.
enum class NodeKind : uint8_t {
  Other,
  Module,
  Block,
  Identifier,
  Attribute,
  Call,
  ArgumentList,
  KeywordArgument,
  ListSplat,
  DictionarySplat,
  ParenthesizedListSplat,
  Subscript,
  List,
  Tuple,
  Set,
  Dictionary,
  Pair,
  ExpressionList,
  PatternList,
  TuplePattern,
  ListPattern,
  ListSplatPattern,
  DictionarySplatPattern,
  ListComprehension,
  SetComprehension,
  DictionaryComprehension,
  GeneratorExpression,
  ForInClause,
  IfClause,
  ParenthesizedExpression,
  Slice,
  BooleanOperator,
  ComparisonOperator,
  ConditionalExpression,
  NamedExpression,
  Lambda,
  Await,
  Yield,
  String,
  Interpolation,
  ConcatenatedString,
  StringContent,
  StringStart,
  AsPattern,
  AsPatternTarget,
  CasePattern,
  ExpressionStatement,
  Assignment,
  AugmentedAssignment,
  ReturnStatement,
  DeleteStatement,
  RaiseStatement,
  AssertStatement,
  PrintStatement,
  ExecStatement,
  PassStatement,
  BreakStatement,
  ContinueStatement,
  GlobalStatement,
  NonlocalStatement,
  ImportStatement,
  ImportFromStatement,
  FutureImportStatement,
  DottedName,
  AliasedImport,
  RelativeImport,
  ImportPrefix,
  WildcardImport,
  IfStatement,
  ElifClause,
  ElseClause,
  WhileStatement,
  ForStatement,
  TryStatement,
  ExceptClause,
  ExceptGroupClause,
  FinallyClause,
  WithStatement,
  WithClause,
  WithItem,
  MatchStatement,
  CaseClause,
  FunctionDefinition,
  ClassDefinition,
  DecoratedDefinition,
  Decorator,
  Parameters,
  LambdaParameters,
  DefaultParameter,
  TypedParameter,
  TypedDefaultParameter,
  KeywordSeparator,
  PositionalSeparator,
  TypeAliasStatement,
  Type,
  Comment,
  Error,
};

// Symbol -> kind, and the field ids the walk asks for, computed once for the grammar.
struct Grammar {
  Grammar();

  NodeKind kind(TSNode n) const { return kinds.of(n); }

  code::SymbolTable<NodeKind> kinds;
  TSFieldId f_name, f_value, f_left, f_right, f_body, f_function, f_arguments, f_object,
      f_attribute, f_subscript, f_key, f_parameters, f_superclasses, f_definition, f_module_name,
      f_alias, f_alternative, f_condition, f_consequence, f_subject;
};

const Grammar& grammar();

// A child collected onto a walker's stack (child_walk.h).
struct Child {
  TSNode node;
  TSFieldId field;
  NodeKind kind;
};

// The bytes of node n in `text` (empty if the node lies outside it).
inline std::string_view node_text(std::string_view text, TSNode n) {
  const uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > e || e > text.size()) return {};
  return text.substr(b, e - b);
}

// The value of a string literal without prefix, escapes or interpolation; nullopt otherwise.
// Both outputs read literals this one way: dictionary keys and indices for the call graph,
// configuration keys and decorator arguments for the dense view.
std::optional<std::string> plain_string(TSNode n, std::string_view text);

}  // namespace anchorfs::analysis::python
