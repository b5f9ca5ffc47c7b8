// Java extraction: an explicit-stack walk (no recursion, so absurd nesting cannot overflow the
// stack) recording definitions, imports, calls and typed names.
#include "analysis/java/extract.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/code/anchors.h"
#include "analysis/code/extract.h"
#include "analysis/code/stops.h"
#include "analysis/code/symbols.h"
#include "analysis/code/syntax.h"
#include "analysis/code/walk.h"
#include "analysis/java/grammar.h"

namespace anchorfs::analysis::java {
namespace {

using code::line_of;
using code::text_of;
using code::type_of;

// The grammar's field ids, looked up once (tree-sitter 0.20 finds an id by name by comparing it
// with every field name).
struct FieldIds {
  TSFieldId arguments;
  TSFieldId body;
  TSFieldId constructor;
  TSFieldId dimensions;
  TSFieldId element;
  TSFieldId field;
  TSFieldId interfaces;
  TSFieldId left;
  TSFieldId name;
  TSFieldId object;
  TSFieldId operand;
  TSFieldId operator_;
  TSFieldId parameters;
  TSFieldId right;
  TSFieldId scope;
  TSFieldId superclass;
  TSFieldId type;
  TSFieldId type_parameters;
  TSFieldId value;
};

const FieldIds& fields() {
  static const FieldIds ids = [] {
    auto id = [](std::string_view name) { return code::field_id(tree_sitter_java(), name); };
    return FieldIds{id("arguments"),  id("body"),      id("constructor"), id("dimensions"),
                    id("element"),    id("field"),     id("interfaces"),  id("left"),
                    id("name"),       id("object"),    id("operand"),     id("operator"),
                    id("parameters"), id("right"),     id("scope"),       id("superclass"),
                    id("type"),       id("type_parameters"), id("value")};
  }();
  return ids;
}

TSNode by_field(TSNode node, TSFieldId id) {
  return anchorfs_child_by_field(node, id);
}

bool is_comment(TSNode node) {
  const std::string_view type = type_of(node);
  return type == "line_comment" || type == "block_comment";
}

// A type as written, annotations and generic arguments removed: "Map.Entry", "String[]", "int".
std::string type_name(TSNode node, std::string_view bytes) {
  if (ts_node_is_null(node)) return {};
  const std::string_view type = type_of(node);
  if (type == "type_identifier" || type == "identifier") return std::string(text_of(node, bytes));
  if (type == "scoped_type_identifier") {
    std::string out;
    for (const TSNode part : code::NamedChildren(node)) {
      const std::string_view part_type = type_of(part);
      if (part_type == "annotation" || part_type == "marker_annotation" || is_comment(part)) {
        continue;
      }
      if (!out.empty()) out += '.';
      out += type_name(part, bytes);
    }
    return out;
  }
  if (type == "generic_type") return type_name(code::NamedChildren(node)[0], bytes);
  if (type == "array_type") return type_name(by_field(node, fields().element), bytes) + "[]";
  if (type == "annotated_type") {
    const code::NamedChildren parts(node);
    return type_name(parts[parts.size() - 1], bytes);
  }
  return std::string(text_of(node, bytes));  // a primitive type: never a repository type
}

// "a.b.c" for an identifier or scoped_identifier, whatever spacing sits between the parts.
std::string dotted(TSNode node, std::string_view bytes) {
  if (type_of(node) == "scoped_identifier") {
    return dotted(by_field(node, fields().scope), bytes) + "." +
           std::string(text_of(by_field(node, fields().name), bytes));
  }
  return std::string(text_of(node, bytes));
}

uint32_t named_count_without_comments(TSNode node);

// Calls nested deeper than this in a receiver (`a.b().c().d()...`) are not recorded.
constexpr int kMaxReceiverCalls = 32;

// A call receiver whose static type is evident: a name ("x", "this", "super", "a.b",
// "Outer.this"), an instance creation ("new T"), a cast ("(T)"), or the result of a call written
// "name(N)" with its argument count N after a receiver of these forms or alone ("doc.first(1)",
// "settings(0)", "a.b(0).c"); "" for any other expression.
std::string receiver_name(TSNode node, std::string_view bytes, int calls = 0) {
  std::string_view type = type_of(node);
  while (type == "parenthesized_expression" && ts_node_named_child_count(node) == 1) {
    node = code::NamedChildren(node)[0];
    type = type_of(node);
  }
  if (type == "object_creation_expression") {
    const TSNode created = by_field(node, fields().type);
    for (const TSNode child : code::NamedChildren(node)) {
      if (type_of(child) == "class_body") return {};  // anonymous
    }
    const std::string name = type_name(created, bytes);
    return name.empty() ? std::string() : "new " + name;
  }
  if (type == "cast_expression") {
    const std::string name = type_name(by_field(node, fields().type), bytes);
    return name.empty() ? std::string() : "(" + name + ")";
  }
  if (type == "identifier" || type == "this" || type == "super") {
    return std::string(text_of(node, bytes));
  }
  if (type == "method_invocation") {
    if (calls >= kMaxReceiverCalls) return {};
    const TSNode object_node = by_field(node, fields().object);
    const TSNode name = by_field(node, fields().name);
    for (const TSNode child : code::AllChildren(node)) {
      if (type_of(child) == "super" && !ts_node_eq(child, object_node)) return {};  // I.super.m()
    }
    const TSNode arguments = by_field(node, fields().arguments);
    const std::string call = std::string(text_of(name, bytes)) + "(" +
                             std::to_string(ts_node_is_null(arguments)
                                                ? 0
                                                : named_count_without_comments(arguments)) +
                             ")";
    if (ts_node_is_null(object_node)) return call;
    const std::string object = receiver_name(object_node, bytes, calls + 1);
    if (object.empty() || object.starts_with("new ") || object.starts_with("(")) return {};
    return object + "." + call;
  }
  if (type == "field_access") {
    const TSNode object_node = by_field(node, fields().object);
    const std::string_view object_type = type_of(object_node);
    if (object_type != "identifier" && object_type != "this" && object_type != "super" &&
        object_type != "field_access" && object_type != "method_invocation") {
      return {};
    }
    const std::string object = receiver_name(object_node, bytes, calls + 1);
    if (object.starts_with("new ") || object.starts_with("(")) return {};
    const TSNode name = by_field(node, fields().field);
    if (object.empty() || ts_node_is_null(name)) return {};
    return object + "." + std::string(text_of(name, bytes));
  }
  return {};
}

uint32_t named_count_without_comments(TSNode node) {
  uint32_t count = 0;
  for (const TSNode child : code::NamedChildren(node)) count += !is_comment(child);
  return count;
}

// The access words among a declaration's modifiers, read in one pass over its children.
struct Access {
  bool is_public = false;
  bool is_private = false;
};
Access access_of(std::span<const TSNode> declaration_children, std::string_view bytes) {
  Access out;
  for (const TSNode child : declaration_children) {
    if (type_of(child) != "modifiers") continue;
    for (const TSNode modifier : code::AllChildren(child)) {
      const std::string_view word = text_of(modifier, bytes);
      out.is_public = out.is_public || word == "public";
      out.is_private = out.is_private || word == "private";
    }
  }
  return out;
}

// What the walk does at a node, by grammar symbol (one table lookup instead of comparing names).
enum class Kind : uint8_t {
  Descend,  // nothing of its own: its children are walked
  Skip,     // comments, modifiers (annotations hold constants only), module declarations
  Package,
  Import,
  TypeDeclaration,
  Method,
  Creation,
  EnumConstant,
  Invocation,
  ExplicitConstructor,
  Variables,
  DeclaredVariable,
  Instanceof,
  TypePattern,
  Lambda,
};

constexpr code::SymbolKind<Kind> kNamed[] = {
    {"line_comment", Kind::Skip},
    {"block_comment", Kind::Skip},
    {"modifiers", Kind::Skip},
    {"module_declaration", Kind::Skip},
    {"package_declaration", Kind::Package},
    {"import_declaration", Kind::Import},
    {"class_declaration", Kind::TypeDeclaration},
    {"interface_declaration", Kind::TypeDeclaration},
    {"enum_declaration", Kind::TypeDeclaration},
    {"record_declaration", Kind::TypeDeclaration},
    {"annotation_type_declaration", Kind::TypeDeclaration},
    {"method_declaration", Kind::Method},
    {"constructor_declaration", Kind::Method},
    {"compact_constructor_declaration", Kind::Method},
    {"object_creation_expression", Kind::Creation},
    {"enum_constant", Kind::EnumConstant},
    {"method_invocation", Kind::Invocation},
    {"explicit_constructor_invocation", Kind::ExplicitConstructor},
    {"field_declaration", Kind::Variables},
    {"constant_declaration", Kind::Variables},
    {"local_variable_declaration", Kind::Variables},
    {"formal_parameter", Kind::DeclaredVariable},
    {"spread_parameter", Kind::DeclaredVariable},
    {"catch_formal_parameter", Kind::DeclaredVariable},
    {"enhanced_for_statement", Kind::DeclaredVariable},
    {"resource", Kind::DeclaredVariable},
    {"instanceof_expression", Kind::Instanceof},
    {"type_pattern", Kind::TypePattern},
    {"lambda_expression", Kind::Lambda},
};

const code::SymbolTable<Kind>& kinds() {
  static const code::SymbolTable<Kind> table(tree_sitter_java(), kNamed, Kind::Descend);
  return table;
}

Kind kind_of(TSNode node) { return kinds().of(node); }

// What anchorfs_stops does at each symbol (code/stops.h): the walk stops at every node with work
// of its own, a declaration with where it sits among its siblings (its attached comments), and
// passes over what it skips.
const std::vector<uint8_t>& stop_actions() {
  static const std::vector<uint8_t> table = [] {
    std::vector<uint8_t> out(kinds().size(), ANCHORFS_DESCEND);
    for (size_t s = 0; s < out.size(); ++s) {
      switch (kinds().at(static_cast<TSSymbol>(s))) {
        case Kind::Descend:
          break;
        case Kind::Skip:
          out[s] = ANCHORFS_DROP;
          break;
        case Kind::TypeDeclaration:
        case Kind::Method:
        case Kind::EnumConstant:
          out[s] = ANCHORFS_STOP_LISTED;
          break;
        default:
          out[s] = ANCHORFS_STOP;
      }
    }
    return out;
  }();
  return table;
}

// An argument expression's form, by grammar symbol (argument_type asks it of every argument;
// a chain of name comparisons cost more than the rest of the answer). "true", "false" and "this"
// are matched as tokens too, as the names compared before were.
enum class Arg : uint8_t {
  Other,
  Parenthesized,
  Integer,
  Floating,
  Character,
  Boolean,
  String,
  Null,
  This,
  Identifier,
  FieldAccess,
  Creation,
  Cast,
  Invocation,
  Unary,
  Binary,
};

constexpr code::SymbolKind<Arg> kArgs[] = {
    {"parenthesized_expression", Arg::Parenthesized},
    {"decimal_integer_literal", Arg::Integer},
    {"hex_integer_literal", Arg::Integer},
    {"octal_integer_literal", Arg::Integer},
    {"binary_integer_literal", Arg::Integer},
    {"decimal_floating_point_literal", Arg::Floating},
    {"hex_floating_point_literal", Arg::Floating},
    {"character_literal", Arg::Character},
    {"true", Arg::Boolean},
    {"false", Arg::Boolean},
    {"string_literal", Arg::String},
    {"null_literal", Arg::Null},
    {"this", Arg::This},
    {"identifier", Arg::Identifier},
    {"field_access", Arg::FieldAccess},
    {"object_creation_expression", Arg::Creation},
    {"cast_expression", Arg::Cast},
    {"method_invocation", Arg::Invocation},
    {"unary_expression", Arg::Unary},
    {"binary_expression", Arg::Binary},
};

Arg arg_of(TSNode node) {
  static const code::SymbolTable<Arg> table(tree_sitter_java(), kArgs, Arg::Other,
                                            {"true", "false", "this"});
  return table.of(node);
}

class Extractor {
 public:
  Extractor(std::string_view bytes, code::CodeFacts& facts) : bytes_(bytes), facts_(facts) {
    type_parameters_.emplace_back();
  }

  void run(TSNode root) {
    push_stops(root, 0);
    while (!stack_.empty()) {
      frame_ = stack_.back();
      stack_.pop_back();
      visit(frame_.node, frame_.scope);
    }
  }

 private:
  static constexpr uint32_t kUnknown = UINT32_MAX;

  struct Frame {
    TSNode node;
    uint32_t scope;
    uint32_t attached_from = kUnknown;  // code::attached_start, when the push found it
  };

  void push(TSNode node, uint32_t scope) {
    if (!ts_node_is_null(node)) stack_.push_back({node, scope});
  }
  // The nodes under `node` with work of their own (anchorfs_stops: a Descend node's children are
  // looked at in the same pass, not visited one by one), pushed last first so they are visited in
  // source order, as push_children would reach them. A declaration's attached comments are read
  // from its parent's child list, listed once for all the declarations in it.
  void push_stops(TSNode node, uint32_t scope) {
    const std::vector<uint8_t>& actions = stop_actions();
    uint32_t count = anchorfs_stops(node, actions.data(), static_cast<uint32_t>(actions.size()),
                                    stops_.data(), static_cast<uint32_t>(stops_.size()));
    if (count == UINT32_MAX) return push_children(node, scope);  // hidden nodes nested absurdly
    if (count > stops_.size()) {
      stops_.resize(count);
      anchorfs_stops(node, actions.data(), static_cast<uint32_t>(actions.size()), stops_.data(),
                     count);
    }
    for (uint32_t i = count; i-- > 0;) {
      const AnchorfsStop& stop = stops_[i];
      Frame frame{stop.node, scope};
      if (!ts_node_is_null(stop.parent)) {
        if (!ts_node_eq(stop.parent, siblings_of_)) {
          list_children(stop.parent, siblings_);
          siblings_of_ = stop.parent;
        }
        frame.attached_from = ts_node_start_byte(
            code::attached_start(stop.node, bytes_, {"line_comment", "block_comment"},
                                 std::span<const TSNode>(siblings_.data(), stop.index)));
      }
      stack_.push_back(frame);
    }
  }

  // All of node's children (named and anonymous) into `list` (grown to hold them); how many.
  static uint32_t list_children(TSNode node, std::vector<TSNode>& list) {
    const uint32_t count = anchorfs_child_list(node, /*named_only=*/false, list.data(), nullptr,
                                               static_cast<uint32_t>(list.size()));
    if (count > list.size()) {
      list.resize(count);
      anchorfs_child_list(node, false, list.data(), nullptr, count);
    }
    return count;
  }

  // Named children with children of their own (no leaf matters to the walk), pushed last first so
  // they are visited in source order (definitions are numbered in source order, a parent before
  // its children). The children are listed in one pass (anchorfs_child_list: a cursor step costs
  // several times a listed child); a declaration's attached comments are read back from the
  // list, where add_definition without it asks ts_node_prev_sibling, which searches down from
  // the root (quadratic in a class's members: 1.9 % of java/util's export instructions).
  void push_children(TSNode node, uint32_t scope) {
    const uint32_t count = list_children(node, children_);
    const size_t first = stack_.size();
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode child = children_[i];
      if (!ts_node_is_named(child) || ts_node_child_count(child) == 0) continue;
      Frame frame{child, scope};
      if (const Kind kind = kind_of(child);
          kind == Kind::TypeDeclaration || kind == Kind::Method || kind == Kind::EnumConstant) {
        frame.attached_from = ts_node_start_byte(
            code::attached_start(child, bytes_, {"line_comment", "block_comment"},
                                 std::span<const TSNode>(children_.data(), i)));
      }
      stack_.push_back(frame);
    }
    std::reverse(stack_.begin() + static_cast<std::ptrdiff_t>(first), stack_.end());
  }

  void visit(TSNode node, uint32_t scope) {
    switch (kind_of(node)) {
      case Kind::Skip:
        return;
      case Kind::Package:
        for (const TSNode child : code::NamedChildren(node)) {
          const std::string_view child_type = type_of(child);
          if (child_type == "identifier" || child_type == "scoped_identifier") {
            facts_.package = dotted(child, bytes_);
          }
        }
        return;
      case Kind::Import:
        return import(node);
      case Kind::TypeDeclaration:
        return type_declaration(node, type_of(node), scope);
      case Kind::Method:
        return method(node, type_of(node), scope);
      case Kind::Creation:
        return creation(node, scope);
      case Kind::EnumConstant:
        return enum_constant(node, scope);
      case Kind::Invocation:
        return invocation(node, scope);
      case Kind::ExplicitConstructor:
        add_call(scope, code::CallForm::Construct, "",
                 std::string(text_of(by_field(node, fields().constructor), bytes_)), node,
                 by_field(node, fields().arguments));
        return push_stops(node, scope);
      case Kind::Variables:
        return variables(node, scope);
      case Kind::DeclaredVariable:
        declared_variable(node, scope);
        return push_stops(node, scope);
      case Kind::Instanceof: {
        const TSNode name = by_field(node, fields().name);
        if (!ts_node_is_null(name)) {
          add_typed(scope, name, declared_type(by_field(node, fields().right), scope));
        }
        return push_stops(node, scope);
      }
      case Kind::TypePattern: {
        const code::NamedChildren parts(node);
        return add_typed(scope, parts[parts.size() - 1], declared_type(parts[0], scope));
      }
      case Kind::Lambda:
        return lambda(node, scope);
      case Kind::Descend:
        return push_stops(node, scope);
    }
  }

  void import(TSNode node) {
    code::Import out;
    out.line = line_of(node);
    bool is_static = false;
    bool wildcard = false;
    std::string name;
    for (const TSNode child : code::AllChildren(node)) {
      const std::string_view type = type_of(child);
      if (type == "static") is_static = true;
      if (type == "asterisk") wildcard = true;
      if (type == "identifier" || type == "scoped_identifier") name = dotted(child, bytes_);
    }
    if (name.empty()) return;
    if (wildcard) {
      out.source = name;
      out.name = "*";
    } else if (is_static) {
      const size_t dot = name.rfind('.');
      if (dot == std::string::npos) return;
      out.source = name.substr(0, dot);
      out.name = name.substr(dot + 1);
    } else {
      out.source = name;
    }
    facts_.imports.push_back(std::move(out));
  }

  // A new definition under `parent`, its tag block above its doc comments and annotations when
  // that is the start of a line (annotations belong to the declaration's own modifiers node).
  uint32_t add_definition(TSNode node, EntityKind kind, uint32_t parent, std::string name,
                          std::string role, TSNode name_node) {
    code::Definition d;
    d.kind = kind;
    d.parent = parent;
    d.name = std::move(name);
    d.role = std::move(role);
    d.line = line_of(ts_node_is_null(name_node) ? node : name_node);
    if (d.role != "anonymous") {
      const uint32_t from =
          ts_node_eq(node, frame_.node) && frame_.attached_from != kUnknown
              ? frame_.attached_from
              : ts_node_start_byte(
                    code::attached_start(node, bytes_, {"line_comment", "block_comment"}));
      if (const auto line = code::own_line_start(bytes_, from)) {
        d.has_anchor = true;
        d.anchor_offset = *line;
        d.anchor_indent = std::string(code::indent_at(bytes_, *line));
      }
    }
    facts_.definitions.push_back(std::move(d));
    type_parameters_.emplace_back();
    anonymous_counts_.push_back(0);
    return static_cast<uint32_t>(facts_.definitions.size() - 1);
  }

  // A definition's type parameters with their erasures (the first bound as written,
  // "java.lang.Object" when unbounded).
  void record_type_parameters(TSNode parameters, uint32_t definition) {
    if (ts_node_is_null(parameters)) return;
    for (const TSNode parameter : code::NamedChildren(parameters)) {
      if (type_of(parameter) != "type_parameter") continue;
      std::string name;
      std::string erasure = "java.lang.Object";
      for (const TSNode part : code::NamedChildren(parameter)) {
        if (type_of(part) == "type_identifier" && name.empty()) {
          name = std::string(text_of(part, bytes_));
        } else if (type_of(part) == "type_bound" && ts_node_named_child_count(part) > 0) {
          // `T extends A & B`: A alone would accept what B rejects.
          erasure = named_count_without_comments(part) == 1
                        ? type_name(code::NamedChildren(part)[0], bytes_)
                        : std::string();
        }
      }
      if (!name.empty()) type_parameters_[definition].push_back({name, erasure});
    }
    // A bound naming a type parameter (`<T, U extends T>`) is not evident.
    for (auto& [name, erasure] : type_parameters_[definition]) {
      if (type_variable(erasure, definition).has_value()) erasure.clear();
    }
  }

  // The bases of a type declaration as written: superclass, then interfaces.
  void add_bases(TSNode list, code::Definition& d) {
    if (ts_node_is_null(list)) return;
    const std::string_view type = type_of(list);
    if (type == "superclass") {
      d.bases.push_back(type_name(code::NamedChildren(list)[0], bytes_));
      return;
    }
    for (const TSNode child : code::NamedChildren(list)) {
      if (type_of(child) == "type_list") {
        for (const TSNode base : code::NamedChildren(child)) {
          if (!is_comment(base)) d.bases.push_back(type_name(base, bytes_));
        }
      }
    }
  }

  void type_declaration(TSNode node, std::string_view type, uint32_t scope) {
    static constexpr std::pair<std::string_view, std::string_view> kRoles[] = {
        {"class_declaration", "class"},         {"interface_declaration", "interface"},
        {"enum_declaration", "enum"},           {"record_declaration", "record"},
        {"annotation_type_declaration", "annotation"}};
    std::string role;
    for (const auto& [node_type, word] : kRoles) {
      if (node_type == type) role = word;
    }
    const code::FieldChildren parts(node);  // its fields, listed once
    const TSNode name = parts[fields().name];
    const uint32_t d = add_definition(node, EntityKind::Class, scope,
                                      std::string(text_of(name, bytes_)), role, name);
    record_type_parameters(parts[fields().type_parameters], d);
    code::Definition& def = facts_.definitions[d];
    def.exported = access_of(parts.all(), bytes_).is_public;
    add_bases(parts[fields().superclass], def);
    add_bases(parts[fields().interfaces], def);
    for (const TSNode child : parts.all()) {
      if (type_of(child) == "extends_interfaces") add_bases(child, facts_.definitions[d]);
    }
    if (role == "record") {
      // Record components are its fields.
      const code::NamedChildren components(parts[fields().parameters]);
      for (const TSNode component : components) {
        if (!is_comment(component)) declared_variable(component, d);
      }
      record_components_.resize(facts_.definitions.size());
      for (const TSNode component : components) {
        if (is_comment(component)) continue;
        const bool plain = type_of(component) == "formal_parameter" && !variable_dimensions(component);
        const std::string written = plain ? type_name(by_field(component, fields().type), bytes_)
                                          : std::string();
        record_components_[d].push_back(type_variable(written, d).has_value() ? std::string()
                                                                               : written);
      }
    }
    push(parts[fields().body], d);
  }

  void method(TSNode node, std::string_view type, uint32_t scope) {
    const bool constructor = type != "method_declaration";
    const code::FieldChildren parts(node);  // its fields, listed once
    const TSNode name = parts[fields().name];
    const uint32_t d = add_definition(node, EntityKind::Function, scope,
                                      std::string(text_of(name, bytes_)),
                                      constructor ? "constructor" : "method", name);
    record_type_parameters(parts[fields().type_parameters], d);
    code::Definition& def = facts_.definitions[d];
    const Access access = access_of(parts.all(), bytes_);
    def.exported = access.is_public;
    def.private_scope = access.is_private;
    const TSNode parameters = parts[fields().parameters];
    if (type == "compact_constructor_declaration") {
      if (scope < record_components_.size()) def.parameter_types = record_components_[scope];
      def.arity = static_cast<uint32_t>(def.parameter_types.size());
    } else {
      for (const TSNode parameter : code::NamedChildren(parameters)) {
        const std::string_view kind = type_of(parameter);
        if (kind == "formal_parameter") {
          // variable_dimensions and spread_element of a formal parameter, from one list.
          const code::FieldChildren listed(parameter);
          ++def.arity;
          def.variadic = false;
          def.parameter_types.push_back(!ts_node_is_null(listed[fields().dimensions])
                                            ? std::string()
                                            : parameter_type(listed[fields().type], d));
          continue;
        }
        if (kind != "spread_parameter") continue;
        ++def.arity;
        def.variadic = true;
        def.parameter_types.push_back(variable_dimensions(parameter)
                                          ? std::string()
                                          : parameter_type(spread_element(parameter), d));
      }
    }
    if (!constructor) {
      // Its result type, under a name no variable can have.
      facts_.typed_names.push_back({d, "return", declared_type(parts[fields().type], d)});
    }
    push(parts[fields().body], d);
    if (type != "compact_constructor_declaration") push(parameters, d);  // visited first
  }

  void creation(TSNode node, uint32_t scope) {
    const TSNode type = by_field(node, fields().type);
    const std::string name = type_name(type, bytes_);
    add_call(scope, code::CallForm::Construct, "", name, node, by_field(node, fields().arguments));
    TSNode body{};
    const code::NamedChildren children(node);
    for (uint32_t i = children.size(); i-- > 0;) {
      const TSNode child = children[i];
      if (type_of(child) == "class_body") {
        body = child;
      } else if (!ts_node_eq(child, type)) {
        push(child, scope);
      }
    }
    if (ts_node_is_null(body)) return;
    const uint32_t n = ++anonymous_counts_[scope];
    const uint32_t d = add_definition(node, EntityKind::Class, scope,
                                      "<anonymous" + std::to_string(n) + ">", "anonymous", type);
    facts_.definitions[d].bases.push_back(name);
    // Visited before the arguments pushed above: its definitions follow it in source order.
    push(body, d);
  }

  void enum_constant(TSNode node, uint32_t scope) {
    const std::string enum_name = facts_.definitions[scope].name;  // definitions may grow
    const TSNode arguments = by_field(node, fields().arguments);
    if (!ts_node_is_null(arguments)) {
      add_call(scope, code::CallForm::Construct, "", enum_name, node, arguments);
    }
    const TSNode body = by_field(node, fields().body);
    if (!ts_node_is_null(body)) {
      const TSNode name = by_field(node, fields().name);
      const uint32_t d = add_definition(node, EntityKind::Class, scope,
                                        std::string(text_of(name, bytes_)), "enum_constant", name);
      facts_.definitions[d].bases.push_back(enum_name);
      push(body, d);
    }
    push(arguments, scope);
  }

  void invocation(TSNode node, uint32_t scope) {
    const code::FieldChildren parts(node);  // its fields, listed once
    const TSNode object = parts[fields().object];
    const std::string name(text_of(parts[fields().name], bytes_));
    const TSNode arguments = parts[fields().arguments];
    if (ts_node_is_null(object)) {
      add_call(scope, code::CallForm::Plain, "", name, node, arguments);
    } else {
      std::string receiver = receiver_name(object, bytes_);
      // `I.super.m()`: the `super` between the object and the name is no field of its own.
      if (!receiver.empty()) {
        for (const TSNode child : parts.all()) {
          if (type_of(child) == "super" && !ts_node_eq(child, object)) receiver += ".super";
        }
      }
      if (!receiver.empty()) {
        add_call(scope, code::CallForm::Member, std::move(receiver), name, node, arguments);
      }
    }
    push(arguments, scope);
    push(object, scope);
  }

  void add_call(uint32_t scope, code::CallForm form, std::string receiver, std::string name,
                TSNode node, TSNode arguments) {
    if (name.empty()) return;
    code::Call call;
    call.scope = scope;
    call.form = form;
    call.receiver = std::move(receiver);
    call.name = std::move(name);
    call.line = line_of(node);
    if (!ts_node_is_null(arguments)) {
      for (const TSNode argument : code::NamedChildren(arguments)) {
        if (!is_comment(argument)) call.argument_types.push_back(argument_type(argument, scope));
      }
    }
    call.arity = static_cast<uint32_t>(call.argument_types.size());
    facts_.calls.push_back(std::move(call));
  }

  // An argument's static type where the expression shows it (see extract.h), else "".
  std::string argument_type(TSNode node, uint32_t scope, int depth = 0) const {
    Arg kind = arg_of(node);
    while (kind == Arg::Parenthesized && ts_node_named_child_count(node) == 1) {
      node = code::NamedChildren(node)[0];
      kind = arg_of(node);
    }
    if (kind == Arg::Integer) {
      const std::string_view text = text_of(node, bytes_);
      return text.ends_with('l') || text.ends_with('L') ? "long" : "int";
    }
    if (kind == Arg::Floating) {
      const std::string_view text = text_of(node, bytes_);
      return text.ends_with('f') || text.ends_with('F') ? "float" : "double";
    }
    if (kind == Arg::Character) return "char";
    if (kind == Arg::Boolean) return "boolean";
    if (kind == Arg::String) return "java.lang.String";
    if (kind == Arg::Null) return "null";
    if (kind == Arg::This) return "this";
    if (kind == Arg::Identifier) return "var:" + std::string(text_of(node, bytes_));
    if (kind == Arg::FieldAccess) {
      const TSNode object = by_field(node, fields().object);
      const TSNode field = by_field(node, fields().field);
      if ((type_of(object) == "identifier" || type_of(object) == "this") &&
          type_of(field) == "identifier") {
        return "var:" + std::string(text_of(object, bytes_)) + "." +
               std::string(text_of(field, bytes_));
      }
      return {};
    }
    if (kind == Arg::Creation) {
      return ts_node_is_null(value_class_body(node))
                 ? declared_type(by_field(node, fields().type), scope)
                 : std::string();
    }
    if (kind == Arg::Cast) return declared_type(by_field(node, fields().type), scope);
    if (kind == Arg::Invocation) {
      // Typed by resolution through the callee's declared result, as a receiver is.
      const std::string chain = receiver_name(node, bytes_);
      return chain.empty() ? std::string() : "call:" + chain;
    }
    if (depth >= kMaxReceiverCalls) return {};
    if (kind == Arg::Unary) {
      // A negated or unary-plus numeric literal keeps the literal's type.
      const std::string_view op = text_of(by_field(node, fields().operator_), bytes_);
      const std::string operand = argument_type(by_field(node, fields().operand), scope, depth + 1);
      const bool numeric = operand == "int" || operand == "long" || operand == "float" ||
                           operand == "double";
      return (op == "-" || op == "+") && numeric &&
                     type_of(by_field(node, fields().operand)).ends_with("literal")
                 ? operand
                 : std::string();
    }
    if (kind == Arg::Binary && text_of(by_field(node, fields().operator_), bytes_) == "+") {
      // String concatenation: a `+` with a string literal (or another concatenation) on a side.
      for (const TSNode side : {by_field(node, fields().left), by_field(node, fields().right)}) {
        const std::string_view side_type = type_of(side);
        if ((side_type == "string_literal" || side_type == "binary_expression") &&
            argument_type(side, scope, depth + 1) == "java.lang.String") {
          return "java.lang.String";
        }
      }
    }
    return {};
  }

  // A formal or spread parameter's type node (a spread parameter's is its element type).
  static TSNode spread_element(TSNode parameter) {
    if (type_of(parameter) == "formal_parameter") return by_field(parameter, fields().type);
    for (const TSNode child : code::NamedChildren(parameter)) {
      const std::string_view type = type_of(child);
      if (type != "modifiers" && type != "annotation" && type != "marker_annotation" &&
          type != "variable_declarator" && !is_comment(child)) {
        return child;
      }
    }
    return TSNode{};
  }

  // `int a[]`: brackets after the name make an array the type node does not show.
  static bool variable_dimensions(TSNode parameter) {
    if (type_of(parameter) == "formal_parameter") {
      return !ts_node_is_null(by_field(parameter, fields().dimensions));
    }
    for (const TSNode child : code::NamedChildren(parameter)) {
      if (type_of(child) == "variable_declarator" &&
          !ts_node_is_null(by_field(child, fields().dimensions))) {
        return true;
      }
    }
    return false;
  }

  // A declared type as written; a type variable's is written "<ERASURE>" (its bound, with any
  // array brackets after it), or "" when the erasure is not evident.
  std::string declared_type(TSNode type, uint32_t scope) const {
    std::string written = type_name(type, bytes_);
    return type_variable(written, scope).value_or(std::move(written));
  }
  // "<ERASURE>[]..." when `written`'s element type is a type parameter of `scope` or around it.
  std::optional<std::string> type_variable(std::string_view written, uint32_t scope) const {
    const std::string_view element = element_of(written);
    for (uint32_t d = scope;; d = facts_.definitions[d].parent) {
      for (const auto& [parameter, erasure] : type_parameters_[d]) {
        if (parameter != element) continue;
        if (erasure.empty()) return std::string();
        return "<" + erasure + ">" + std::string(written.substr(element.size()));
      }
      if (d == 0) break;
    }
    return std::nullopt;
  }
  static std::string_view element_of(std::string_view written) {
    while (written.ends_with("[]")) written.remove_suffix(2);
    return written;
  }

  // A method's parameter type for choosing among overloads: as written; a type parameter of the
  // method itself as "<ERASURE>"; one of an enclosing class is not evident (""), since the
  // receiver's type arguments replace it.
  std::string parameter_type(TSNode type, uint32_t method) const {
    const std::string written = type_name(type, bytes_);
    const std::string_view element = element_of(written);
    for (const auto& [parameter, erasure] : type_parameters_[method]) {
      if (parameter == element) return type_variable(written, method).value_or(std::string());
    }
    return type_variable(written, method).has_value() ? std::string() : written;
  }

  void add_typed(uint32_t scope, TSNode name, std::string type) {
    if (ts_node_is_null(name) || type_of(name) != "identifier") return;
    facts_.typed_names.push_back({scope, std::string(text_of(name, bytes_)), std::move(type)});
  }

  // A parameter, resource, catch or for-each variable: one name, one type.
  void declared_variable(TSNode node, uint32_t scope) {
    // Its fields, listed once; a named child's type is never an anonymous token's text.
    const code::FieldChildren parts(node);
    const std::string_view node_type = type_of(node);
    TSNode type = parts[fields().type];
    if (node_type == "catch_formal_parameter") {
      for (const TSNode child : parts.all()) {
        if (type_of(child) == "catch_type" && ts_node_named_child_count(child) == 1) {
          type = code::NamedChildren(child)[0];
        }
      }
    }
    TSNode name = parts[fields().name];
    if (node_type == "spread_parameter") {
      for (const TSNode child : parts.all()) {
        if (type_of(child) == "variable_declarator") name = by_field(child, fields().name);
      }
      add_typed(scope, name, {});  // an array of the written type
      return;
    }
    if (ts_node_is_null(name)) return;  // `try (existing)`
    std::string written = ts_node_is_null(type) ? std::string() : declared_type(type, scope);
    if (!ts_node_is_null(parts[fields().dimensions])) written.clear();
    add_typed(scope, name, std::move(written));
  }

  void variables(TSNode node, uint32_t scope) {
    const TSNode type = by_field(node, fields().type);
    const bool inferred = text_of(type, bytes_) == "var";
    const std::string written = inferred ? std::string() : declared_type(type, scope);
    for (const TSNode declarator : code::NamedChildren(node)) {
      if (type_of(declarator) != "variable_declarator") continue;
      const TSNode value = by_field(declarator, fields().value);
      std::string declared = written;
      if (inferred && !ts_node_is_null(value) && type_of(value) == "object_creation_expression" &&
          ts_node_is_null(value_class_body(value))) {
        declared = declared_type(by_field(value, fields().type), scope);
      } else if (inferred && !ts_node_is_null(value) && type_of(value) == "method_invocation") {
        declared = receiver_name(value, bytes_);  // resolution types it by the call's result
      }
      if (!ts_node_is_null(by_field(declarator, fields().dimensions))) declared.clear();
      add_typed(scope, by_field(declarator, fields().name), std::move(declared));
      push(value, scope);
    }
  }

  static TSNode value_class_body(TSNode creation) {
    for (const TSNode child : code::NamedChildren(creation)) {
      if (type_of(child) == "class_body") return child;
    }
    return TSNode{};
  }

  // Lambda parameters have no evident type: they are recorded untyped so they hide any field of
  // the same name; the body's calls belong to the enclosing definition.
  void lambda(TSNode node, uint32_t scope) {
    const TSNode parameters = by_field(node, fields().parameters);
    if (type_of(parameters) == "identifier") {
      add_typed(scope, parameters, {});
    } else if (type_of(parameters) == "inferred_parameters") {
      for (const TSNode parameter : code::NamedChildren(parameters)) {
        add_typed(scope, parameter, {});
      }
    } else {
      push(parameters, scope);
    }
    push(by_field(node, fields().body), scope);
  }

  std::string_view bytes_;
  code::CodeFacts& facts_;
  std::vector<Frame> stack_;
  Frame frame_{};  // the frame being visited
  std::vector<TSNode> children_ = std::vector<TSNode>(64);  // push_children's list, reused
  std::vector<AnchorfsStop> stops_ = std::vector<AnchorfsStop>(256);  // push_stops', reused
  TSNode siblings_of_{};                                     // whose children siblings_ lists
  std::vector<TSNode> siblings_ = std::vector<TSNode>(64);
  // By definition: its type parameters (name, erasure).
  std::vector<std::vector<std::pair<std::string, std::string>>> type_parameters_;
  std::vector<uint32_t> anonymous_counts_{0};              // by definition
  // By definition (records only): its components' types, as a compact constructor's parameters.
  std::vector<std::vector<std::string>> record_components_;
};

}  // namespace

// Comments may precede `package`; a block above the first line keeps it the first declaration.
code::CodeFacts extract_facts(std::string_view bytes) {
  return code::extract(
      bytes, {.grammar = tree_sitter_java()},
      [&](TSNode root, code::CodeFacts& facts) { Extractor(bytes, facts).run(root); });
}

}  // namespace anchorfs::analysis::java
