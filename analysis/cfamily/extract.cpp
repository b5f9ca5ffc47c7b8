// The C and C++ extractor: definitions with tag anchors a preprocessor cannot see, includes,
// prototypes, typed names and call sites, in one walk of the syntax tree.
#include "analysis/cfamily/extract.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "analysis/cfamily/directives_only.h"
#include "analysis/cfamily/lexical.h"
#include "analysis/code/anchors.h"
#include "analysis/code/child_list.h"
#include "analysis/code/extract.h"
#include "analysis/code/syntax.h"
#include "analysis/code/text_layout.h"
#include "analysis/code/walk.h"
#include "analysis/parse_budget.h"

namespace anchorfs::analysis::cfamily {
namespace {

using code::text_of;
using code::type_of;

// tree-sitter's ERROR node (ts_builtin_sym_error; runtime 0.20 has no ts_node_is_error).
constexpr TSSymbol kErrorSymbol = static_cast<TSSymbol>(-1);

bool is(TSNode node, std::string_view type) {
  return !ts_node_is_null(node) && type_of(node) == type;
}

// "A<T>" -> "A", "ns::B<int>::C" -> "ns::B::C": template arguments never name a class.
std::string without_template_arguments(std::string_view text) {
  std::string out;
  int depth = 0;
  for (const char c : text) {
    if (c == '<') {
      ++depth;
    } else if (c == '>') {
      if (depth > 0) --depth;
    } else if (depth == 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      out += c;
    }
  }
  if (out.starts_with("::")) out.erase(0, 2);
  return out;
}

// "ns::A" -> "ns.A": the id form of a qualified name.
std::string dotted(std::string_view qualified) {
  std::string out;
  for (size_t i = 0; i < qualified.size(); ++i) {
    if (qualified.compare(i, 2, "::") == 0) {
      out += '.';
      ++i;
    } else {
      out += qualified[i];
    }
  }
  return out;
}

using F = Field;

class Extractor {
 public:
  Extractor(std::string_view bytes, Dialect dialect, code::CodeFacts& facts)
      : facts_(facts),
        bytes_(bytes),
        dialect_(dialect),
        fields_(field_ids(dialect)),
        cpp_(dialect == Dialect::Cpp),
        unsafe_(unsafe_line_starts(bytes, cpp_)) {}

  void run(TSNode root) {
    facts_.package = cpp_ ? "c++" : "c";  // the dialect: resolution reads C++ calls more strictly
    walk(root, 0, 0);
    // C's meaning is the preprocessor's and the compiler's, not tree-sitter's: a tag line at a
    // line start the lexical scan allows is whitespace to both, so a file the grammar only
    // partly understands (macros it cannot expand) is still tagged. Too deep is not.
    if (too_deep_) facts_.parsed_cleanly = false;
    if (facts_.has_file_anchor && !safe(facts_.file_anchor)) {
      facts_.has_file_anchor = false;
      facts_.file_anchor = 0;
    }
  }

 private:
  std::string_view text(TSNode node) const { return text_of(node, bytes_); }

  // The child in field `f`, or a null node.
  TSNode field(TSNode node, Field f) const {
    return anchorfs_child_by_field(node, fields_[static_cast<size_t>(f)]);
  }

  bool safe(uint64_t line_start) const {
    // The row of a line start: count the line breaks before it (only for anchors, a few per file).
    const uint32_t row = line_row(line_start);
    return row < unsafe_.size() && !unsafe_[row];
  }

  uint32_t line_row(uint64_t offset) const {
    // Anchors arrive in increasing order mostly; restart the count when one goes backwards.
    if (offset < row_offset_) {
      row_offset_ = 0;
      row_ = 0;
    }
    for (uint64_t i = row_offset_; i < offset && i < bytes_.size(); ++i) {
      if (bytes_[i] == '\n') ++row_;
    }
    row_offset_ = offset;
    return row_;
  }

  void walk_children(TSNode node, uint32_t scope, int depth) {
    if (ts_node_child_count(node) == 0) return;
    lists_.each_named(node, static_cast<size_t>(depth),
                      [&](TSNode child) { walk(child, scope, depth + 1); });
  }

  void walk(TSNode node, uint32_t scope, int depth) {
    if (depth > code::kMaxDepth) {
      too_deep_ = true;
      return;
    }
    if (ts_node_symbol(node) == kErrorSymbol) {
      // What error recovery produced is no definition; calls inside are still calls.
      if (!in_error_) macros_in_error(node, scope);
      const bool saved = std::exchange(in_error_, true);
      walk_children(node, scope, depth);
      in_error_ = saved;
      return;
    }
    if (cpp_ && is(node, "preproc_if") &&
        text(field(node, F::Condition)) == std::string_view("0")) {
      // `#if 0 ... #endif` is compiled out: Boost.Preprocessor documents each macro with a
      // function-like `#define` there while the real one is an object-like alias.
      const TSNode alternative = field(node, F::Alternative);
      if (!ts_node_is_null(alternative)) walk(alternative, scope, depth + 1);
      return;
    }
    switch (kind_of(node, dialect_)) {
      case Node::FunctionDefinition:
        function_definition(node, scope, depth);
        return;
      case Node::Declaration:
        declaration(node, scope, depth);
        return;
      case Node::StructLike:
      case Node::EnumSpecifier:
        type_specifier(node, scope, depth, {});
        return;
      case Node::TypeDefinition:
        type_definition(node, scope, depth);
        return;
      case Node::Namespace:
        namespace_definition(node, scope, depth);
        return;
      case Node::PreprocInclude:
        include(node);
        return;
      case Node::PreprocFunctionDef:
        macro(node, scope);
        return;
      case Node::Call:
        call(node, scope);
        break;
      case Node::New:
        new_expression(node, scope);
        break;
      case Node::PreprocOther:
      case Node::Comment:
      case Node::Literal:
        return;
      default:
        break;
    }
    walk_children(node, scope, depth);
  }

  // --- Definitions ----------------------------------------------------------------------------

  // The node a definition's block goes above: the definition, or the template declaration or
  // single-declaration `extern "C"` around it (never between them). With the walk's list
  // holding it when there is one (code::ChildLists): tree-sitter finds a node's parent and previous
  // sibling by searching down from the root, quadratic in a file's top-level declarations.
  std::pair<TSNode, const code::ChildLists::Level*> outermost(TSNode node) const {
    const code::ChildLists::Level* at = lists_.on(node);
    for (TSNode parent = at != nullptr ? at->node : ts_node_parent(node); !ts_node_is_null(parent);
         parent = at != nullptr ? at->node : ts_node_parent(node)) {
      const std::string_view t = type_of(parent);
      if (t != "template_declaration" && t != "linkage_specification") break;
      node = parent;
      at = lists_.on(node);
    }
    return {node, at};
  }

  uint32_t add_definition(code::Definition def, TSNode anchor_node) {
    const auto [outer, at] = outermost(anchor_node);
    const TSNode first = at != nullptr
                             ? code::attached_start(outer, bytes_, {"comment"}, at->before())
                             : code::attached_start(outer, bytes_, {"comment"});
    if (const auto start = code::own_line_start(bytes_, ts_node_start_byte(first));
        start && safe(*start)) {
      def.has_anchor = true;
      def.anchor_offset = *start;
      def.anchor_indent = std::string(code::indent_at(bytes_, *start));
    }
    facts_.definitions.push_back(std::move(def));
    return static_cast<uint32_t>(facts_.definitions.size() - 1);
  }

  bool is_class_scope(uint32_t scope) const {
    return scope != 0 && facts_.definitions[scope].kind == EntityKind::Class &&
           facts_.definitions[scope].role != "namespace";
  }

  // The function_declarator inside a declarator (through pointers, references, parentheses and
  // attributes), or a null node when it declares no function (`int (*fp)(int)` is a variable).
  TSNode function_declarator(TSNode declarator) const {
    for (int hops = 0; hops < 16 && !ts_node_is_null(declarator); ++hops) {
      const std::string_view t = type_of(declarator);
      if (t == "function_declarator") {
        const TSNode inner = field(declarator, F::Declarator);
        return is(inner, "parenthesized_declarator") ? TSNode{} : declarator;
      }
      if (t == "pointer_declarator" || t == "attributed_declarator" || t == "init_declarator") {
        declarator = field(declarator, F::Declarator);
      } else if (t == "parenthesized_declarator" || t == "reference_declarator") {
        // tree-sitter-cpp gives `T& f()`'s and `T&& x`'s inner declarator no field name.
        declarator = ts_node_named_child(declarator, 0);
      } else {
        return {};
      }
    }
    return {};
  }

  // The declared name of a variable declarator, or a null node.
  TSNode declared_name(TSNode declarator) const {
    for (int hops = 0; hops < 16 && !ts_node_is_null(declarator); ++hops) {
      const std::string_view t = type_of(declarator);
      if (t == "identifier" || t == "field_identifier") return declarator;
      if (t == "parenthesized_declarator" || t == "reference_declarator") {
        declarator = ts_node_named_child(declarator, 0);
      } else {
        declarator = field(declarator, F::Declarator);
      }
    }
    return {};
  }

  struct FunctionName {
    std::string name;   // simple
    std::string owner;  // the written qualifier without template arguments ("ns::A"), or ""
    TSNode node{};
  };

  FunctionName function_name(TSNode declarator) const {
    FunctionName out;
    TSNode name = field(declarator, F::Declarator);
    std::string owner;
    for (int hops = 0; hops < 16 && is(name, "qualified_identifier"); ++hops) {
      const TSNode scope = field(name, F::Scope);
      if (!ts_node_is_null(scope)) {
        if (!owner.empty()) owner += "::";
        owner += without_template_arguments(
            text(is(scope, "template_type") ? field(scope, F::Name) : scope));
      }
      name = field(name, F::Name);
    }
    if (is(name, "template_function")) name = field(name, F::Name);
    if (ts_node_is_null(name)) return out;
    const std::string_view t = type_of(name);
    if (t != "identifier" && t != "field_identifier" && t != "destructor_name" &&
        t != "operator_name") {
      return out;
    }
    out.name = without_template_arguments(text(name));
    out.owner = std::move(owner);
    out.node = name;
    return out;
  }

  // `SYSCALL_DEFINE3(...) {`, `T f() BOOST_NOEXCEPT_IF(x) {`: a name in capitals is a macro the
  // grammar took for the function's name; what it defines is not evident.
  static bool macro_like(std::string_view name) {
    bool letter = false;
    for (const char c : name) {
      if (c >= 'a' && c <= 'z') return false;
      letter = letter || (c >= 'A' && c <= 'Z');
    }
    return letter && name.size() > 1;
  }

  // Parameter count (required ones) and whether more may be passed (`...`, default values).
  std::pair<uint32_t, bool> parameters(TSNode declarator, uint32_t scope, bool declare) {
    const TSNode list = field(declarator, F::Parameters);
    uint32_t arity = 0;
    bool open = false;
    const uint32_t n = ts_node_child_count(list);
    for (uint32_t i = 0; i < n; ++i) {
      const TSNode param = ts_node_child(list, i);
      const std::string_view t = type_of(param);
      if (t == "..." || t == "variadic_parameter" || t == "variadic_parameter_declaration") {
        open = true;
      } else if (t == "optional_parameter_declaration") {
        open = true;
        if (declare) typed_name(param, field(param, F::Declarator), scope);
      } else if (t == "parameter_declaration") {
        const TSNode decl = field(param, F::Declarator);
        // `f(void)` takes nothing.
        if (ts_node_is_null(decl) && text(field(param, F::Type)) == std::string_view("void"))
          continue;
        ++arity;
        if (declare) typed_name(param, decl, scope);
      }
    }
    return {arity, open};
  }

  bool is_static(TSNode node) const {
    const uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      const TSNode child = ts_node_named_child(node, i);
      if (is(child, "storage_class_specifier") && text(child) == std::string_view("static")) {
        return true;
      }
    }
    return false;
  }

  // The latest class of this file named `name` declared in `scope`, or 0.
  uint32_t class_in(std::string_view name, uint32_t scope) const {
    for (uint32_t d = static_cast<uint32_t>(facts_.definitions.size()); d-- > 1;) {
      const code::Definition& def = facts_.definitions[d];
      if (def.kind == EntityKind::Class && def.parent == scope && def.name == name &&
          def.role != "namespace" && def.role != "enum") {
        return d;
      }
    }
    return 0;
  }

  // `int sync() BOOST_OVERRIDE {`, `void A::f() BOOST_NOEXCEPT {`: tree-sitter-cpp takes the
  // trailing macro (a noexcept or virt-specifier spelled as a macro) for the declarator and puts
  // the real one in an ERROR before it. That one is the function's declarator when the macro is
  // in capitals and the ERROR holds just a function declarator, or `name()` read as an
  // initializer with no argument (nothing else is evident about its parameters).
  TSNode trailing_macro_declarator(TSNode node) const {
    TSNode at = node;
    TSNode written = field(node, F::Declarator);
    for (int hops = 0; hops < 4 && is(written, "reference_declarator"); ++hops) {
      at = written;
      written = ts_node_named_child(written, ts_node_named_child_count(written) - 1);
    }
    const std::string_view t = ts_node_is_null(written) ? "" : type_of(written);
    if ((t != "identifier" && t != "field_identifier") || !macro_like(text(written))) return {};
    TSNode found{};
    const uint32_t n = ts_node_named_child_count(at);
    for (uint32_t i = 0; i < n; ++i) {
      const TSNode child = ts_node_named_child(at, i);
      if (ts_node_symbol(child) != kErrorSymbol) continue;
      if (!ts_node_is_null(found) || ts_node_named_child_count(child) != 1) return {};
      const TSNode inner = ts_node_named_child(child, 0);
      if (is(inner, "function_declarator") && !ts_node_has_error(inner)) {
        found = inner;
      } else if (is(inner, "init_declarator") && is(field(inner, F::Value), "argument_list") &&
                 ts_node_named_child_count(field(inner, F::Value)) == 0) {
        found = inner;
      } else {
        return {};
      }
    }
    return found;
  }

  // `class BOOST_URL_DECL url : public url_view_base {...}`: tree-sitter-cpp reads a class
  // whose head carries an export macro as a function definition (type `class BOOST_URL_DECL`,
  // the body a compound statement). The head between the macro and the body is read as the
  // compiler reads it when it is nothing but names: macros in capitals, the class's name, then
  // optionally `:` and base specifiers. Returns the class's number, or 0 when it is not that.
  uint32_t export_macro_class(TSNode node, uint32_t scope) {
    const TSNode type = field(node, F::Type);
    const TSNode body = field(node, F::Body);
    if (!cpp_ || in_error_ || !is(body, "compound_statement")) return 0;
    const std::string_view t = ts_node_is_null(type) ? "" : type_of(type);
    if (t != "class_specifier" && t != "struct_specifier" && t != "union_specifier") return 0;
    const TSNode macro = field(type, F::Name);
    if (!ts_node_is_null(field(type, F::Body)) || !is(macro, "type_identifier") ||
        !macro_like(text(macro))) {
      return 0;
    }
    const size_t begin = ts_node_end_byte(type);
    const std::string_view head = bytes_.substr(begin, ts_node_start_byte(body) - begin);
    std::vector<std::string_view> words;  // identifiers, "::", ":", ",", "<...>"
    for (size_t i = 0; i < head.size();) {
      const char c = head[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++i;
      } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
        const size_t start = i;
        while (i < head.size() &&
               (std::isalnum(static_cast<unsigned char>(head[i])) || head[i] == '_')) {
          ++i;
        }
        words.push_back(head.substr(start, i - start));
      } else if (head.compare(i, 2, "::") == 0) {
        words.push_back(head.substr(i, 2));
        i += 2;
      } else if (c == ':' || c == ',') {
        words.push_back(head.substr(i++, 1));
      } else if (c == '<') {
        const size_t start = i;
        int open = 0;
        for (; i < head.size(); ++i) {
          if (head[i] == '<') ++open;
          if (head[i] == '>' && --open == 0) break;
          if (head[i] == '(' || head[i] == '{' || head[i] == ';' || head[i] == '/') return 0;
        }
        if (i == head.size()) return 0;
        words.push_back(head.substr(start, ++i - start));
      } else {
        return 0;  // a comment, a parenthesis, a directive: not a plain head
      }
    }
    size_t at = 0;
    while (at + 1 < words.size() && macro_like(words[at]) && words[at + 1] != ":" &&
           words[at + 1] != "::" && words[at + 1] != ",") {
      ++at;
    }
    if (at >= words.size() || macro_like(words[at]) ||
        (!std::isalpha(static_cast<unsigned char>(words[at][0])) && words[at][0] != '_')) {
      return 0;
    }
    code::Definition def;
    def.kind = EntityKind::Class;
    def.parent = scope;
    def.name = std::string(words[at]);
    def.line = line_row(begin + static_cast<size_t>(words[at].data() - head.data())) + 1;
    def.exported = true;
    def.role = t == "struct_specifier" ? "struct" : t == "union_specifier" ? "union" : "class";
    if (++at < words.size() && words[at] == "final") ++at;
    if (at < words.size()) {
      if (words[at] != ":") return 0;
      std::string base;
      for (++at; at <= words.size(); ++at) {
        const std::string_view w = at < words.size() ? words[at] : ",";
        if (w == ",") {
          if (base.empty() || base.ends_with("::")) return 0;
          def.bases.push_back(std::move(base));
          base.clear();
        } else if (w == "public" || w == "protected" || w == "private" || w == "virtual") {
          if (!base.empty()) return 0;
        } else if (w.starts_with("<")) {
          if (base.empty()) return 0;  // template arguments never name a class
        } else if (w == "::" || base.empty() || base.ends_with("::")) {
          base += w;
        } else {
          return 0;
        }
      }
    }
    return add_definition(std::move(def), node);
  }

  void function_definition(TSNode node, uint32_t scope, int depth) {
    if (const uint32_t cls = export_macro_class(node, scope); cls != 0) {
      walk(field(node, F::Body), cls, depth + 1);
      return;
    }
    TSNode declarator = function_declarator(field(node, F::Declarator));
    if (ts_node_is_null(declarator) && cpp_) declarator = trailing_macro_declarator(node);
    FunctionName fn = ts_node_is_null(declarator) ? FunctionName{} : function_name(declarator);
    if (fn.name.empty() || in_error_ || ts_node_has_error(declarator) || macro_like(fn.name)) {
      walk_children(node, scope, depth);
      return;
    }
    // C never nests functions: one inside another is tree-sitter reading a macro it cannot
    // expand (`for_each_x(...) {`) as an unclosed block. It belongs where its enclosing one does.
    while (!cpp_ && scope != 0 && facts_.definitions[scope].kind == EntityKind::Function) {
      scope = facts_.definitions[scope].parent;
    }
    code::Definition def;
    def.kind = EntityKind::Function;
    def.line = code::line_of(fn.node);
    def.exported = !is_static(node);
    def.parent = scope;
    def.name = fn.name;
    uint32_t cls = is_class_scope(scope) ? scope : 0;
    if (!fn.owner.empty()) {
      // `A::f` joins class A when this file declares it here; elsewhere it is a top-level `A.f`.
      const size_t sep = fn.owner.rfind("::");
      const std::string_view last = sep == std::string::npos
                                        ? std::string_view(fn.owner)
                                        : std::string_view(fn.owner).substr(sep + 2);
      cls = sep == std::string::npos ? class_in(last, scope) : 0;
      if (cls != 0) {
        def.parent = cls;
      } else {
        def.name = dotted(fn.owner) + "." + fn.name;
        def.owner = fn.owner;
      }
    }
    const std::string_view class_name =
        cls != 0 ? std::string_view(facts_.definitions[cls].name)
                 : std::string_view(fn.owner).substr(
                       fn.owner.rfind("::") == std::string::npos ? 0 : fn.owner.rfind("::") + 2);
    const bool member = cls != 0 || !fn.owner.empty();
    def.role = !member                    ? "function"
               : fn.name == class_name    ? "constructor"
               : fn.name.starts_with("~") ? "destructor"
                                          : "method";
    const uint32_t d = add_definition(std::move(def), node);
    const auto [arity, open] = is(declarator, "init_declarator")
                                   ? std::pair<uint32_t, bool>{0, false}
                                   : parameters(declarator, d, cpp_);
    facts_.definitions[d].arity = arity;
    facts_.definitions[d].variadic = open;
    const uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      const TSNode child = ts_node_named_child(node, i);
      const std::string_view t = type_of(child);
      if (t == "field_initializer_list" && cls != 0 && facts_.definitions[d].role == "constructor")
        base_initializers(child, cls, d);
      if (t == "compound_statement" || t == "field_initializer_list" || t == "try_statement") {
        walk(child, d, depth + 1);
      }
    }
  }

  // `A(int x) : Base(x), A(x, 0)`: an initializer naming a base the class's head writes, or the
  // class itself (a delegating constructor), constructs it. Any other name is a field, whose
  // type this file may not show.
  void base_initializers(TSNode list, uint32_t cls, uint32_t constructor) {
    const uint32_t n = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < n; ++i) {
      const TSNode init = ts_node_named_child(list, i);
      if (!is(init, "field_initializer") || ts_node_named_child_count(init) != 2) continue;
      TSNode name = ts_node_named_child(init, 0);
      if (is(name, "template_method")) name = field(name, F::Name);
      const std::string written = without_template_arguments(text(name));
      const std::vector<std::string>& bases = facts_.definitions[cls].bases;
      if (written != facts_.definitions[cls].name &&
          std::find(bases.begin(), bases.end(), written) == bases.end()) {
        continue;
      }
      const TSNode args = ts_node_named_child(init, 1);
      if (!is(args, "argument_list") && !is(args, "initializer_list")) continue;
      code::Call c;
      c.scope = constructor;
      c.form = code::CallForm::Construct;
      c.name = written;
      c.line = code::line_of(init);
      c.arity = argument_count(args);
      c.argument_types = sole_argument(args);
      facts_.calls.push_back(std::move(c));
    }
  }

  // A declaration or field declaration: prototypes, variables and fields of evident type,
  // constructions, and what the initializers call.
  void declaration(TSNode node, uint32_t scope, int depth) {
    const TSNode type = field(node, F::Type);
    if (!ts_node_is_null(type)) {
      const Node k = kind_of(type, dialect_);
      if (k == Node::StructLike || k == Node::EnumSpecifier)
        type_specifier(type, scope, depth + 1, node);
    }
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    std::vector<TSNode> declarators;
    std::vector<TSNode> others;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        const TSNode child = ts_tree_cursor_current_node(&cursor);
        const TSFieldId f = ts_tree_cursor_current_field_id(&cursor);
        if (f == 0) continue;
        if (f == fields_[static_cast<size_t>(F::Declarator)]) {
          declarators.push_back(child);
        } else if (f == fields_[static_cast<size_t>(F::DefaultValue)] ||
                   f == fields_[static_cast<size_t>(F::Value)]) {
          others.push_back(child);
        }
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    for (const TSNode declarator : declarators) {
      const TSNode fn = function_declarator(declarator);
      if (!ts_node_is_null(fn)) {
        FunctionName name = function_name(fn);
        // A prototype inside an ERROR region (after an attribute macro the grammar cannot
        // read, `__printf(2, 3) __cold`) still declares its name: kept, since a declaration only
        // ever makes resolution more careful (a configuration switch in sight) or lets a call
        // reach the one definition it names.
        if (!name.name.empty()) {
          facts_.declarations.push_back(
              {scope, std::move(name.name), std::move(name.owner), code::line_of(fn)});
        }
        continue;
      }
      if (cpp_) {
        typed_name(node, declarator, scope);
        construction(type, declarator, scope);
      }
      if (is(declarator, "init_declarator")) {
        const TSNode value = field(declarator, F::Value);
        if (!ts_node_is_null(value)) walk(value, scope, depth + 1);
      }
    }
    for (const TSNode other : others) walk(other, scope, depth + 1);
  }

  // The class a type names ("const ns::A<int>&" -> "ns::A"), "" for primitive and unnamed types.
  std::string class_type(TSNode type) const {
    if (ts_node_is_null(type)) return {};
    const std::string_view t = type_of(type);
    if (t == "type_identifier" || t == "qualified_identifier")
      return without_template_arguments(text(type));
    if (t == "template_type") return without_template_arguments(text(field(type, F::Name)));
    if (t == "struct_specifier" || t == "class_specifier" || t == "union_specifier") {
      return class_type(field(type, F::Name));
    }
    return {};
  }

  void typed_name(TSNode decl, TSNode declarator, uint32_t scope) {
    const TSNode name = declared_name(declarator);
    if (ts_node_is_null(name)) return;
    std::string type = class_type(field(decl, F::Type));
    if (type.empty()) return;
    facts_.typed_names.push_back({scope, std::string(text(name)), std::move(type)});
  }

  // `A a(x);`, `A a{x};`, `A a;` in a function: a construction of A.
  void construction(TSNode type, TSNode declarator, uint32_t scope) {
    if (scope == 0 || facts_.definitions[scope].kind != EntityKind::Function) return;
    std::string name = class_type(type);
    if (name.empty() || (!is(type, "type_identifier") && !is(type, "qualified_identifier") &&
                         !is(type, "template_type"))) {
      return;
    }
    uint32_t arity = 0;
    std::vector<std::string> argument;
    if (is(declarator, "init_declarator")) {
      const TSNode value = field(declarator, F::Value);
      if (!is(value, "argument_list") && !is(value, "initializer_list")) return;
      arity = argument_count(value);
      argument = sole_argument(value);
    } else if (!is(declarator, "identifier")) {
      return;  // pointers and references construct nothing
    }
    code::Call c;
    c.scope = scope;
    c.form = code::CallForm::Construct;
    c.name = std::move(name);
    c.line = code::line_of(declarator);
    c.arity = arity;
    c.argument_types = std::move(argument);
    facts_.calls.push_back(std::move(c));
  }

  // A struct, union, class or enum specifier; with a body it is a definition. `holder` is the
  // declaration or typedef it is the type of (its block goes above that), or a null node.
  void type_specifier(TSNode node, uint32_t scope, int depth, TSNode holder,
                      std::string_view typedef_name = {}) {
    const TSNode body = field(node, F::Body);
    if (ts_node_is_null(body)) return;
    const bool is_enum = kind_of(node, dialect_) == Node::EnumSpecifier;
    const TSNode name_node = field(node, F::Name);
    std::string name =
        ts_node_is_null(name_node) ? std::string(typedef_name) : class_type(name_node);
    if (name.find("::") != std::string::npos || name.empty() || in_error_) {
      if (!is_enum)
        walk(body, scope, depth + 1);  // anonymous members belong to the enclosing scope
      return;
    }
    code::Definition def;
    def.kind = EntityKind::Class;
    def.parent = scope;
    def.name = std::move(name);
    def.line = code::line_of(ts_node_is_null(name_node) ? node : name_node);
    def.exported = true;
    const std::string_view t = type_of(node);
    def.role = t == "struct_specifier"  ? "struct"
               : t == "union_specifier" ? "union"
               : t == "class_specifier" ? "class"
                                        : "enum";
    // `struct X<T*> {...}`: a partial or explicit specialization. Which of a template's
    // definitions a dependent `X<U>::f()` reaches is not evident, so resolution never picks one.
    if (is(name_node, "template_type")) def.role += " specialization";
    const uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      const TSNode child = ts_node_named_child(node, i);
      if (!is(child, "base_class_clause")) continue;
      const uint32_t m = ts_node_named_child_count(child);
      for (uint32_t j = 0; j < m; ++j) {
        const std::string base = class_type(ts_node_named_child(child, j));
        if (!base.empty()) def.bases.push_back(base);
      }
    }
    const uint32_t d = add_definition(std::move(def), ts_node_is_null(holder) ? node : holder);
    if (!is_enum) walk(body, d, depth + 1);
  }

  void type_definition(TSNode node, uint32_t scope, int depth) {
    const TSNode type = field(node, F::Type);
    const TSNode name = declared_name(field(node, F::Declarator));
    const std::string typedef_name =
        ts_node_is_null(name) ? std::string() : std::string(text(name));
    const Node k = ts_node_is_null(type) ? Node::Other : kind_of(type, dialect_);
    if (k != Node::StructLike && k != Node::EnumSpecifier) return;
    if (!ts_node_is_null(field(type, F::Body))) {
      type_specifier(type, scope, depth + 1, node, typedef_name);
      return;
    }
    // `typedef struct x x_t;`: a name for a struct, union or enum.
    if (typedef_name.empty() || in_error_) return;
    code::Definition def;
    def.kind = EntityKind::Class;
    def.parent = scope;
    def.name = typedef_name;
    def.line = code::line_of(name);
    def.exported = true;
    def.role = "typedef";
    add_definition(std::move(def), node);
  }

  void namespace_definition(TSNode node, uint32_t scope, int depth) {
    const TSNode name = field(node, F::Name);
    const TSNode body = field(node, F::Body);
    if (ts_node_is_null(name) || in_error_) {
      if (!ts_node_is_null(body))
        walk(body, scope, depth + 1);  // anonymous: its names are the file's
      return;
    }
    code::Definition def;
    def.kind = EntityKind::Class;
    def.parent = scope;
    def.name = dotted(without_template_arguments(text(name)));
    def.line = code::line_of(name);
    def.exported = true;
    def.role = "namespace";
    const uint32_t d = add_definition(std::move(def), node);
    if (!ts_node_is_null(body)) walk(body, d, depth + 1);
  }

  void macro(TSNode node, uint32_t scope) {
    const TSNode name = field(node, F::Name);
    if (ts_node_is_null(name) || in_error_) return;  // macros_in_error read it
    code::Definition def;
    def.kind = EntityKind::Function;
    def.parent = is_class_scope(scope) ? 0 : scope;
    def.name = std::string(text(name));
    def.line = code::line_of(name);
    def.exported = true;
    def.role = "macro";
    const TSNode params = field(node, F::Parameters);
    const uint32_t n = ts_node_child_count(params);
    for (uint32_t i = 0; i < n; ++i) {
      const std::string_view t = type_of(ts_node_child(params, i));
      if (t == "identifier") ++def.arity;
      if (t == "...") def.variadic = true;
    }
    add_definition(std::move(def), node);
  }

  // The function-like macros of an ERROR region, read from its lines as the preprocessor reads
  // them: a `#define` is a line of its own whatever the grammar made of the code around it, and
  // error recovery often took the directives after an attribute macro it cannot read
  // (`__printf(2, 3) __cold`) for plain tokens, which left a header's macros (dev_err) unknown.
  // They get no block: a comment inside the region could change the recovery tree-sitter chose.
  void macros_in_error(TSNode node, uint32_t scope) {
    const size_t end = std::min<size_t>(ts_node_end_byte(node), bytes_.size());
    size_t at = ts_node_start_byte(node);
    if (at > 0 && bytes_[at - 1] != '\n') {
      at = bytes_.find('\n', at);
      if (at == std::string_view::npos) return;
      ++at;
    }
    while (at < end) {
      size_t eol = bytes_.find('\n', at);
      if (eol == std::string_view::npos) eol = bytes_.size();
      if (safe(at)) {
        if (const auto head = function_like_macro(bytes_.substr(at, eol - at))) {
          code::Definition def;
          def.kind = EntityKind::Function;
          def.parent = is_class_scope(scope) ? 0 : scope;
          def.name = std::string(head->name);
          def.line = line_row(at) + 1;
          def.exported = true;
          def.role = "macro";
          def.arity = head->arity;
          def.variadic = head->variadic;
          facts_.definitions.push_back(std::move(def));
        }
      }
      at = eol + 1;
    }
  }

  // --- References -----------------------------------------------------------------------------

  void include(TSNode node) {
    const TSNode path = field(node, F::Path);
    const std::string_view written = text(path);
    if (written.size() < 2) return;
    code::Import import;
    import.source = std::string(written.substr(1, written.size() - 2));
    // `name` tells the two forms apart: "<>" for a system-style include, "" for a quoted one.
    if (is(path, "system_lib_string"))
      import.name = "<>";
    else if (!is(path, "string_literal"))
      return;
    import.line = code::line_of(node);
    facts_.imports.push_back(std::move(import));
  }

  uint32_t argument_count(TSNode list) const {
    uint32_t count = 0;
    const uint32_t n = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < n; ++i) {
      if (kind_of(ts_node_named_child(list, i), dialect_) != Node::Comment) ++count;
    }
    return count;
  }

  // The one argument of a one-argument call as resolution types it: "*this", "this" or a
  // plain name; "" otherwise. A construction from a value of the class itself is a copy or a
  // move, which the implicit constructors take: resolution must not pick another by arity.
  std::vector<std::string> sole_argument(TSNode list) const {
    if (ts_node_is_null(list) || argument_count(list) != 1) return {};
    TSNode arg{};
    const uint32_t n = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < n && ts_node_is_null(arg); ++i) {
      const TSNode child = ts_node_named_child(list, i);
      if (kind_of(child, dialect_) != Node::Comment) arg = child;
    }
    if (is(arg, "pointer_expression") && text(field(arg, F::Operator)) == std::string_view("*") &&
        is(field(arg, F::Argument), "this")) {
      return {"*this"};
    }
    if (is(arg, "this")) return {"this"};
    if (is(arg, "identifier")) return {std::string(text(arg))};
    return {""};
  }

  // A receiver as resolution follows it: "this", a name, or a name's field ("this.a", "a.b").
  std::string receiver(TSNode node) const {
    if (is(node, "this")) return "this";
    if (is(node, "identifier")) return std::string(text(node));
    if (is(node, "parenthesized_expression") && ts_node_named_child_count(node) == 1) {
      return receiver(ts_node_named_child(node, 0));
    }
    if (is(node, "pointer_expression") && text(field(node, F::Operator)) == std::string_view("*")) {
      return receiver(field(node, F::Argument));
    }
    if (is(node, "field_expression")) {
      const TSNode arg = field(node, F::Argument);
      if (!is(arg, "this") && !is(arg, "identifier")) return {};
      const TSNode f = field(node, F::Field);
      if (!is(f, "field_identifier")) return {};
      return std::string(text(arg)) + "." + std::string(text(f));
    }
    return {};
  }

  // Whether a call in `scope` has an evident caller: C runs no code outside functions (a call
  // there is a macro invocation such as EXPORT_SYMBOL(f)), and what error recovery left outside
  // any function is no caller's code.
  bool has_caller(uint32_t scope) const {
    // C++ runs code outside functions only in initializers; a call at namespace scope is far
    // more often a function body error recovery detached from its function.
    return scope != 0 && facts_.definitions[scope].kind == EntityKind::Function &&
           facts_.definitions[scope].role != "macro";
  }

  void call(TSNode node, uint32_t scope) {
    if (!has_caller(scope)) return;
    TSNode function = field(node, F::Function);
    code::Call c;
    c.scope = scope;
    c.line = code::line_of(node);
    c.arity = argument_count(field(node, F::Arguments));
    if (is(function, "template_function")) function = field(function, F::Name);
    const std::string_view t = ts_node_is_null(function) ? "" : type_of(function);
    if (t == "identifier") {
      c.form = code::CallForm::Plain;
      c.name = std::string(text(function));
      if (cpp_) c.argument_types = sole_argument(field(node, F::Arguments));
    } else if (t == "qualified_identifier") {
      const std::string qualified = without_template_arguments(text(function));
      const size_t sep = qualified.rfind("::");
      if (sep == std::string::npos || sep == 0) return;
      c.form = code::CallForm::Path;
      c.receiver = qualified.substr(0, sep);
      c.name = qualified.substr(sep + 2);
    } else if (t == "field_expression") {
      TSNode member = field(function, F::Field);
      if (is(member, "template_method")) member = field(member, F::Name);
      if (!is(member, "field_identifier")) return;
      c.receiver = receiver(field(function, F::Argument));
      if (c.receiver.empty()) return;
      c.form = code::CallForm::Member;
      c.name = std::string(text(member));
    } else {
      return;
    }
    facts_.calls.push_back(std::move(c));
  }

  void new_expression(TSNode node, uint32_t scope) {
    if (!has_caller(scope)) return;
    std::string name = class_type(field(node, F::Type));
    if (name.empty()) return;
    code::Call c;
    c.scope = scope;
    c.form = code::CallForm::Construct;
    c.name = std::move(name);
    c.line = code::line_of(node);
    const TSNode args = field(node, F::Arguments);
    c.arity = ts_node_is_null(args) ? 0 : argument_count(args);
    c.argument_types = sole_argument(args);
    facts_.calls.push_back(std::move(c));
  }

  code::CodeFacts& facts_;
  std::string_view bytes_;
  Dialect dialect_;
  const FieldIds& fields_;
  bool cpp_;
  std::vector<bool> unsafe_;
  code::ChildLists lists_;
  bool too_deep_ = false;
  bool in_error_ = false;
  mutable uint64_t row_offset_ = 0;
  mutable uint32_t row_ = 0;
};

}  // namespace

bool plain_tree_fits_budget(uint64_t items, uint64_t size) {
  return items <= (parse_budget_bytes(size) - kPlainTreeFixedBytes) / kPlainTreeBytesPerItem;
}

code::CodeFacts extract_facts(std::string_view bytes, Dialect dialect) {
  if (const auto items = plain_directive_items(bytes);
      items && plain_tree_fits_budget(*items, bytes.size())) {
    return plain_directive_facts(bytes, dialect);
  }
  return extract_facts_by_parse(bytes, dialect);
}

// What code::extract and the walk give such a file, without the tree: the layout; then, as for
// any file that parses within its budget, parsed_cleanly and the file anchor where the lexical
// scan allows it; the dialect. The walk finds nothing: every node of the tree is a
// `preproc_def`, `preproc_call` (`#undef`), `preproc_ifdef`/`preproc_else`, or a comment.
code::CodeFacts plain_directive_facts(std::string_view bytes, Dialect dialect) {
  code::CodeFacts facts;
  code::set_layout(facts, bytes);
  if (bytes.size() > UINT32_MAX || nests_too_deep_to_parse(bytes)) return facts;
  facts.parsed_cleanly = true;
  const bool cpp = dialect == Dialect::Cpp;
  facts.package = cpp ? "c++" : "c";
  if (const auto anchor = code::file_anchor(bytes, /*shebang=*/false, /*separated=*/false)) {
    // The scan decides a line start's safety at the line break before it: the bytes above the
    // anchor (a byte order mark, empty lines) are all it needs.
    const std::string_view above = bytes.substr(0, *anchor);
    const std::vector<bool> unsafe = unsafe_line_starts(above, cpp);
    const auto row = static_cast<size_t>(std::count(above.begin(), above.end(), '\n'));
    if (row < unsafe.size() && !unsafe[row]) {
      facts.has_file_anchor = true;
      facts.file_anchor = *anchor;
    }
  }
  return facts;
}

code::CodeFacts extract_facts_by_parse(std::string_view bytes, Dialect dialect) {
  return code::extract(
      bytes, {.grammar = grammar_of(dialect), .errors_clear_anchors = false},
      [&](TSNode root, code::CodeFacts& facts) { Extractor(bytes, dialect, facts).run(root); });
}

}  // namespace anchorfs::analysis::cfamily
