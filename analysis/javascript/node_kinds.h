// The JavaScript/TypeScript node types and fields the extractor reads, looked up once per grammar.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>

#include "analysis/code/symbols.h"
#include "analysis/javascript/dialect.h"

namespace anchorfs::analysis::javascript {

enum class Kind : uint8_t {
  Other,
  Comment,
  Decorator,
  Function,         // function_declaration, generator_function_declaration
  FunctionValue,    // arrow_function, function_expression, generator_function
  FunctionOverload, // function_signature (an overload or a body-less declaration)
  Class,            // class_declaration, abstract_class_declaration
  ClassValue,       // class (an expression)
  Interface,
  Namespace,  // internal_module (namespace X {}), module (module X {})
  Ambient,    // declare ...: no bodies, nothing to tag
  Method,     // method_definition
  MethodOverload,  // method_signature, abstract_method_signature in a class body
  Field,           // field_definition, public_field_definition
  Declaration,     // lexical_declaration, variable_declaration
  Declarator,      // variable_declarator
  ExpressionStatement,
  Assignment,
  Export,
  Import,
  Call,
  New,
  Jsx,  // jsx_opening_element, jsx_self_closing_element
  Identifier,
  Member,  // member_expression
  This,
  Super,
  String,
  Object,
  Pair,
  ShorthandProperty,
  ObjectPattern,
  TypeAnnotation,
  Parameters,
  RequiredParameter,  // required_parameter, optional_parameter
  AssignmentPattern,
  DynamicImport,  // the `import` of import("x")
  Await,
  Parenthesized,
};

struct NodeKinds {
  explicit NodeKinds(const TSLanguage* language);

  code::SymbolTable<Kind> symbols;
  TSFieldId name, body, value, left, right, object, property, function, arguments, constructor,
      source, declaration, parameters, type, pattern, alias, key, decorator;

  Kind of(TSNode node) const { return symbols.of(node); }
};

// Built on first use, one table per grammar; safe to call from several threads.
const NodeKinds& node_kinds(Dialect dialect);

}  // namespace anchorfs::analysis::javascript
