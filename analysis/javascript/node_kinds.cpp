// Node-kind tables of the three grammars (JavaScript, TypeScript, TSX), by symbol id.
#include "analysis/javascript/node_kinds.h"

#include <cstring>
#include <string_view>

namespace anchorfs::analysis::javascript {
namespace {

struct Named {
  const char* name;
  Kind kind;
};

constexpr Named kNamed[] = {
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

TSFieldId field_id(const TSLanguage* language, const char* name) {
  return ts_language_field_id_for_name(language, name, static_cast<uint32_t>(std::strlen(name)));
}

NodeKinds build(Dialect dialect) {
  const TSLanguage* language = grammar_of(dialect);
  NodeKinds k;
  const uint32_t count = ts_language_symbol_count(language);
  k.by_symbol.assign(count, Kind::Other);
  for (uint32_t s = 0; s < count; ++s) {
    const auto symbol = static_cast<TSSymbol>(s);
    const char* name = ts_language_symbol_name(language, symbol);
    if (name == nullptr) continue;
    const bool named = ts_language_symbol_type(language, symbol) == TSSymbolTypeRegular;
    // `import` of a dynamic import is an anonymous keyword token in some grammars: keep it too.
    if (!named && std::strcmp(name, "import") != 0) continue;
    for (const Named& entry : kNamed) {
      if (std::strcmp(entry.name, name) == 0) k.by_symbol[s] = entry.kind;
    }
  }
  k.name = field_id(language, "name");
  k.body = field_id(language, "body");
  k.value = field_id(language, "value");
  k.left = field_id(language, "left");
  k.right = field_id(language, "right");
  k.object = field_id(language, "object");
  k.property = field_id(language, "property");
  k.function = field_id(language, "function");
  k.arguments = field_id(language, "arguments");
  k.constructor = field_id(language, "constructor");
  k.source = field_id(language, "source");
  k.declaration = field_id(language, "declaration");
  k.parameters = field_id(language, "parameters");
  k.type = field_id(language, "type");
  k.pattern = field_id(language, "pattern");
  k.alias = field_id(language, "alias");
  k.key = field_id(language, "key");
  k.decorator = field_id(language, "decorator");
  return k;
}

}  // namespace

const NodeKinds& node_kinds(Dialect dialect) {
  static const NodeKinds javascript = build(Dialect::JavaScript);
  static const NodeKinds typescript = build(Dialect::TypeScript);
  static const NodeKinds tsx = build(Dialect::Tsx);
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
