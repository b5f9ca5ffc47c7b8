// One walk over a Rust syntax tree: definitions and anchors, mod/use declarations, call sites and
// evident types (conventions in analysis/rust/facts_layout.h).
#include "analysis/rust/extract.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analysis/code/anchors.h"
#include "analysis/code/extract.h"
#include "analysis/code/symbols.h"
#include "analysis/code/syntax.h"
#include "analysis/code/walk.h"
#include "analysis/rust/facts_layout.h"
#include "analysis/rust/grammar.h"
#include "analysis/rust/syntax_names.h"

namespace anchorfs::analysis::rust {
namespace {

using code::CallForm;
using code::CodeFacts;
using code::Definition;
using code::line_of;
using code::text_of;
using code::type_of;

// What the walk does with a node, looked up once per grammar symbol.
enum class Kind : uint8_t {
  Descend,  // nothing of its own: visit its children
  Skip,     // nothing inside matters or may be tagged (comments, strings, attributes, token trees)
  Function,
  FunctionSignature,
  Struct,
  Enum,
  Union,
  Trait,
  Impl,
  Mod,
  Macro,
  Use,
  ExternCrate,
  MacroCall,
  Call,
  Let,
  For,
  Parameter,
  Field,
  TupleFields,
  TypeParameter,
  WherePredicate,
};

constexpr code::SymbolKind<Kind> kNamed[] = {
    {"function_item", Kind::Function},
    {"function_signature_item", Kind::FunctionSignature},
    {"struct_item", Kind::Struct},
    {"enum_item", Kind::Enum},
    {"union_item", Kind::Union},
    {"trait_item", Kind::Trait},
    {"impl_item", Kind::Impl},
    {"mod_item", Kind::Mod},
    {"macro_definition", Kind::Macro},
    {"use_declaration", Kind::Use},
    {"extern_crate_declaration", Kind::ExternCrate},
    {"call_expression", Kind::Call},
    {"let_declaration", Kind::Let},
    {"for_expression", Kind::For},
    {"parameter", Kind::Parameter},
    {"field_declaration", Kind::Field},
    {"ordered_field_declaration_list", Kind::TupleFields},
    {"type_parameter", Kind::TypeParameter},
    {"where_predicate", Kind::WherePredicate},
    {"attribute_item", Kind::Skip},
    {"inner_attribute_item", Kind::Skip},
    {"macro_invocation", Kind::MacroCall},
    {"token_tree", Kind::Skip},
    {"line_comment", Kind::Skip},
    {"block_comment", Kind::Skip},
    {"string_literal", Kind::Skip},
    {"raw_string_literal", Kind::Skip},
    {"char_literal", Kind::Skip},
    {"integer_literal", Kind::Skip},
    {"float_literal", Kind::Skip},
    {"identifier", Kind::Skip},
    {"type_identifier", Kind::Skip},
};

Kind kind_of(TSNode node) {
  static const code::SymbolTable<Kind> table(tree_sitter_rust(), kNamed, Kind::Descend, Kind::Skip);
  return table.of(node);
}

bool has_child_of_type(TSNode node, std::string_view type) {
  for (const TSNode child : code::AllChildren(node)) {
    if (type_of(child) == type) return true;
  }
  return false;
}

// An inner doc comment (`//!`, `/*!`) documents the enclosing module: it stays where it is, and a
// definition's block never goes above it.
bool is_inner_doc(TSNode comment, std::string_view bytes) {
  const std::string_view text = text_of(comment, bytes);
  return text.starts_with("//!") || text.starts_with("/*!");
}

// The last line a node occupies (a line comment's node may end after its line break).
uint32_t last_row(TSNode node) {
  const TSPoint end = ts_node_end_point(node);
  const TSPoint start = ts_node_start_point(node);
  return end.column == 0 && end.row > start.row ? end.row - 1 : end.row;
}

// The node a definition's block goes above: the run of outer doc comments, comments and
// attributes directly above it (each on its own line, no blank line between). `before` holds
// the siblings before it, named and anonymous, in order.
TSNode attached_start(TSNode node, std::span<const TSNode> before, std::string_view bytes) {
  TSNode first = node;
  for (size_t i = before.size(); i-- > 0;) {
    const TSNode prev = before[i];
    const std::string_view type = type_of(prev);
    const bool comment = type == "line_comment" || type == "block_comment";
    if (!comment && type != "attribute_item") break;
    if (comment && is_inner_doc(prev, bytes)) break;
    if (!code::own_line_start(bytes, ts_node_start_byte(prev))) {
      // A comment trailing an attribute (`#[derive(Debug)] // why`) goes with it: a block below
      // that line would split the attribute from its item (rustfmt re-indents it).
      if (comment && i > 0 && type_of(before[i - 1]) == "attribute_item" &&
          last_row(before[i - 1]) == ts_node_start_point(prev).row) {
        continue;
      }
      break;
    }
    if (ts_node_start_point(first).row > last_row(prev) + 1) break;
    first = prev;
  }
  return first;
}

// The value of a `#[path = "..."]` attribute directly above a `mod name;`, or "". `before` as
// attached_start's.
std::string path_attribute(std::span<const TSNode> before, std::string_view bytes) {
  for (size_t i = before.size(); i-- > 0;) {
    const TSNode prev = before[i];
    const std::string_view type = type_of(prev);
    if (type == "line_comment" || type == "block_comment") continue;
    if (type != "attribute_item") break;
    const TSNode attribute = code::NamedChildren(prev)[0];
    if (ts_node_is_null(attribute)) continue;
    const TSNode name = code::NamedChildren(attribute)[0];
    const TSNode value = field(attribute, Field::Value);
    if (ts_node_is_null(name) || ts_node_is_null(value) || text_of(name, bytes) != "path" ||
        type_of(value) != "string_literal") {
      continue;
    }
    const std::string_view quoted = text_of(value, bytes);
    if (quoted.size() >= 2) return std::string(quoted.substr(1, quoted.size() - 2));
  }
  return {};
}

// Receivers nested deeper than this (a builder chain of more calls, a longer field chain) are not
// recorded; the bound also keeps the recursion off the stack's end.
constexpr int kMaxReceiverDepth = 64;

std::string receiver_text(TSNode value, std::string_view bytes, int depth = 0);

// The type an expression's value evidently has (facts_layout.h form), or "".
std::string value_type(TSNode value, std::string_view bytes, int depth = 0) {
  if (ts_node_is_null(value) || depth > kMaxReceiverDepth) return {};
  const std::string_view kind = type_of(value);
  if (kind == "struct_expression") return path_text(field(value, Field::Name), bytes);
  if (kind == "reference_expression" || kind == "parenthesized_expression") {
    const TSNode inner =
        kind == "reference_expression" ? field(value, Field::Value) : code::NamedChildren(value)[0];
    return value_type(inner, bytes, depth + 1);
  }
  TSNode unwrapped{};
  if (kind == "try_expression") unwrapped = code::NamedChildren(value)[0];
  if (kind == "call_expression") {
    TSNode function = field(value, Field::Function);
    if (type_of(function) == "generic_function") function = field(function, Field::Function);
    const std::string_view function_kind = type_of(function);
    if (function_kind == "identifier" || function_kind == "scoped_identifier") {
      const std::string path = path_text(function, bytes);
      return path.empty() ? std::string() : path + std::string(kCallResult);
    }
    if (function_kind == "field_expression") {
      const std::string_view method = text_of(field(function, Field::Field), bytes);
      if (method == "unwrap" || method == "expect") {
        unwrapped = field(function, Field::Value);
      } else {
        // `x.m()`: what m returns on x's type ("x.m()").
        const std::string receiver = receiver_text(field(function, Field::Value), bytes, depth + 1);
        if (receiver.empty() || type_of(field(function, Field::Field)) != "field_identifier") {
          return {};
        }
        return receiver + "." + std::string(method) + std::string(kCallResult);
      }
    }
  }
  if (ts_node_is_null(unwrapped)) return {};
  const std::string inner = value_type(unwrapped, bytes, depth + 1);
  if (!inner.ends_with(kCallResult) || inner.front() == kFallible) return {};
  return kFallible + inner;
}

// A call receiver the resolver can type: `self`, a name, a field of a receiver (`self.field`,
// `x.0`, `self.a.b.c`), or a call's result.
std::string receiver_text(TSNode value, std::string_view bytes, int depth) {
  if (depth > kMaxReceiverDepth) return {};
  const std::string_view kind = type_of(value);
  if (kind == "self" || kind == "identifier") return std::string(text_of(value, bytes));
  if (kind == "field_expression") {
    const TSNode name = field(value, Field::Field);
    const std::string_view name_kind = type_of(name);
    if (name_kind != "field_identifier" && name_kind != "integer_literal") return {};
    const std::string object = receiver_text(field(value, Field::Value), bytes, depth + 1);
    if (object.empty() || object.front() == kFallible) return {};
    return object + "." + std::string(text_of(name, bytes));
  }
  const std::string type = value_type(value, bytes, depth + 1);
  return type.ends_with(kCallResult) ? type : std::string();
}

// The standard macros whose arguments are expressions: calls in their token trees are calls.
// Any other macro's tokens may be a language of its own, and are left alone.
bool takes_expressions(TSNode invocation, std::string_view bytes) {
  static constexpr std::array<std::string_view, 22> kExpressionMacros = {
      "assert",        "assert_eq",        "assert_ne", "debug_assert", "debug_assert_eq",
      "debug_assert_ne", "dbg",            "eprint",    "eprintln",     "format",
      "format_args",   "matches",          "panic",     "print",        "println",
      "todo",          "unimplemented",    "unreachable", "vec",        "write",
      "writeln",       "assert_matches"};
  const std::string macro = path_text(field(invocation, Field::Macro), bytes);
  const std::string_view name = last_segment(macro);
  if (macro != name && !macro.starts_with("std::") && !macro.starts_with("core::")) return false;
  return std::find(kExpressionMacros.begin(), kExpressionMacros.end(), name) !=
         kExpressionMacros.end();
}

// The collection a `for` loop iterates, as a receiver: `for x in &self.items`, `in items.iter()`,
// `in v.iter_mut()` and `in self.items()` iterate the receiver's elements; "" for anything else.
std::string iterated(TSNode value, std::string_view bytes) {
  for (int peeled = 0; peeled < 4 && !ts_node_is_null(value); ++peeled) {
    const std::string_view kind = type_of(value);
    if (kind == "reference_expression") {
      value = field(value, Field::Value);
      continue;
    }
    if (kind == "call_expression") {
      const TSNode function = field(value, Field::Function);
      const std::string_view method = type_of(function) == "field_expression"
                                          ? text_of(field(function, Field::Field), bytes)
                                          : "";
      if ((method == "iter" || method == "iter_mut" || method == "into_iter") &&
          ts_node_named_child_count(field(value, Field::Arguments)) == 0) {
        value = field(function, Field::Value);
        continue;
      }
    }
    const std::string receiver = receiver_text(value, bytes);
    if (receiver.empty() || receiver.front() == kFallible) return {};
    return receiver;
  }
  return {};
}

// Whether a macro_rules! wraps one expression: every rule's matcher is `($e:expr)` (a trailing
// `$(,)?` allowed) and its transcriber uses `$e` outside `stringify!`.
bool wraps_expression(TSNode macro, std::string_view bytes) {
  uint32_t rules = 0;
  for (const TSNode rule : code::NamedChildren(macro)) {
    if (type_of(rule) != "macro_rule") continue;
    ++rules;
    const TSNode left = field(rule, Field::Left);
    const TSNode right = field(rule, Field::Right);
    if (ts_node_is_null(left) || ts_node_is_null(right)) return false;
    std::string_view binding;
    const code::AllChildren tokens(left);
    for (uint32_t t = 1; t + 1 < tokens.size(); ++t) {  // inside the delimiters
      const TSNode token = tokens[t];
      const std::string_view kind = type_of(token);
      if (kind == "token_binding_pattern" && binding.empty() &&
          text_of(field(token, Field::Type), bytes) == "expr") {
        binding = text_of(field(token, Field::Name), bytes);
      } else if (kind != "token_repetition_pattern" || text_of(token, bytes) != "$(,)?") {
        return false;
      }
    }
    const std::string_view body = text_of(right, bytes);
    if (binding.empty() || body.find(binding) == std::string_view::npos ||
        body.find("stringify") != std::string_view::npos) {
      return false;
    }
  }
  return rules > 0;
}

// A macro invocation's argument token tree (its last named child).
TSNode field_less_token_tree(TSNode invocation) {
  const code::NamedChildren children(invocation);
  return children.empty() ? TSNode{} : children[children.size() - 1];
}

class Walker {
 public:
  Walker(std::string_view bytes, CodeFacts& facts) : bytes_(bytes), facts_(facts) {}

  void run(TSNode root) { children(root, 0, 0); }

 private:
  void children(TSNode node, uint32_t scope, int depth) {
    if (depth > code::kMaxDepth) {
      facts_.parsed_cleanly = false;  // code::kMaxDepth: too deep is served untagged
      return;
    }
    if (ts_node_child_count(node) == 0) return;  // most nodes are leaves: nothing to list
    lists_.each_named(node, static_cast<size_t>(depth),
                      [&](TSNode child) { visit(child, scope, depth + 1); });
  }

  // The siblings before `node` (named and anonymous, in order): from the walk's list holding it
  // (code::ChildLists), where tree-sitter's ts_node_prev_sibling searches down from the root for
  // each, quadratic in a module's items; gathered by that search for a node outside the walk.
  std::span<const TSNode> before(TSNode node) {
    if (const code::ChildLists::Level* at = lists_.on(node)) return at->before();
    gathered_.clear();
    for (TSNode prev = ts_node_prev_sibling(node); !ts_node_is_null(prev);
         prev = ts_node_prev_sibling(prev)) {
      gathered_.push_back(prev);
    }
    std::reverse(gathered_.begin(), gathered_.end());
    return gathered_;
  }

  void visit(TSNode node, uint32_t scope, int depth) {
    switch (kind_of(node)) {
      case Kind::Skip:
        return;
      case Kind::Descend:
        break;
      case Kind::Function:
      case Kind::FunctionSignature:
        scope = function(node, scope);
        break;
      case Kind::Struct:
        scope = type_definition(node, scope, kRoleStruct);
        break;
      case Kind::Union:
        scope = type_definition(node, scope, kRoleUnion);
        break;
      case Kind::Enum:
        type_definition(node, scope, kRoleEnum);
        return;  // variants and their fields are not entities
      case Kind::Trait:
        scope = trait(node, scope);
        break;
      case Kind::Impl:
        scope = impl(node, scope);
        break;
      case Kind::Mod:
        if (ts_node_is_null(field(node, Field::Body))) {
          mod_declaration(node, scope);
          return;
        }
        scope = define(node, field(node, Field::Name), EntityKind::Class,
                       std::string(text_of(field(node, Field::Name), bytes_)), kRoleMod, scope);
        break;
      case Kind::Macro: {
        const uint32_t d =
            define(node, field(node, Field::Name), EntityKind::Function,
                   std::string(text_of(field(node, Field::Name), bytes_)) + "!", kRoleMacro, scope);
        facts_.definitions[d].arity = wraps_expression(node, bytes_) ? 1 : 0;
        return;  // its rules are token trees: nothing in them is a definition or a call
      }
      case Kind::Use:
        use(field(node, Field::Argument), {}, scope, has_child_of_type(node, "visibility_modifier"),
            line_of(node), 0);
        return;
      case Kind::ExternCrate:
        extern_crate(node, scope);
        return;
      case Kind::MacroCall:
        if (takes_expressions(node, bytes_)) {
          tokens(field_less_token_tree(node), scope, depth);
        } else if (const size_t at = macro_call(node, scope); at < facts_.calls.size()) {
          // Calls in its tokens, kept by resolution if the macro turns out to wrap an expression.
          tokens(field_less_token_tree(node), scope, depth);
          facts_.calls[at].arity = static_cast<uint32_t>(facts_.calls.size() - at - 1);
        }
        return;
      case Kind::Call:
        call(node, scope);
        break;
      case Kind::Let:
        typed(scope, field(node, Field::Pattern),
              ts_node_is_null(field(node, Field::Type))
                  ? value_type(field(node, Field::Value), bytes_)
                  : type_path(field(node, Field::Type), bytes_));
        break;
      case Kind::For:
        if (const std::string collection = iterated(field(node, Field::Value), bytes_);
            !collection.empty()) {
          typed(scope, field(node, Field::Pattern), kElementOf + collection);
        }
        break;
      case Kind::Parameter:
        typed(scope, field(node, Field::Pattern), type_path(field(node, Field::Type), bytes_));
        return;
      case Kind::Field:
        if (facts_.definitions[scope].role == kRoleStruct ||
            facts_.definitions[scope].role == kRoleUnion) {
          typed(scope, field(node, Field::Name), type_path(field(node, Field::Type), bytes_));
        }
        return;
      case Kind::TupleFields:
        if (facts_.definitions[scope].role == kRoleStruct) tuple_fields(node, scope);
        return;
      case Kind::TypeParameter:
      case Kind::WherePredicate:
        bounds(node, scope);
        return;
    }
    children(node, scope, depth);
  }

  // `name!(...)`, `crate::name!` or `$crate::name!`: a call of a macro of this crate, written
  // as a plain call of "name!" (macros have a namespace of their own). Its index in the calls,
  // or their count when it names another crate's macro.
  size_t macro_call(TSNode node, uint32_t scope) {
    std::string macro = path_text(field(node, Field::Macro), bytes_);
    for (std::string_view prefix : {"crate::", "$crate::"}) {
      if (macro.starts_with(prefix)) macro.erase(0, prefix.size());
    }
    if (macro.empty() || macro.find("::") != std::string::npos) return facts_.calls.size();
    code::Call c;
    c.scope = scope;
    c.line = line_of(node);
    c.name = macro + "!";
    facts_.calls.push_back(std::move(c));
    return facts_.calls.size() - 1;
  }

  // Calls written in an expression macro's tokens: `f(`, `a::b::f(`, `x.m(`, `self.x.m(`.
  void tokens(TSNode tree, uint32_t scope, int depth) {
    if (ts_node_is_null(tree) || type_of(tree) != "token_tree") return;
    if (depth > code::kMaxDepth) {
      facts_.parsed_cleanly = false;
      return;
    }
    std::vector<TSNode> list(anchorfs_child_list(tree, /*named_only=*/false, nullptr, nullptr, 0));
    anchorfs_child_list(tree, false, list.data(), nullptr, static_cast<uint32_t>(list.size()));
    for (size_t i = 0; i < list.size(); ++i) {
      if (type_of(list[i]) != "token_tree") continue;
      // A nested macro's tokens (`name!(...)`) are that macro's business.
      if (i > 0 && text_of(list[i - 1], bytes_) == "!") continue;
      tokens(list[i], scope, depth + 1);
      if (i == 0 || text_of(list[i], bytes_).front() != '(') continue;
      token_call(list, i - 1, scope);
    }
  }

  // The call whose callee name is list[at], if the tokens before it make one.
  void token_call(const std::vector<TSNode>& list, size_t at, uint32_t scope) {
    if (type_of(list[at]) != "identifier") return;
    auto token = [&](size_t i) { return text_of(list[i], bytes_); };
    code::Call c;
    c.scope = scope;
    c.line = line_of(list[at]);
    c.name = std::string(token(at));
    if (at > 0) {
      // Punctuation runs are single tokens (`::<`, `>::`, `0.`): only a lone `.` or `::`
      // qualifies a name; anything else ending in one hides a qualifier we cannot read.
      const std::string_view before = token(at - 1);
      const bool qualified = before == "." || before == "::";
      if (!qualified && (before.ends_with('.') || before.ends_with(':') || before == "fn")) return;
    }
    if (at == 0 || (token(at - 1) != "." && token(at - 1) != "::")) {
      facts_.calls.push_back(std::move(c));
      return;
    }
    if (token(at - 1) == ".") {
      if (at < 2) return;
      const std::string_view object = type_of(list[at - 2]);
      const bool chained = at >= 3 && token(at - 3) == ".";
      if (object == "self" && !chained) {
        c.receiver = "self";
      } else if (object == "identifier" && !chained) {
        c.receiver = std::string(token(at - 2));
      } else if (object == "identifier" && at >= 4 && type_of(list[at - 4]) == "self" &&
                 !(at >= 5 && token(at - 5) == ".")) {
        c.receiver = "self." + std::string(token(at - 2));
      } else {
        return;
      }
      c.form = CallForm::Member;
      facts_.calls.push_back(std::move(c));
      return;
    }
    // a::b::f( : segments joined by "::" tokens back to the first.
    std::string path;
    size_t i = at;
    while (i >= 2 && token(i - 1) == "::") {
      const std::string_view segment_type = type_of(list[i - 2]);
      if (segment_type != "identifier" && segment_type != "self" && segment_type != "super" &&
          segment_type != "crate") {
        return;
      }
      path = path.empty() ? std::string(token(i - 2)) : std::string(token(i - 2)) + "::" + path;
      i -= 2;
    }
    if (path.empty() || (i >= 1 && (token(i - 1) == "::" || token(i - 1) == "."))) return;
    c.form = CallForm::Path;
    c.receiver = std::move(path);
    facts_.calls.push_back(std::move(c));
  }

  uint32_t define(TSNode node, TSNode name_node, EntityKind kind, std::string name,
                  std::string_view role, uint32_t parent) {
    Definition d;
    d.kind = kind;
    d.parent = parent;
    d.name = name.empty() ? std::string(role) : std::move(name);
    d.line = line_of(ts_node_is_null(name_node) ? node : name_node);
    d.role = std::string(role);
    d.exported = has_child_of_type(node, "visibility_modifier");
    const std::optional<uint64_t> line_start = code::own_line_start(
        bytes_, ts_node_start_byte(attached_start(node, before(node), bytes_)));
    if (line_start) {
      d.has_anchor = true;
      d.anchor_offset = *line_start;
      d.anchor_indent = std::string(code::indent_at(bytes_, *line_start));
    }
    facts_.definitions.push_back(std::move(d));
    return static_cast<uint32_t>(facts_.definitions.size() - 1);
  }

  std::string_view role_of(uint32_t d) const { return facts_.definitions[d].role; }

  uint32_t function(TSNode node, uint32_t parent) {
    const bool in_type = role_of(parent) == kRoleImpl || role_of(parent) == kRoleTrait;
    const bool signature = kind_of(node) == Kind::FunctionSignature;
    const std::string_view role = in_type ? kRoleMethod : signature ? kRoleExternFn : kRoleFn;
    const TSNode name = field(node, Field::Name);
    const uint32_t d =
        define(node, name, EntityKind::Function, std::string(text_of(name, bytes_)), role, parent);
    std::string returns = type_path(field(node, Field::ReturnType), bytes_);
    if (!returns.empty()) facts_.typed_names.push_back({d, std::string(kReturnType), returns});
    return d;
  }

  uint32_t type_definition(TSNode node, uint32_t parent, std::string_view role) {
    const TSNode name = field(node, Field::Name);
    return define(node, name, EntityKind::Class, std::string(text_of(name, bytes_)), role,
                  parent);
  }

  uint32_t trait(TSNode node, uint32_t parent) {
    const uint32_t d = type_definition(node, parent, kRoleTrait);
    const TSNode bounds = field(node, Field::Bounds);
    for (const TSNode bound : code::NamedChildren(bounds)) {
      std::string base = path_text(bound, bytes_);
      if (!base.empty()) facts_.definitions[d].bases.push_back(std::move(base));
    }
    return d;
  }

  // An impl block is named after its type (`impl<T> Display for &Foo<T>` is "Foo"); a negative
  // impl (`impl !Send for Foo`) has no trait as a base.
  uint32_t impl(TSNode node, uint32_t parent) {
    TSNode type = field(node, Field::Type);
    while (type_of(type) == "reference_type" || type_of(type) == "pointer_type") {
      type = field(type, Field::Type);
    }
    std::string owner = path_text(type, bytes_);
    const uint32_t d =
        define(node, type, EntityKind::Class, std::string(last_segment(owner)), kRoleImpl, parent);
    facts_.definitions[d].owner = std::move(owner);
    const TSNode trait = field(node, Field::Trait);
    if (!ts_node_is_null(trait) && !has_child_of_type(node, "!")) {
      std::string base = path_text(trait, bytes_);
      if (!base.empty()) facts_.definitions[d].bases.push_back(std::move(base));
    }
    return d;
  }

  void mod_declaration(TSNode node, uint32_t scope) {
    code::Import declared;
    declared.source = std::string(kModDeclaration);
    declared.name = std::string(text_of(field(node, Field::Name), bytes_));
    declared.alias = path_attribute(before(node), bytes_);
    declared.line = line_of(node);
    declared.reexport = has_child_of_type(node, "visibility_modifier");
    declared.scope = scope;
    facts_.imports.push_back(std::move(declared));
  }

  void add_import(std::string source, std::string name, std::string alias, uint32_t scope,
                  bool reexport, uint32_t line) {
    facts_.imports.push_back(
        {std::move(source), std::move(name), std::move(alias), line, reexport, scope});
  }

  static std::string joined(const std::string& prefix, const std::string& path) {
    if (prefix.empty()) return path;
    if (path.empty()) return prefix;
    return prefix + "::" + path;
  }

  // One clause of a `use` tree under `prefix` (`use a::{b, c::{d as e, *}}`).
  void use(TSNode clause, const std::string& prefix, uint32_t scope, bool reexport, uint32_t line,
           int depth) {
    if (ts_node_is_null(clause) || depth > 16) return;
    const std::string_view kind = type_of(clause);
    if (kind == "use_list") {
      for (const TSNode child : code::NamedChildren(clause)) {
        use(child, prefix, scope, reexport, line, depth + 1);
      }
    } else if (kind == "scoped_use_list") {
      use(field(clause, Field::List), joined(prefix, path_text(field(clause, Field::Path), bytes_)),
          scope, reexport, line, depth + 1);
    } else if (kind == "use_wildcard") {
      const TSNode path = code::NamedChildren(clause)[0];
      const std::string module =
          joined(prefix, ts_node_is_null(path) ? std::string() : path_text(path, bytes_));
      if (!module.empty()) add_import(module, "*", {}, scope, reexport, line);
    } else if (kind == "use_as_clause") {
      std::string path = joined(prefix, path_text(field(clause, Field::Path), bytes_));
      if (path.ends_with("::self")) path.resize(path.size() - 6);
      if (path.empty()) return;
      const std::string name(last_segment(path));
      add_import(std::move(path), name, std::string(text_of(field(clause, Field::Alias), bytes_)),
                 scope, reexport, line);
    } else {
      std::string path = joined(prefix, path_text(clause, bytes_));
      if (path.ends_with("::self")) path.resize(path.size() - 6);  // `use a::{self}` binds a
      if (path.empty() || path == "self") return;
      const std::string name(last_segment(path));
      add_import(std::move(path), name, {}, scope, reexport, line);
    }
  }

  void extern_crate(TSNode node, uint32_t scope) {
    const std::string name(text_of(field(node, Field::Name), bytes_));
    const TSNode alias = field(node, Field::Alias);
    add_import(name, name, ts_node_is_null(alias) ? std::string() : std::string(text_of(alias, bytes_)),
               scope, has_child_of_type(node, "visibility_modifier"), line_of(node));
  }

  void call(TSNode node, uint32_t scope) {
    TSNode function = field(node, Field::Function);
    if (type_of(function) == "generic_function") function = field(function, Field::Function);
    const std::string_view kind = type_of(function);
    code::Call c;
    c.scope = scope;
    c.line = line_of(node);
    if (kind == "identifier") {
      c.name = std::string(text_of(function, bytes_));
    } else if (kind == "scoped_identifier") {
      c.form = CallForm::Path;
      c.receiver = path_text(field(function, Field::Path), bytes_);
      c.name = std::string(text_of(field(function, Field::Name), bytes_));
      if (c.receiver.empty()) return;
    } else if (kind == "field_expression") {
      c.form = CallForm::Member;
      c.receiver = receiver_text(field(function, Field::Value), bytes_);
      c.name = std::string(text_of(field(function, Field::Field), bytes_));
      if (c.receiver.empty()) return;
    } else {
      return;
    }
    facts_.calls.push_back(std::move(c));
  }

  // A binding with an evident type; `mut x` and `ref x` patterns bind x, others nothing.
  void typed(uint32_t scope, TSNode pattern, std::string type) {
    if (ts_node_is_null(pattern) || type.empty() || scope == 0) return;
    const std::string_view kind = type_of(pattern);
    if (kind != "identifier" && kind != "field_identifier") return;
    facts_.typed_names.push_back({scope, std::string(text_of(pattern, bytes_)), std::move(type)});
  }

  // `struct Regex(Exec, pub Pool)`: fields named by position ("0", "1").
  void tuple_fields(TSNode list, uint32_t scope) {
    uint32_t position = 0;
    for (const TSNode child : code::NamedChildren(list)) {
      const std::string_view kind = type_of(child);
      if (kind == "attribute_item" || kind == "visibility_modifier") continue;
      std::string type = type_path(child, bytes_);
      if (!type.empty()) {
        facts_.typed_names.push_back({scope, std::to_string(position), std::move(type)});
      }
      ++position;
    }
  }

  // `T: A + B` in a parameter list or a where clause: T's methods are A's and B's.
  void bounds(TSNode node, uint32_t scope) {
    const bool parameter = kind_of(node) == Kind::TypeParameter;
    const TSNode name = field(node, parameter ? Field::Name : Field::Left);
    const TSNode list = field(node, Field::Bounds);
    if (ts_node_is_null(name) || ts_node_is_null(list) || type_of(name) != "type_identifier") {
      return;
    }
    const std::string bound_name = kBoundOpen + std::string(text_of(name, bytes_)) + ">";
    for (const TSNode bound : code::NamedChildren(list)) {
      std::string trait = path_text(bound, bytes_);
      if (!trait.empty()) facts_.typed_names.push_back({scope, bound_name, std::move(trait)});
    }
  }

  std::string_view bytes_;
  CodeFacts& facts_;
  code::ChildLists lists_;
  std::vector<TSNode> gathered_;  // before()'s siblings of a node outside the walk
};

}  // namespace

CodeFacts extract_facts(std::string_view bytes) {
  return code::extract(bytes, {.grammar = tree_sitter_rust(), .shebang = true},
                       [&](TSNode root, CodeFacts& facts) { Walker(bytes, facts).run(root); });
}

}  // namespace anchorfs::analysis::rust
