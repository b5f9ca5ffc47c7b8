// The JavaScript/TypeScript extractor: definitions with their anchors, imports and exports, call
// sites and evidently typed names, in one recursive walk of the syntax tree.
#include "analysis/javascript/extract.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/code/anchors.h"
#include "analysis/code/extract.h"
#include "analysis/code/syntax.h"
#include "analysis/code/walk.h"
#include "analysis/javascript/node_kinds.h"

namespace anchorfs::analysis::javascript {
namespace {

using code::CallForm;
using code::CodeFacts;
using code::Definition;
using code::text_of;

bool is_identifier_text(std::string_view text) {
  if (text.empty()) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return c == '_' || c == '$' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || static_cast<unsigned char>(c) >= 0x80;
  });
}

// A node's type; "" for a null node (an absent field), which tree-sitter would dereference.
std::string_view type_name(TSNode node) {
  return ts_node_is_null(node) ? std::string_view{} : std::string_view(ts_node_type(node));
}

// The text of a string literal without its quotes.
std::string_view string_value(TSNode node, std::string_view bytes) {
  const std::string_view text = text_of(node, bytes);
  if (text.size() < 2) return {};
  return text.substr(1, text.size() - 2);
}

class Walker {
 public:
  Walker(std::string_view bytes, const NodeKinds& k, CodeFacts& facts)
      : bytes_(bytes), k_(k), f_(facts) {}

  void walk(TSNode node, uint32_t scope, uint32_t depth) {
    if (depth > static_cast<uint32_t>(code::kMaxDepth)) {
      f_.parsed_cleanly = false;  // code::kMaxDepth: too deep is served untagged
      return;
    }
    switch (k_.of(node)) {
      case Kind::Comment:
      case Kind::Ambient:
      case Kind::FunctionOverload:
      case Kind::MethodOverload:
        return;
      case Kind::Function:
      case Kind::Class:
      case Kind::Interface:
      case Kind::Namespace:
      case Kind::Declaration:
        declaration(node, scope, depth, node, false);
        return;
      case Kind::Export:
        export_statement(node, scope, depth);
        return;
      case Kind::Import:
        import_statement(node);
        return;
      case Kind::ExpressionStatement: {
        const TSNode inner = code::NamedChildren(node)[0];
        if (!ts_node_is_null(inner) && k_.of(inner) == Kind::Assignment) {
          assignment(inner, scope, depth, node);
          return;
        }
        break;
      }
      case Kind::Assignment:
        assignment(node, scope, depth, node);
        return;
      case Kind::Method:
        method(node, scope, depth);
        return;
      case Kind::Field:
        class_field(node, scope, depth);
        return;
      case Kind::FunctionValue: {
        // An unnamed callback: its calls belong to the enclosing definition. It is no scope of
        // its own, so the names it declares are kept aside while it is walked, and a call
        // through one of them is not recorded (it would resolve to an outer namesake).
        const size_t mark = callback_locals_.size();
        parameters(field(node, k_.parameters), scope, 0, true);
        callback_declarations(field(node, k_.body));
        walk_children(node, scope, depth);
        callback_locals_.resize(mark);
        return;
      }
      case Kind::Call:
        call(node, scope);
        break;
      case Kind::New:
        construct(field(node, k_.constructor), scope, line_of(node));
        break;
      case Kind::Jsx:
        jsx(node, scope);
        break;
      default:
        break;
    }
    walk_children(node, scope, depth);
  }

 private:
  // Absent fields are null nodes; every accessor below takes them (tree-sitter's do not).
  TSNode field(TSNode node, TSFieldId id) const {
    return ts_node_is_null(node) ? node : anchorfs_child_by_field(node, id);
  }
  std::string_view text(TSNode node) const {
    return ts_node_is_null(node) ? std::string_view{} : text_of(node, bytes_);
  }
  static uint32_t line_of(TSNode node) { return code::line_of(node); }

  void walk_children(TSNode node, uint32_t scope, uint32_t depth) {
    if (depth + 1 > static_cast<uint32_t>(code::kMaxDepth)) {
      f_.parsed_cleanly = false;
      return;
    }
    if (ts_node_child_count(node) == 0) return;  // most nodes are leaves: nothing to list
    // Anonymous children too, when they have children of their own. An anonymous leaf (a
    // punctuation or keyword token, a dynamic import's `import` included) takes no case of
    // walk's and is deep only where this node already was: walking it does nothing.
    lists_.each(node, depth, /*named_only=*/false, [&](TSNode child) {
      if (ts_node_is_named(child) || ts_node_child_count(child) > 0) walk(child, scope, depth + 1);
    });
  }

  // --- Definitions ------------------------------------------------------------------------------

  // Where the block of a definition whose statement is `statement` goes: above its doc comments
  // and decorators and the overload signatures before it, when that is the start of a line.
  // The siblings before it are read from the walk's list holding `statement` when there is one
  // (code::ChildLists): ts_node_prev_sibling searches down from the root for each, quadratic in
  // a file's (or a body's) declarations.
  void place_anchor(Definition& def, TSNode statement, std::string_view name) {
    TSNode first = statement;
    if (const code::ChildLists::Level* on = lists_.on(statement)) {
      uint32_t at = on->at;  // where `first` is in on->children
      for (;;) {
        first = code::attached_start(first, bytes_, {"comment", "decorator"},
                                     std::span<const TSNode>(on->children.data(), at));
        while (!ts_node_eq(on->children[at], first)) --at;
        TSNode prev{};
        for (uint32_t i = at; i-- > 0;) {
          if (ts_node_is_named(on->children[i])) {
            prev = on->children[i];
            at = i;
            break;
          }
        }
        if (ts_node_is_null(prev) || !is_overload_of(prev, name)) break;
        first = prev;
      }
    } else {
      for (;;) {
        first = code::attached_start(first, bytes_, {"comment", "decorator"});
        const TSNode prev = ts_node_prev_named_sibling(first);
        if (ts_node_is_null(prev) || !is_overload_of(prev, name)) break;
        first = prev;
      }
    }
    const auto start = code::own_line_start(bytes_, ts_node_start_byte(first));
    if (!start) return;
    def.has_anchor = true;
    def.anchor_offset = *start;
    def.anchor_indent = std::string(code::indent_at(bytes_, *start));
  }

  bool is_overload_of(TSNode node, std::string_view name) const {
    TSNode signature = node;
    if (k_.of(node) == Kind::Export) signature = field(node, k_.declaration);
    if (ts_node_is_null(signature)) return false;
    const Kind kind = k_.of(signature);
    if (kind != Kind::FunctionOverload && kind != Kind::MethodOverload) return false;
    return text(field(signature, k_.name)) == name;
  }

  uint32_t add(EntityKind kind, std::string_view role, std::string_view name, TSNode name_node,
               TSNode statement, uint32_t parent, bool exported) {
    Definition def;
    def.kind = kind;
    def.parent = parent;
    def.name = std::string(name);
    def.line = line_of(name_node);
    def.role = std::string(role);
    def.exported = exported;
    place_anchor(def, statement, name);
    f_.definitions.push_back(std::move(def));
    return static_cast<uint32_t>(f_.definitions.size() - 1);
  }

  // A declaration statement (possibly the `declaration` of an export statement).
  void declaration(TSNode node, uint32_t scope, uint32_t depth, TSNode statement, bool exported) {
    switch (k_.of(node)) {
      case Kind::Function:
        function(node, scope, depth, statement, exported, text(field(node, k_.name)));
        return;
      case Kind::Class:
        class_definition(node, scope, depth, statement, exported, text(field(node, k_.name)));
        return;
      case Kind::Interface:
        interface(node, scope, statement, exported);
        return;
      case Kind::Namespace:
        name_space(node, scope, depth, statement, exported);
        return;
      case Kind::Declaration: {
        bool first = true;
        for (const TSNode child : code::NamedChildren(node)) {
          if (k_.of(child) != Kind::Declarator) continue;
          declarator(child, scope, depth + 1, first ? statement : child, exported);
          first = false;
        }
        return;
      }
      default:
        walk(node, scope, depth);
    }
  }

  // A function declaration or a function value bound to `name`.
  uint32_t function(TSNode node, uint32_t scope, uint32_t depth, TSNode statement, bool exported,
                    std::string_view name, std::string_view role = {},
                    TSNode name_node = TSNode{}) {
    if (name.empty()) {
      walk_children(node, scope, depth);
      return 0;
    }
    if (role.empty()) {
      const std::string_view type = type_name(node);
      role = type.starts_with("generator") ? "generator"
             : type == "arrow_function"       ? "arrow"
                                              : "function";
    }
    if (ts_node_is_null(name_node)) name_node = field(node, k_.name);
    if (ts_node_is_null(name_node)) name_node = node;
    const uint32_t d =
        add(EntityKind::Function, role, name, name_node, statement, scope, exported);
    parameters(field(node, k_.parameters), d, 0);
    const TSNode body = field(node, k_.body);
    if (!ts_node_is_null(body)) walk(body, d, depth + 1);
    return d;
  }

  void class_definition(TSNode node, uint32_t scope, uint32_t depth, TSNode statement,
                        bool exported, std::string_view name) {
    if (name.empty()) {
      walk_children(node, scope, depth);
      return;
    }
    TSNode name_node = field(node, k_.name);
    if (ts_node_is_null(name_node)) name_node = node;
    const uint32_t d = add(EntityKind::Class, "class", name, name_node, statement, scope, exported);
    // class_heritage: JavaScript holds the base expression; TypeScript extends_clause and
    // implements_clause, whose named children are the types.
    for (const TSNode child : code::NamedChildren(node)) {
      if (type_name(child) != "class_heritage") continue;
      for (const TSNode clause : code::NamedChildren(child)) {
        const std::string_view type = type_name(clause);
        if (type == "extends_clause") {
          add_base(d, field(clause, k_.value));
          walk_children(clause, scope, depth + 1);
        } else if (type == "implements_clause") {
          for (const TSNode base : code::NamedChildren(clause)) add_base(d, base);
        } else {
          add_base(d, clause);
          walk(clause, scope, depth + 1);
        }
      }
    }
    const TSNode body = field(node, k_.body);
    if (!ts_node_is_null(body)) walk(body, d, depth + 1);
  }

  void interface(TSNode node, uint32_t scope, TSNode statement, bool exported) {
    const TSNode name_node = field(node, k_.name);
    if (ts_node_is_null(name_node)) return;
    const uint32_t d = add(EntityKind::Class, "interface", text(name_node), name_node, statement,
                           scope, exported);
    for (const TSNode child : code::NamedChildren(node)) {
      if (type_name(child) != "extends_type_clause") continue;
      for (const TSNode base : code::NamedChildren(child)) add_base(d, base);
    }
  }

  // A supertype as written, its type arguments dropped: "Base", "ns.Base".
  void add_base(uint32_t d, TSNode node) {
    if (ts_node_is_null(node)) return;
    if (type_name(node) == "generic_type") node = field(node, k_.name);
    const std::string_view written = text(node);
    if (written.empty() || written.size() > 200) return;
    for (const char c : written) {
      if (!(c == '.' || is_identifier_text(std::string_view(&c, 1)))) return;
    }
    f_.definitions[d].bases.emplace_back(written);
  }

  // `namespace A.B { ... }`: a class-like container (its members' ids are A.B.member).
  // `declare module "x"` (a string name) describes another module: not walked.
  void name_space(TSNode node, uint32_t scope, uint32_t depth, TSNode statement, bool exported) {
    const TSNode name_node = field(node, k_.name);
    if (ts_node_is_null(name_node) || k_.of(name_node) == Kind::String) return;
    const uint32_t d = add(EntityKind::Class, "namespace", text(name_node), name_node, statement,
                           scope, exported);
    const TSNode body = field(node, k_.body);
    if (!ts_node_is_null(body)) walk(body, d, depth + 1);
  }

  void method(TSNode node, uint32_t scope, uint32_t depth) {
    const TSNode name_node = field(node, k_.name);
    const std::string_view name = text(name_node);
    if (!is_identifier_text(name.starts_with('#') ? name.substr(1) : name)) {
      walk_children(node, scope, depth);  // computed names ([Symbol.iterator]) are no entities
      return;
    }
    std::string_view role = "method";
    for (const TSNode child : code::AllChildren(node)) {
      if (ts_node_eq(child, name_node)) break;
      const std::string_view word = type_name(child);
      if (word == "get") role = "getter";
      if (word == "set") role = "setter";
      if (word == "static") role = "static";
    }
    if (name == "constructor") role = "constructor";
    const uint32_t d = add(EntityKind::Function, role, name, name_node, node, scope, false);
    parameters(field(node, k_.parameters), d, role == "constructor" ? scope : 0);
    const TSNode body = field(node, k_.body);
    if (!ts_node_is_null(body)) walk(body, d, depth + 1);
  }

  // A class field: one holding a function is a method-like definition; a typed or constructed
  // one types `this.<name>` within the class.
  void class_field(TSNode node, uint32_t scope, uint32_t depth) {
    TSNode name_node = field(node, k_.property);
    if (ts_node_is_null(name_node)) name_node = field(node, k_.name);
    const std::string_view name = text(name_node);
    const TSNode value = field(node, k_.value);
    if (!ts_node_is_null(value) && k_.of(value) == Kind::FunctionValue &&
        is_identifier_text(name.starts_with('#') ? name.substr(1) : name)) {
      function(value, scope, depth + 1, node, false, name, "field", name_node);
      return;
    }
    if (is_identifier_text(name)) {
      std::string type = annotated_type(field(node, k_.type));
      if (type.empty() && !ts_node_is_null(value)) type = constructed_type(value);
      if (!type.empty()) f_.typed_names.push_back({scope, "this." + std::string(name), type});
    }
    if (!ts_node_is_null(value)) walk(value, scope, depth + 1);
  }

  // `const f = () => ...`, `const C = class {}`, `const x = new X()`, `const m = require("m")`.
  void declarator(TSNode node, uint32_t scope, uint32_t depth, TSNode statement, bool exported) {
    const TSNode name_node = field(node, k_.name);
    TSNode value = field(node, k_.value);
    if (ts_node_is_null(name_node)) return;
    if (k_.of(name_node) != Kind::Identifier) {
      if (k_.of(name_node) == Kind::ObjectPattern && !ts_node_is_null(value) &&
          required_module(value)) {
        destructured_require(name_node, *required_module(value), line_of(node));
        return;
      }
      pattern_locals(name_node, scope);
      if (!ts_node_is_null(value)) walk(value, scope, depth + 1);
      return;
    }
    const std::string_view name = text(name_node);
    if (!ts_node_is_null(value)) {
      while (k_.of(value) == Kind::Parenthesized && ts_node_named_child_count(value) == 1) {
        value = ts_node_named_child(value, 0);
      }
      if (scope == 0) {
        TSNode bound = value;
        while (k_.of(bound) == Kind::Assignment) bound = field(bound, k_.right);
        if (!ts_node_is_null(bound) && k_.of(bound) == Kind::Object) object_vars_.insert(name);
      }
      switch (k_.of(value)) {
        case Kind::FunctionValue:
          function(value, scope, depth + 1, statement, exported, name, {}, name_node);
          return;
        case Kind::ClassValue:
          class_definition(value, scope, depth + 1, statement, exported, name);
          return;
        default:
          break;
      }
      if (const auto module = required_module(value)) {
        f_.imports.push_back({std::string(*module), "", std::string(name), line_of(node), false});
        return;
      }
      // const f = require("m").f
      if (k_.of(value) == Kind::Member) {
        const auto module = required_module(field(value, k_.object));
        const std::string_view member = text(field(value, k_.property));
        if (module && is_identifier_text(member)) {
          f_.imports.push_back(
              {std::string(*module), std::string(member), std::string(name), line_of(node), false});
          return;
        }
      }
    }
    std::string type = annotated_type(field(node, k_.type));
    if (type.empty() && !ts_node_is_null(value)) type = constructed_type(value);
    if (!type.empty() || scope != 0) f_.typed_names.push_back({scope, std::string(name), type});
    if (!ts_node_is_null(value)) walk(value, scope, depth + 1);
  }

  // The module of `require("m")` or `await import("m")` (a string literal argument only).
  std::optional<std::string_view> required_module(TSNode value) const {
    if (ts_node_is_null(value)) return std::nullopt;
    if (k_.of(value) == Kind::Await) value = ts_node_named_child(value, 0);
    if (ts_node_is_null(value) || k_.of(value) != Kind::Call) return std::nullopt;
    const TSNode callee = field(value, k_.function);
    if (ts_node_is_null(callee)) return std::nullopt;
    const bool is_require = k_.of(callee) == Kind::Identifier && text(callee) == "require";
    if (!is_require && k_.of(callee) != Kind::DynamicImport) return std::nullopt;
    const TSNode args = field(value, k_.arguments);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) != 1) return std::nullopt;
    const TSNode arg = ts_node_named_child(args, 0);
    if (k_.of(arg) != Kind::String) return std::nullopt;
    return string_value(arg, bytes_);
  }

  // `const {a, b: c} = require("m")`: named imports of a and b (bound as c).
  void destructured_require(TSNode pattern, std::string_view module, uint32_t line) {
    for (const TSNode child : code::NamedChildren(pattern)) {
      const std::string_view type = type_name(child);
      if (type == "shorthand_property_identifier_pattern") {
        f_.imports.push_back(
            {std::string(module), std::string(text(child)), std::string(text(child)), line, false});
      } else if (type == "pair_pattern") {
        const TSNode key = field(child, k_.key);
        const TSNode local = field(child, k_.value);
        if (k_.of(local) != Kind::Identifier) continue;
        f_.imports.push_back(
            {std::string(module), std::string(text(key)), std::string(text(local)), line, false});
      }
    }
  }

  // Every identifier a binding pattern (an identifier or a destructuring) binds.
  void pattern_names(TSNode pattern, std::vector<std::string_view>& out, int depth = 0) const {
    const std::string_view type = type_name(pattern);
    if (k_.of(pattern) == Kind::Identifier || type == "shorthand_property_identifier_pattern") {
      out.push_back(text(pattern));
      return;
    }
    if (type.find("pattern") == std::string_view::npos || depth > 32) return;
    for (const TSNode child : code::NamedChildren(pattern)) {
      if (ts_node_eq(child, field(pattern, k_.key))) continue;
      if (k_.of(pattern) == Kind::AssignmentPattern && !ts_node_eq(child, field(pattern, k_.left))) {
        continue;
      }
      pattern_names(child, out, depth + 1);
    }
  }

  // Every identifier a destructuring pattern binds, as an untyped local of `scope` that shadows.
  void pattern_locals(TSNode pattern, uint32_t scope) {
    if (scope == 0) return;
    std::vector<std::string_view> names;
    pattern_names(pattern, names);
    for (const std::string_view name : names) f_.typed_names.push_back({scope, std::string(name), ""});
  }

  // The variables a callback's body declares, in nested blocks too (not inside the functions
  // and classes it holds; not those holding functions, classes or modules, which become
  // definitions and imports, nor evidently typed ones).
  void callback_declarations(TSNode body, int depth = 0) {
    if (ts_node_is_null(body) || depth > 64) return;
    for (const TSNode statement : code::NamedChildren(body)) {
      const Kind kind = k_.of(statement);
      if (kind == Kind::FunctionValue || kind == Kind::Function || kind == Kind::Class ||
          kind == Kind::ClassValue) {
        continue;
      }
      if (kind != Kind::Declaration) {
        if (type_name(statement).ends_with("statement") || type_name(statement).ends_with("block") ||
            type_name(statement).ends_with("clause")) {
          callback_declarations(statement, depth + 1);
        }
        continue;
      }
      for (const TSNode declarator : code::NamedChildren(statement)) {
        if (k_.of(declarator) != Kind::Declarator) continue;
        const TSNode value = field(declarator, k_.value);
        const Kind value_kind = k_.of(value);
        if (value_kind == Kind::FunctionValue || value_kind == Kind::ClassValue ||
            required_module(value) || !constructed_type(value).empty() ||
            !annotated_type(field(declarator, k_.type)).empty()) {
          continue;
        }
        pattern_names(field(declarator, k_.name), callback_locals_);
      }
    }
  }

  bool is_callback_local(std::string_view name) const {
    return std::find(callback_locals_.begin(), callback_locals_.end(), name) !=
           callback_locals_.end();
  }

  // Parameters of definition `d`: typed ones type their name; the rest shadow outer names.
  // TypeScript parameter properties (`constructor(private repo: Repo)`) also type
  // `this.repo` in `owner_class`. A callback's (`callback`) untyped parameters, and its typed
  // ones at file level, are kept aside as callback locals.
  void parameters(TSNode params, uint32_t d, uint32_t owner_class, bool callback = false) {
    if (ts_node_is_null(params)) return;
    for (const TSNode param : code::NamedChildren(params)) {
      TSNode pattern = param;
      std::string type;
      bool property = false;
      if (k_.of(param) == Kind::RequiredParameter) {
        pattern = field(param, k_.pattern);
        type = annotated_type(field(param, k_.type));
        for (const TSNode part_node : code::NamedChildren(param)) {
          const std::string_view part = type_name(part_node);
          if (part == "accessibility_modifier" || part == "override_modifier") property = true;
        }
        if (ts_node_is_null(pattern)) continue;
      }
      if (k_.of(pattern) == Kind::AssignmentPattern) pattern = field(pattern, k_.left);
      if (ts_node_is_null(pattern)) continue;
      if (k_.of(pattern) != Kind::Identifier) {
        if (callback) {
          pattern_names(pattern, callback_locals_);
        } else {
          pattern_locals(pattern, d);
        }
        continue;
      }
      const std::string name(text(pattern));
      if (callback && (type.empty() || d == 0)) {
        callback_locals_.push_back(text(pattern));
        continue;
      }
      if (d != 0) f_.typed_names.push_back({d, name, type});
      if (property && owner_class != 0 && !type.empty()) {
        f_.typed_names.push_back({owner_class, "this." + name, type});
      }
    }
  }

  // The type of a `: T` annotation when it names a class-like type: "X", "ns.X" (type arguments
  // dropped); "" for unions, literals, functions and the like.
  std::string annotated_type(TSNode annotation) const {
    if (ts_node_is_null(annotation)) return {};
    TSNode type = annotation;
    if (k_.of(annotation) == Kind::TypeAnnotation) type = code::NamedChildren(annotation)[0];
    if (ts_node_is_null(type)) return {};
    const std::string_view kind = type_name(type);
    if (kind == "generic_type") type = field(type, k_.name);
    else if (kind != "type_identifier" && kind != "nested_type_identifier") return {};
    return std::string(text(type));
  }

  // The class a value is evidently an instance of: `new X(...)`, `new ns.X(...)`.
  std::string constructed_type(TSNode value) const {
    if (k_.of(value) != Kind::New) return {};
    const TSNode ctor = field(value, k_.constructor);
    const std::string_view written = text(ctor);
    if (k_.of(ctor) == Kind::Identifier) return std::string(written);
    if (k_.of(ctor) == Kind::Member && is_dotted_name(ctor)) return std::string(written);
    return {};
  }

  bool is_dotted_name(TSNode node) const {
    for (int hops = 0; hops < 16; ++hops) {
      const Kind kind = k_.of(node);
      if (kind == Kind::Identifier || kind == Kind::This) return true;
      if (kind != Kind::Member) return false;
      const std::string_view property_type = type_name(field(node, k_.property));
      if (property_type != "property_identifier") return false;
      node = field(node, k_.object);
      if (ts_node_is_null(node)) return false;
    }
    return false;
  }

  // --- Modules ----------------------------------------------------------------------------------

  void export_statement(TSNode node, uint32_t scope, uint32_t depth) {
    const TSNode decl = field(node, k_.declaration);
    const TSNode source = field(node, k_.source);
    const uint32_t line = line_of(node);
    if (!ts_node_is_null(decl)) {
      const Kind kind = k_.of(decl);
      if (kind == Kind::FunctionOverload || kind == Kind::Ambient) return;
      const bool is_default = has_default_keyword(node);
      const size_t before = f_.definitions.size();
      declaration(decl, scope, depth + 1, node, scope == 0);
      if (is_default && f_.definitions.size() > before) {
        f_.imports.push_back({"", f_.definitions[before].name, "default", line, true});
      }
      return;
    }
    const TSNode value = field(node, k_.value);
    if (!ts_node_is_null(value)) {
      export_default_value(value, node, scope, depth, line);
      return;
    }
    const std::string module = ts_node_is_null(source) ? "" : std::string(string_value(source, bytes_));
    bool any = false;
    for (const TSNode child : code::NamedChildren(node)) {
      const std::string_view type = type_name(child);
      if (type == "export_clause") {
        for (const TSNode spec : code::NamedChildren(child)) {
          const TSNode name = field(spec, k_.name);
          const TSNode alias = field(spec, k_.alias);
          if (ts_node_is_null(name)) continue;
          const std::string exported(text(ts_node_is_null(alias) ? name : alias));
          f_.imports.push_back({module, std::string(text(name)), exported, line, true});
          any = true;
        }
      } else if (type == "namespace_export") {
        const TSNode alias = ts_node_named_child(child, 0);
        f_.imports.push_back({module, "*", std::string(text(alias)), line, true});
        any = true;
      }
    }
    if (!any && !module.empty()) f_.imports.push_back({module, "*", "", line, true});
  }

  bool has_default_keyword(TSNode node) const {
    for (const TSNode child : code::AllChildren(node)) {
      if (std::string_view(type_name(child)) == "default") return true;
    }
    return false;
  }

  // `export default <expression>`: a named function or class, or a local name.
  void export_default_value(TSNode value, TSNode statement, uint32_t scope, uint32_t depth,
                            uint32_t line) {
    const Kind kind = k_.of(value);
    if (kind == Kind::Identifier) {
      f_.imports.push_back({"", std::string(text(value)), "default", line, true});
      return;
    }
    if (kind == Kind::FunctionValue || kind == Kind::ClassValue) {
      std::string_view name = text(field(value, k_.name));
      if (name.empty()) name = "default";
      const size_t before = f_.definitions.size();
      if (kind == Kind::FunctionValue) {
        function(value, scope, depth + 1, statement, true, name, "function");
      } else {
        class_definition(value, scope, depth + 1, statement, true, name);
      }
      if (f_.definitions.size() > before) {
        f_.imports.push_back({"", std::string(name), "default", line, true});
      }
      return;
    }
    walk(value, scope, depth + 1);
  }

  void import_statement(TSNode node) {
    const uint32_t line = line_of(node);
    const code::NamedChildren children(node);
    TSNode source = field(node, k_.source);
    // `import x = require("m")` (TypeScript): the whole module bound as x.
    for (const TSNode child : children) {
      if (type_name(child) != "import_require_clause") continue;
      const TSNode local = ts_node_named_child(child, 0);
      const TSNode required = field(child, k_.source);
      if (ts_node_is_null(required)) return;
      f_.imports.push_back(
          {std::string(string_value(required, bytes_)), "", std::string(text(local)), line, false});
      return;
    }
    if (ts_node_is_null(source)) return;
    const std::string module(string_value(source, bytes_));
    bool bound = false;
    for (const TSNode clause : children) {
      if (type_name(clause) != "import_clause") continue;
      for (const TSNode part : code::NamedChildren(clause)) {
        const std::string_view type = type_name(part);
        if (k_.of(part) == Kind::Identifier) {
          f_.imports.push_back({module, "default", std::string(text(part)), line, false});
          bound = true;
        } else if (type == "namespace_import") {
          const TSNode alias = ts_node_named_child(part, 0);
          f_.imports.push_back({module, "*", std::string(text(alias)), line, false});
          bound = true;
        } else if (type == "named_imports") {
          for (const TSNode spec : code::NamedChildren(part)) {
            const TSNode name = field(spec, k_.name);
            const TSNode alias = field(spec, k_.alias);
            if (ts_node_is_null(name)) continue;
            const std::string local(text(ts_node_is_null(alias) ? name : alias));
            f_.imports.push_back({module, std::string(text(name)), local, line, false});
            bound = true;
          }
        }
      }
    }
    if (!bound) f_.imports.push_back({module, "", "", line, false});
  }

  // `exports.f = ...`, `module.exports = ...`, `X.prototype.m = function`, `X.m = function`,
  // `this.x = new X()`.
  void assignment(TSNode node, uint32_t scope, uint32_t depth, TSNode statement) {
    const TSNode left = field(node, k_.left);
    TSNode right = field(node, k_.right);
    if (ts_node_is_null(left) || ts_node_is_null(right)) return walk_children(node, scope, depth);
    const std::string_view target = text(left);
    const uint32_t line = line_of(node);
    if (target == "module.exports") {
      module_exports(right, statement, scope, depth, line);
      return;
    }
    if (k_.of(left) == Kind::Member && scope == 0) {
      const TSNode object = field(left, k_.object);
      const std::string_view object_text = text(object);
      const std::string_view property = text(field(left, k_.property));
      if ((object_text == "exports" || object_text == "module.exports") &&
          is_identifier_text(property)) {
        if (k_.of(right) == Kind::FunctionValue) {
          function(right, scope, depth + 1, statement, true, property, "function");
          return;
        }
        if (k_.of(right) == Kind::ClassValue) {
          class_definition(right, scope, depth + 1, statement, true, property);
          return;
        }
        if (k_.of(right) == Kind::Identifier) {
          f_.imports.push_back({"", std::string(text(right)), std::string(property), line, true});
          return;
        }
      }
      // X.prototype.m = function () {}: a method of X when X is defined above in this file.
      if (k_.of(right) == Kind::FunctionValue && k_.of(object) == Kind::Member &&
          text(field(object, k_.property)) == "prototype" && is_identifier_text(property)) {
        const std::string_view owner = text(field(object, k_.object));
        if (const uint32_t parent = top_level_definition(owner)) {
          function(right, parent, depth + 1, statement, false, property, "method");
          return;
        }
      }
      // X.m = function () {}: a static member of a class or function X defined above in this
      // file; on a file-level object X, a function "X.m" of its own (owner X).
      if (k_.of(right) == Kind::FunctionValue && k_.of(object) == Kind::Identifier &&
          is_identifier_text(property)) {
        const std::string_view owner = object_text;
        const uint32_t parent = top_level_definition(owner);
        if (parent != 0 && (f_.definitions[parent].kind == EntityKind::Function ||
                            f_.definitions[parent].role == "class")) {
          function(right, parent, depth + 1, statement, false, property, "static");
          return;
        }
        if (parent == 0 && object_vars_.count(owner) > 0) {
          const std::string name = std::string(owner) + "." + std::string(property);
          const uint32_t d = function(right, 0, depth + 1, statement, false, name, "property",
                                      field(left, k_.property));
          f_.definitions[d].owner = std::string(owner);
          return;
        }
      }
    }
    if (k_.of(left) == Kind::Member && k_.of(field(left, k_.object)) == Kind::This) {
      const std::string type = constructed_type(right);
      const uint32_t owner = enclosing_class(scope);
      if (!type.empty() && owner != 0) {
        f_.typed_names.push_back({owner, "this." + std::string(text(field(left, k_.property))),
                                  type});
      }
    }
    walk_children(node, scope, depth);
  }

  uint32_t top_level_definition(std::string_view name) const {
    for (uint32_t d = 1; d < f_.definitions.size(); ++d) {
      if (f_.definitions[d].parent == 0 && f_.definitions[d].name == name) return d;
    }
    return 0;
  }

  uint32_t enclosing_class(uint32_t scope) const {
    for (uint32_t d = scope; d != 0; d = f_.definitions[d].parent) {
      if (f_.definitions[d].kind == EntityKind::Class) return d;
    }
    return 0;
  }

  // `module.exports = X`: the module's default export. An object literal exports each key:
  // shorthand and `key: name` entries as names, function-valued entries and methods as
  // definitions named by their key.
  void module_exports(TSNode value, TSNode statement, uint32_t scope, uint32_t depth,
                      uint32_t line) {
    const Kind kind = k_.of(value);
    if (kind == Kind::Identifier) {
      f_.imports.push_back({"", std::string(text(value)), "default", line, true});
      return;
    }
    if ((kind == Kind::FunctionValue || kind == Kind::ClassValue) && scope == 0) {
      const std::string_view name = text(field(value, k_.name));
      if (!name.empty()) {
        if (kind == Kind::FunctionValue) {
          function(value, scope, depth + 1, statement, true, name, "function");
        } else {
          class_definition(value, scope, depth + 1, statement, true, name);
        }
        f_.imports.push_back({"", std::string(name), "default", line, true});
        return;
      }
    }
    if (kind != Kind::Object || scope != 0) return walk(value, scope, depth + 1);
    for (const TSNode entry : code::NamedChildren(value)) {
      const Kind entry_kind = k_.of(entry);
      if (entry_kind == Kind::ShorthandProperty) {
        const std::string name(text(entry));
        f_.imports.push_back({"", name, name, line, true});
      } else if (entry_kind == Kind::Pair) {
        const TSNode key = field(entry, k_.key);
        const TSNode entry_value = field(entry, k_.value);
        const std::string_view name = text(key);
        if (!is_identifier_text(name) || ts_node_is_null(entry_value)) {
          walk(entry, scope, depth + 1);
        } else if (k_.of(entry_value) == Kind::Identifier) {
          f_.imports.push_back({"", std::string(text(entry_value)), std::string(name), line, true});
        } else if (k_.of(entry_value) == Kind::FunctionValue) {
          function(entry_value, scope, depth + 1, entry, true, name, "function", key);
        } else {
          walk(entry_value, scope, depth + 1);
        }
      } else if (entry_kind == Kind::Method) {
        const TSNode key = field(entry, k_.name);
        const std::string_view name = text(key);
        if (!is_identifier_text(name)) {
          walk(entry, scope, depth + 1);
          continue;
        }
        const uint32_t d = add(EntityKind::Function, "function", name, key, entry, scope, true);
        parameters(field(entry, k_.parameters), d, 0);
        const TSNode body = field(entry, k_.body);
        if (!ts_node_is_null(body)) walk(body, d, depth + 1);
      } else {
        walk(entry, scope, depth + 1);
      }
    }
  }

  // --- Calls ------------------------------------------------------------------------------------

  void call(TSNode node, uint32_t scope) {
    const TSNode callee = field(node, k_.function);
    if (ts_node_is_null(callee)) return;
    const uint32_t line = line_of(node);
    switch (k_.of(callee)) {
      case Kind::Identifier:
        if (is_callback_local(text(callee))) return;
        if (text(callee) == "require") {
          if (const auto module = required_module(node)) {
            f_.imports.push_back({std::string(*module), "", "", line, false});
            return;
          }
        }
        f_.calls.push_back({scope, CallForm::Plain, "", std::string(text(callee)), line});
        return;
      case Kind::DynamicImport:
        if (const auto module = required_module(node)) {
          f_.imports.push_back({std::string(*module), "", "", line, false});
        }
        return;
      case Kind::Super:
        f_.calls.push_back({scope, CallForm::Member, "super", "constructor", line});
        return;
      case Kind::Member: {
        const TSNode object = field(callee, k_.object);
        const TSNode property = field(callee, k_.property);
        if (ts_node_is_null(object) || ts_node_is_null(property)) return;
        const Kind object_kind = k_.of(object);
        if (object_kind != Kind::Super && !is_dotted_name(object)) return;
        if (type_name(property) != "property_identifier") return;
        const std::string_view object_text = text(object);
        if (is_callback_local(object_text.substr(0, object_text.find('.')))) return;
        f_.calls.push_back({scope, CallForm::Member, std::string(text(object)),
                            std::string(text(property)), line});
        return;
      }
      default:
        return;
    }
  }

  void construct(TSNode ctor, uint32_t scope, uint32_t line) {
    if (ts_node_is_null(ctor)) return;
    const std::string_view written = text(ctor);
    if (is_callback_local(written.substr(0, written.find('.')))) return;
    if (k_.of(ctor) == Kind::Identifier) {
      f_.calls.push_back({scope, CallForm::Construct, "", std::string(text(ctor)), line});
    } else if (k_.of(ctor) == Kind::Member && is_dotted_name(ctor)) {
      f_.calls.push_back({scope, CallForm::Construct, std::string(text(field(ctor, k_.object))),
                          std::string(text(field(ctor, k_.property))), line});
    }
  }

  // `<Comp ...>` / `<ns.Comp />`: rendering a component, resolved like `new Comp()`. Lower-case
  // names are intrinsic elements (div, span).
  void jsx(TSNode node, uint32_t scope) {
    const TSNode name = field(node, k_.name);
    if (ts_node_is_null(name)) return;
    const std::string_view written = text(name);
    if (written.empty() || !(written[0] >= 'A' && written[0] <= 'Z')) {
      if (k_.of(name) != Kind::Member) return;
    }
    construct(name, scope, line_of(node));
  }

  std::string_view bytes_;
  const NodeKinds& k_;
  CodeFacts& f_;
  code::ChildLists lists_;  // the walk's child loops, one per depth
  // Names declared by the unnamed functions enclosing the node being walked (innermost last).
  std::vector<std::string_view> callback_locals_;
  // File-level names bound to an object literal (`var app = exports = module.exports = {}`).
  std::set<std::string_view, std::less<>> object_vars_;
};

}  // namespace

CodeFacts extract_facts(std::string_view bytes, Dialect dialect) {
  return code::extract(bytes, {.grammar = grammar_of(dialect), .shebang = true},
                       [&](TSNode root, CodeFacts& facts) {
                         Walker(bytes, node_kinds(dialect), facts).walk(root, 0, 0);
                       });
}

}  // namespace anchorfs::analysis::javascript
