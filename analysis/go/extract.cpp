// The Go extractor: definitions with their tag anchors, imports and their used members, typed
// names and call sites, in one walk of the syntax tree.
#include "analysis/go/extract.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/code/anchors.h"
#include "analysis/code/extract.h"
#include "analysis/code/syntax.h"
#include "analysis/code/walk.h"
#include "analysis/go/grammar.h"

namespace anchorfs::analysis::go {
namespace {

using code::text_of;
using code::type_of;

bool is_exported(std::string_view name) {
  return !name.empty() && name[0] >= 'A' && name[0] <= 'Z';
}

std::string unquote(std::string_view literal) {
  if (literal.size() >= 2) return std::string(literal.substr(1, literal.size() - 2));
  return {};
}

// The identifiers a file may use to name an imported package when the import gives none: the
// last path element and its parts around '.' and '-' ("gopkg.in/yaml.v2" -> yaml.v2, yaml, v2),
// and the element before a major-version suffix ("example.com/m/v2" -> m). Resolution keeps
// only the uses through the package's real name.
std::vector<std::string> qualifier_candidates(std::string_view path, std::string_view alias) {
  if (!alias.empty()) return {std::string(alias)};
  std::vector<std::string> names;
  size_t slash = path.rfind('/');
  std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
  names.emplace_back(last);
  size_t begin = 0;
  for (size_t i = 0; i <= last.size(); ++i) {
    if (i == last.size() || last[i] == '.' || last[i] == '-') {
      if (i > begin) names.emplace_back(last.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  const bool version = last.size() >= 2 && last[0] == 'v' &&
                       std::all_of(last.begin() + 1, last.end(),
                                   [](char c) { return c >= '0' && c <= '9'; });
  if (version && slash != std::string_view::npos) {
    const std::string_view before = path.substr(0, slash);
    const size_t prev = before.rfind('/');
    names.emplace_back(prev == std::string_view::npos ? before : before.substr(prev + 1));
  }
  return names;
}

class Extractor {
 public:
  Extractor(std::string_view bytes, code::CodeFacts& facts) : bytes_(bytes), facts_(facts) {}

  void run(TSNode root) {
    build_condition(root);
    walk(root, 0, 0);
    if (too_deep_) facts_.parsed_cleanly = false;
    add_member_uses();
  }

 private:
  std::string_view text(TSNode node) const { return text_of(node, bytes_); }

  void walk_children(TSNode node, uint32_t scope, int depth) {
    if (ts_node_child_count(node) == 0) return;  // most nodes are leaves: no cursor needed
    lists_.each_named(node, static_cast<size_t>(depth),
                      [&](TSNode child) { walk(child, scope, depth + 1); });
  }

  void walk(TSNode node, uint32_t scope, int depth) {
    if (depth > code::kMaxDepth) {
      too_deep_ = true;
      return;
    }
    switch (kind_of(node)) {
      case Node::PackageClause:
        if (const code::NamedChildren parts(node); !parts.empty()) {
          facts_.package = std::string(text(parts[0]));
        }
        return;
      case Node::ImportSpec:
        import_spec(node);
        return;
      case Node::FunctionDeclaration:
        function(node, depth);
        return;
      case Node::MethodDeclaration:
        method(node, depth);
        return;
      case Node::TypeDeclaration:
        type_declaration(node, scope, depth);
        return;
      case Node::VarSpec:
      case Node::ConstSpec:
        value_spec(node, scope);
        break;
      case Node::ShortVarDeclaration:
        short_var(node, scope);
        break;
      case Node::RangeClause:
        range_clause(node, scope);
        break;
      case Node::TypeSwitchStatement:
        declare_untyped(child(node, Field::Alias), scope);
        break;
      case Node::FuncLiteral:
        parameters(child(node, Field::Parameters), scope);
        break;
      case Node::CallExpression:
        call(node, scope);
        break;
      case Node::SelectorExpression:
        use(child(node, Field::Operand), child(node, Field::Field));
        break;
      case Node::QualifiedType:
        use(child(node, Field::Package), child(node, Field::Name));
        return;
      case Node::Comment:
      case Node::Literal:
        return;
      default:
        break;
    }
    walk_children(node, scope, depth);
  }

  // The `//go:build` line among the comments before the package clause.
  void build_condition(TSNode root) {
    constexpr std::string_view kPrefix = "//go:build";
    // Listed up to the first declaration: the file's comments before its package clause.
    constexpr uint32_t kBatch = 16;
    TSNode listed[kBatch];
    const uint32_t count = anchorfs_child_list(root, /*named_only=*/true, listed, nullptr, kBatch);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode child = i < kBatch ? listed[i] : ts_node_named_child(root, i);
      if (kind_of(child) != Node::Comment) return;
      std::string_view line = text(child);
      if (!line.starts_with(kPrefix) || line.size() == kPrefix.size() ||
          (line[kPrefix.size()] != ' ' && line[kPrefix.size()] != '\t')) {
        continue;
      }
      line.remove_prefix(kPrefix.size());
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
      facts_.build_condition = std::string(line);
      return;
    }
  }

  // --- Definitions ----------------------------------------------------------------------------

  uint32_t add_definition(code::Definition def, TSNode anchor_node) {
    // A top-level block goes where gofmt already has a blank line: above the run of declarations
    // written without one between them (`}` then `func`), which is then followed by its blocks.
    // From the walk's list holding the node when there is one (code::ChildLists): tree-sitter
    // finds a node's parent and earlier siblings by searching down from the root.
    const code::ChildLists::Level* at = lists_.on(anchor_node);
    const TSNode parent = at != nullptr ? at->node : ts_node_parent(anchor_node);
    const bool top_level =
        !ts_node_is_null(parent) && std::string_view(ts_node_type(parent)) == "source_file";
    TSNode first;
    if (at != nullptr) {
      first = top_level ? code::run_start(anchor_node, bytes_, {"comment"}, "package_clause",
                                          at->before())
                        : code::attached_start(anchor_node, bytes_, {"comment"}, at->before());
    } else {
      first = top_level ? code::run_start(anchor_node, bytes_, {"comment"}, "package_clause")
                        : code::attached_start(anchor_node, bytes_, {"comment"});
    }
    if (const auto start = code::own_line_start(bytes_, ts_node_start_byte(first))) {
      def.has_anchor = true;
      def.anchor_offset = *start;
      def.anchor_indent = std::string(code::indent_at(bytes_, *start));
    }
    def.exported = is_exported(def.name);
    facts_.definitions.push_back(std::move(def));
    return static_cast<uint32_t>(facts_.definitions.size() - 1);
  }

  void function(TSNode node, int depth) {
    const TSNode name = child(node, Field::Name);
    code::Definition def;
    def.kind = EntityKind::Function;
    def.name = std::string(text(name));
    def.line = code::line_of(name);
    def.role = "func";
    const uint32_t d = add_definition(std::move(def), node);
    type_params_.clear();
    type_parameters(child(node, Field::TypeParameters));
    signature(node, d);
    const TSNode body = child(node, Field::Body);
    if (!ts_node_is_null(body)) walk(body, d, depth + 1);
    type_params_.clear();
  }

  void method(TSNode node, int depth) {
    const TSNode name = child(node, Field::Name);
    type_params_.clear();
    std::string receiver_name;
    std::string owner;
    const TSNode receivers = child(node, Field::Receiver);
    for (const TSNode param : code::NamedChildren(receivers)) {
      if (type_of(param) != std::string_view("parameter_declaration")) continue;
      owner = receiver_type(child(param, Field::Type));
      const TSNode pname = child(param, Field::Name);
      if (!ts_node_is_null(pname)) receiver_name = std::string(text(pname));
      break;
    }
    code::Definition def;
    def.kind = EntityKind::Function;
    def.line = code::line_of(name);
    def.role = "method";
    def.owner = owner;
    const uint32_t parent = top_level_type(owner);
    def.parent = parent;
    def.name = parent == 0 && !owner.empty() ? owner + "." + std::string(text(name))
                                             : std::string(text(name));
    const uint32_t d = add_definition(std::move(def), node);
    facts_.definitions[d].exported = is_exported(text(name));
    if (!receiver_name.empty() && receiver_name != "_") {
      facts_.typed_names.push_back({d, receiver_name, owner});
    }
    signature(node, d);
    const TSNode body = child(node, Field::Body);
    if (!ts_node_is_null(body)) walk(body, d, depth + 1);
    type_params_.clear();
  }

  // The receiver's type name ("*Stack[T]" -> "Stack"); its type arguments become type
  // parameters of the method.
  std::string receiver_type(TSNode type) {
    while (!ts_node_is_null(type) && (type_of(type) == std::string_view("pointer_type") ||
                                      type_of(type) == std::string_view("parenthesized_type"))) {
      type = code::NamedChildren(type)[0];
    }
    if (ts_node_is_null(type)) return {};
    if (type_of(type) == std::string_view("generic_type")) {
      const TSNode args = child(type, Field::TypeArguments);
      for (const TSNode arg : code::NamedChildren(args)) type_params_.emplace(text(arg));
      type = child(type, Field::Type);
    }
    if (type_of(type) != std::string_view("type_identifier")) return {};
    return std::string(text(type));
  }

  // The top-level type named `name` declared earlier in this file, or 0.
  uint32_t top_level_type(std::string_view name) const {
    if (name.empty()) return 0;
    for (uint32_t d = 1; d < facts_.definitions.size(); ++d) {
      const code::Definition& def = facts_.definitions[d];
      if (def.kind == EntityKind::Class && def.parent == 0 && def.name == name) return d;
    }
    return 0;
  }

  void type_parameters(TSNode list) {
    if (ts_node_is_null(list)) return;
    for (const TSNode decl : code::NamedChildren(list)) {
      for (const TSNode child : code::NamedChildren(decl)) {
        if (type_of(child) == std::string_view("identifier")) type_params_.emplace(text(child));
      }
    }
  }

  // Parameters and the first result of a function or method declared as definition `d`.
  void signature(TSNode node, uint32_t d) {
    parameters(child(node, Field::Parameters), d);
    TSNode result = child(node, Field::Result);
    if (ts_node_is_null(result)) return;
    if (type_of(result) == std::string_view("parameter_list")) {
      const code::NamedChildren results(result);
      if (results.empty()) return;
      const TSNode first = results[0];
      if (type_of(first) != std::string_view("parameter_declaration")) return;
      // Named results are variables of the body too.
      parameters(result, d);
      result = child(first, Field::Type);
    }
    const std::string type = declared_type(result);
    if (!type.empty()) facts_.typed_names.push_back({d, "return", type});
  }

  void parameters(TSNode list, uint32_t scope) {
    if (ts_node_is_null(list)) return;
    for (const TSNode param : code::NamedChildren(list)) {
      const bool variadic = type_of(param) == std::string_view("variadic_parameter_declaration");
      if (!variadic && type_of(param) != std::string_view("parameter_declaration")) continue;
      const std::string type = variadic ? std::string() : declared_type(child(param, Field::Type));
      declare_names(param, scope, type);
    }
  }

  // Every child of `node` in field `name` declared in `scope` with `type`.
  void declare_names(TSNode node, uint32_t scope, const std::string& type) {
    code::each_in_field(node, field_id(Field::Name),
                        [&](TSNode name) { declare(name, scope, type); });
  }

  void declare(TSNode name, uint32_t scope, std::string type) {
    const std::string_view n = text(name);
    if (n.empty() || n == "_" || type_of(name) != std::string_view("identifier")) return;
    facts_.typed_names.push_back({scope, std::string(n), std::move(type)});
  }

  // `for k, v := range x`: v is an element of x, typed when x's declared type is a slice, an
  // array or a map of a named type (resolution looks the chain up); k and a lone name are not.
  void range_clause(TSNode node, uint32_t scope) {
    const TSNode left = child(node, Field::Left);
    if (ts_node_is_null(left) || type_of(left) != std::string_view("expression_list") ||
        ts_node_named_child_count(left) != 2) {
      declare_untyped(left, scope);
      return;
    }
    const code::NamedChildren names(left);
    declare(names[0], scope, {});
    const std::string ranged = receiver_chain(child(node, Field::Right));
    declare(names[1], scope, ranged.empty() ? std::string() : std::string(kRangeOf) + ranged);
  }

  void declare_untyped(TSNode list, uint32_t scope) {
    if (ts_node_is_null(list)) return;
    if (type_of(list) == std::string_view("identifier")) {
      declare(list, scope, {});
      return;
    }
    for (const TSNode name : code::NamedChildren(list)) declare(name, scope, {});
  }

  void type_declaration(TSNode node, uint32_t scope, int depth) {
    lists_.each_named(node, static_cast<size_t>(depth), [&](TSNode spec) {
      // Aliases declare no new type. A grouped spec's block goes above the group too: a comment
      // between two specs ends gofmt's column alignment of the names before it.
      if (kind_of(spec) == Node::TypeSpec) type_spec(spec, node, scope, depth);
    });
  }

  void type_spec(TSNode spec, TSNode anchor_node, uint32_t scope, int depth) {
    const TSNode name = child(spec, Field::Name);
    const TSNode type = child(spec, Field::Type);
    code::Definition def;
    def.kind = EntityKind::Class;
    def.parent = scope;
    def.name = std::string(text(name));
    def.line = code::line_of(name);
    const std::string_view shape = ts_node_is_null(type) ? "" : type_of(type);
    def.role = shape == "struct_type" ? "struct" : shape == "interface_type" ? "interface" : "type";
    const auto saved = std::exchange(type_params_, {});
    type_parameters(child(spec, Field::TypeParameters));
    const uint32_t d = add_definition(std::move(def), anchor_node);
    if (shape == "struct_type") struct_fields(type, d);
    if (shape == "interface_type") interface_elements(type, d);
    if (!ts_node_is_null(type)) walk(type, scope, depth + 1);
    type_params_ = saved;
  }

  void struct_fields(TSNode type, uint32_t d) {
    const TSNode list = code::NamedChildren(type)[0];
    for (const TSNode decl : code::NamedChildren(list)) {
      if (type_of(decl) != std::string_view("field_declaration")) continue;
      const TSNode written = child(decl, Field::Type);
      if (ts_node_is_null(child(decl, Field::Name))) {
        const std::string type_name = named_type(written);
        // An embedded field: its type is a base, and its name is the type's last part.
        if (type_name.empty()) continue;
        facts_.definitions[d].bases.push_back(type_name);
        const size_t dot = type_name.rfind('.');
        facts_.typed_names.push_back(
            {d, dot == std::string::npos ? type_name : type_name.substr(dot + 1), type_name});
        continue;
      }
      const std::string type_name = declared_type(written);
      code::each_in_field(decl, field_id(Field::Name), [&](TSNode name) {
        facts_.typed_names.push_back({d, std::string(text(name)), type_name});
      });
    }
  }

  // Embedded interfaces are bases; union and approximation elements (constraints) are not.
  void interface_elements(TSNode type, uint32_t d) {
    for (const TSNode elem : code::NamedChildren(type)) {
      if (type_of(elem) != std::string_view("type_elem") || ts_node_named_child_count(elem) != 1) {
        continue;
      }
      const std::string base = named_type(code::NamedChildren(elem)[0]);
      if (!base.empty()) facts_.definitions[d].bases.push_back(base);
    }
  }

  // --- Types of names -------------------------------------------------------------------------

  // The named type a type expression denotes, pointers and type arguments removed
  // ("*pkg.List[int]" -> "pkg.List"); "" for unnamed types and type parameters.
  std::string named_type(TSNode type) const {
    while (!ts_node_is_null(type)) {
      const std::string_view t = type_of(type);
      if (t == "pointer_type" || t == "parenthesized_type") {
        type = code::NamedChildren(type)[0];
      } else if (t == "generic_type") {
        type = child(type, Field::Type);
      } else if (t == "type_identifier" || t == "identifier") {
        const std::string name(text(type));
        return type_params_.count(name) > 0 ? std::string() : name;
      } else if (t == "qualified_type") {
        return std::string(text(child(type, Field::Package))) + "." +
               std::string(text(child(type, Field::Name)));
      } else if (t == "selector_expression") {
        const TSNode operand = child(type, Field::Operand);
        if (type_of(operand) != std::string_view("identifier")) return {};
        return std::string(text(operand)) + "." + std::string(text(child(type, Field::Field)));
      } else {
        return {};
      }
    }
    return {};
  }

  // A declared type as typed names record it: a named type, or "[]T" for a slice, an array or a
  // map whose elements are of the named type T (what ranging over it yields).
  std::string declared_type(TSNode type) const {
    std::string named = named_type(type);
    if (!named.empty() || ts_node_is_null(type)) return named;
    const std::string_view t = type_of(type);
    if (t != "slice_type" && t != "array_type" && t != "map_type") return {};
    const std::string element =
        named_type(child(type, t == "map_type" ? Field::Value : Field::Element));
    return element.empty() ? std::string() : std::string(kElementsOf) + element;
  }

  // The type of a value when the expression makes it evident: `T{}`, `&T{}`, `new(T)`, `x.(T)`,
  // a call whose declared result resolution can look up ("F()", "pkg.F()", "x.M()"), or a field
  // or package var ("v.Block", "pkg.Default").
  std::string value_type(TSNode value) const {
    while (!ts_node_is_null(value)) {
      const std::string_view t = type_of(value);
      if (t == "parenthesized_expression") {
        value = code::NamedChildren(value)[0];
      } else if (t == "unary_expression" &&
                 text(ts_node_child(value, 0)) == std::string_view("&")) {
        value = child(value, Field::Operand);
      } else if (t == "composite_literal") {
        return declared_type(child(value, Field::Type));
      } else if (t == "type_assertion_expression") {
        return named_type(child(value, Field::Type));
      } else if (t == "selector_expression") {
        return receiver_chain(value);  // a field or package var: resolution follows the chain
      } else if (t == "call_expression") {
        const TSNode function = child(value, Field::Function);
        const TSNode args = child(value, Field::Arguments);
        if (text(function) == std::string_view("new") && ts_node_named_child_count(args) == 1) {
          return named_type(code::NamedChildren(args)[0]);
        }
        return receiver_chain(value);
      } else {
        return {};
      }
    }
    return {};
  }

  // An expression as a chain of names and calls ("a.b", "F()", "a.f().g"), "" when it is
  // anything else or longer than resolution follows (which also bounds the recursion).
  std::string receiver_chain(TSNode node, int length = 0) const {
    constexpr int kMaxChain = 16;
    if (length > kMaxChain || ts_node_is_null(node)) return {};
    const std::string_view t = type_of(node);
    if (t == "identifier") return std::string(text(node));
    if (t == "parenthesized_expression" && ts_node_named_child_count(node) == 1) {
      return receiver_chain(code::NamedChildren(node)[0], length + 1);
    }
    if (t == "selector_expression") {
      std::string operand = receiver_chain(child(node, Field::Operand), length + 1);
      if (operand.empty()) return {};
      return operand + "." + std::string(text(child(node, Field::Field)));
    }
    if (t == "call_expression") {
      std::string function = receiver_chain(callee(node), length + 1);
      if (function.empty()) return {};
      return function + "()";
    }
    return {};
  }

  void value_spec(TSNode node, uint32_t scope) {
    std::string type = declared_type(child(node, Field::Type));
    const TSNode values = child(node, Field::Value);
    std::vector<TSNode> names;
    code::each_in_field(node, field_id(Field::Name), [&](TSNode name) { names.push_back(name); });
    const bool typed = !ts_node_is_null(child(node, Field::Type));
    for (size_t i = 0; i < names.size(); ++i) {
      declare(names[i], scope, typed ? type : assigned_type(values, i, names.size()));
    }
  }

  void short_var(TSNode node, uint32_t scope) {
    const code::NamedChildren names(child(node, Field::Left));
    const TSNode right = child(node, Field::Right);
    for (uint32_t i = 0; i < names.size(); ++i) {
      declare(names[i], scope, assigned_type(right, i, names.size()));
    }
  }

  // The evident type of the i-th of `count` names assigned from `values`: the i-th value when
  // there is one per name, the first result of a single call for the first name.
  std::string assigned_type(TSNode values, size_t i, size_t count) const {
    if (ts_node_is_null(values)) return {};
    const code::NamedChildren listed(values);
    const uint32_t n = listed.size();
    if (n == count) return value_type(listed[static_cast<uint32_t>(i)]);
    if (n == 1 && i == 0) {
      const TSNode value = listed[0];
      // `v, ok := x.(T)` and `x, err := F()` type their first name.
      const std::string_view t = type_of(value);
      if (t == "call_expression" || t == "type_assertion_expression") return value_type(value);
    }
    return {};
  }

  // --- References -----------------------------------------------------------------------------

  void import_spec(TSNode node) {
    const TSNode path = child(node, Field::Path);
    const TSNode name = child(node, Field::Name);
    code::Import import;
    import.source = unquote(text(path));
    import.alias = ts_node_is_null(name) ? std::string() : std::string(text(name));
    import.line = code::line_of(node);
    for (std::string& candidate : qualifier_candidates(import.source, import.alias)) {
      qualifiers_.emplace(std::move(candidate), facts_.imports.size());
    }
    facts_.imports.push_back(std::move(import));
  }

  void use(TSNode qualifier, TSNode member) {
    if (ts_node_is_null(qualifier) || ts_node_is_null(member)) return;
    const std::string_view t = type_of(qualifier);
    if (t != "identifier" && t != "package_identifier") return;
    const std::string_view name = text(qualifier);
    if (qualifiers_.find(name) == qualifiers_.end()) return;
    uses_.emplace(std::string(name), std::string(text(member)));
  }

  void add_member_uses() {
    for (const auto& [qualifier, member] : uses_) {
      const auto [first, last] = qualifiers_.equal_range(qualifier);
      std::set<size_t> seen;
      for (auto it = first; it != last; ++it) {
        if (!seen.insert(it->second).second) continue;
        const code::Import& spec = facts_.imports[it->second];
        facts_.imports.push_back({spec.source, member, qualifier, spec.line, false});
      }
    }
  }

  // Whether `index` in `f[index]()` names a type, making it an instantiation of the generic f
  // (tree-sitter-go 0.25 parses a single type argument as an index): a type parameter in scope,
  // a predeclared type, an exported name or a package-qualified one. An index held in a lower-case
  // variable or a literal is an element of a slice or map of functions.
  bool names_a_type(TSNode index) const {
    static const std::set<std::string_view> kPredeclared = {
        "any",     "bool",  "byte",   "comparable", "complex64", "complex128", "error", "float32",
        "float64", "int",   "int8",   "int16",      "int32",     "int64",      "rune",  "string",
        "uint",    "uint8", "uint16", "uint32",     "uint64",    "uintptr"};
    if (type_of(index) == std::string_view("selector_expression")) {
      index = child(index, Field::Field);
    } else if (type_of(index) != std::string_view("identifier")) {
      return false;
    }
    const std::string_view name = text(index);
    if (name.empty()) return false;
    return type_params_.count(std::string(name)) > 0 || kPredeclared.count(name) > 0 ||
           std::isupper(static_cast<unsigned char>(name[0])) != 0;
  }

  // What a call calls: its function, or the generic function it instantiates (`New[T]()`).
  TSNode callee(TSNode call) const {
    const TSNode function = child(call, Field::Function);
    if (type_of(function) == std::string_view("index_expression") &&
        names_a_type(child(function, Field::Index))) {
      return child(function, Field::Operand);
    }
    return function;
  }

  void call(TSNode node, uint32_t scope) {
    const TSNode function = callee(node);
    code::Call c;
    c.scope = scope;
    c.line = code::line_of(node);
    const std::string_view t = type_of(function);
    if (t == "identifier") {
      c.form = code::CallForm::Plain;
      c.name = std::string(text(function));
    } else if (t == "selector_expression") {
      c.receiver = receiver_chain(child(function, Field::Operand));
      if (c.receiver.empty()) return;
      c.form = code::CallForm::Member;
      c.name = std::string(text(child(function, Field::Field)));
    } else {
      return;
    }
    facts_.calls.push_back(std::move(c));
  }

  std::string_view bytes_;
  code::ChildLists lists_;
  code::CodeFacts& facts_;
  std::set<std::string> type_params_;  // of the function or type being walked
  // Possible package names -> import index.
  std::multimap<std::string, size_t, std::less<>> qualifiers_;
  std::set<std::pair<std::string, std::string>> uses_;  // (qualifier, member)
  bool too_deep_ = false;
};

}  // namespace

code::CodeFacts extract_facts(std::string_view bytes) {
  return code::extract(
      bytes, {.grammar = tree_sitter_go(), .separated = true},
      [&](TSNode root, code::CodeFacts& facts) { Extractor(bytes, facts).run(root); });
}

}  // namespace anchorfs::analysis::go
