// The node kinds and fields of the three grammars (JavaScript, TypeScript, TSX), one table each.
#include "analysis/javascript/node_kinds.h"

namespace anchorfs::analysis::javascript {
namespace {

constexpr code::SymbolKind<Kind> kNamed[] = {
    {"comment", Kind::Comment},
    {"decorator", Kind::Decorator},
    {"function_declaration", Kind::Function},
    {"generator_function_declaration", Kind::Function},
    {"arrow_function", Kind::FunctionValue},
    {"function_expression", Kind::FunctionValue},
    {"generator_function", Kind::FunctionValue},
    {"function_signature", Kind::FunctionOverload},
    {"class_declaration", Kind::Class},
    {"abstract_class_declaration", Kind::Class},
    {"class", Kind::ClassValue},
    {"interface_declaration", Kind::Interface},
    {"internal_module", Kind::Namespace},
    {"module", Kind::Namespace},
    {"ambient_declaration", Kind::Ambient},
    {"method_definition", Kind::Method},
    {"method_signature", Kind::MethodOverload},
    {"abstract_method_signature", Kind::MethodOverload},
    {"field_definition", Kind::Field},
    {"public_field_definition", Kind::Field},
    {"lexical_declaration", Kind::Declaration},
    {"variable_declaration", Kind::Declaration},
    {"variable_declarator", Kind::Declarator},
    {"expression_statement", Kind::ExpressionStatement},
    {"assignment_expression", Kind::Assignment},
    {"export_statement", Kind::Export},
    {"import_statement", Kind::Import},
    {"call_expression", Kind::Call},
    {"new_expression", Kind::New},
    {"jsx_opening_element", Kind::Jsx},
    {"jsx_self_closing_element", Kind::Jsx},
    {"identifier", Kind::Identifier},
    {"member_expression", Kind::Member},
    {"this", Kind::This},
    {"super", Kind::Super},
    {"string", Kind::String},
    {"object", Kind::Object},
    {"pair", Kind::Pair},
    {"shorthand_property_identifier", Kind::ShorthandProperty},
    {"object_pattern", Kind::ObjectPattern},
    {"type_annotation", Kind::TypeAnnotation},
    {"formal_parameters", Kind::Parameters},
    {"required_parameter", Kind::RequiredParameter},
    {"optional_parameter", Kind::RequiredParameter},
    {"assignment_pattern", Kind::AssignmentPattern},
    {"import", Kind::DynamicImport},
    {"await_expression", Kind::Await},
    {"parenthesized_expression", Kind::Parenthesized},
};

}  // namespace

// `import` of a dynamic import is an anonymous keyword token in some grammars: it counts too.
NodeKinds::NodeKinds(const TSLanguage* language)
    : symbols(language, kNamed, Kind::Other, {"import"}),
      name(code::field_id(language, "name")),
      body(code::field_id(language, "body")),
      value(code::field_id(language, "value")),
      left(code::field_id(language, "left")),
      right(code::field_id(language, "right")),
      object(code::field_id(language, "object")),
      property(code::field_id(language, "property")),
      function(code::field_id(language, "function")),
      arguments(code::field_id(language, "arguments")),
      constructor(code::field_id(language, "constructor")),
      source(code::field_id(language, "source")),
      declaration(code::field_id(language, "declaration")),
      parameters(code::field_id(language, "parameters")),
      type(code::field_id(language, "type")),
      pattern(code::field_id(language, "pattern")),
      alias(code::field_id(language, "alias")),
      key(code::field_id(language, "key")),
      decorator(code::field_id(language, "decorator")) {}

const NodeKinds& node_kinds(Dialect dialect) {
  static const NodeKinds javascript(grammar_of(Dialect::JavaScript));
  static const NodeKinds typescript(grammar_of(Dialect::TypeScript));
  static const NodeKinds tsx(grammar_of(Dialect::Tsx));
  switch (dialect) {
    case Dialect::JavaScript:
      return javascript;
    case Dialect::TypeScript:
      return typescript;
    case Dialect::Tsx:
      return tsx;
  }
  return javascript;
}

}  // namespace anchorfs::analysis::javascript
