// Second walk over a parsed Python tree collecting the dense-view facts (docs/dense.md).
#include "analysis/python/dense_extract.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/python/child_walk.h"
#include "analysis/python/dense_names.h"
#include "analysis/python/grammar.h"

namespace anchorfs::analysis::python {
namespace {

enum class K : uint8_t {
  Other,
  Identifier,
  Attribute,
  Call,
  ArgumentList,
  KeywordArgument,
  Subscript,
  String,
  StringStart,
  StringContent,
  Interpolation,
  ComparisonOperator,
  Assignment,
  AugmentedAssignment,
  ForStatement,
  ForInClause,
  Pattern,  // pattern_list, tuple_pattern, list_pattern, list_splat_pattern, tuple, list, ...
  NamedExpression,
  AsPattern,
  AsPatternTarget,
  DeleteStatement,
  Skipped,  // imports, global/nonlocal, comments, annotations, case patterns, type aliases
  FunctionDefinition,
  ClassDefinition,
  DecoratedDefinition,
  Decorator,
  Parameters,
  DefaultParameter,
  Lambda,
};

constexpr NamedKind<K> kNamedKinds[] = {
    {"identifier", K::Identifier},
    {"attribute", K::Attribute},
    {"call", K::Call},
    {"argument_list", K::ArgumentList},
    {"keyword_argument", K::KeywordArgument},
    {"subscript", K::Subscript},
    {"string", K::String},
    {"string_start", K::StringStart},
    {"string_content", K::StringContent},
    {"interpolation", K::Interpolation},
    {"comparison_operator", K::ComparisonOperator},
    {"assignment", K::Assignment},
    {"augmented_assignment", K::AugmentedAssignment},
    {"for_statement", K::ForStatement},
    {"for_in_clause", K::ForInClause},
    {"pattern_list", K::Pattern},
    {"tuple_pattern", K::Pattern},
    {"list_pattern", K::Pattern},
    {"list_splat_pattern", K::Pattern},
    {"list_splat", K::Pattern},
    {"tuple", K::Pattern},
    {"list", K::Pattern},
    {"expression_list", K::Pattern},
    {"parenthesized_expression", K::Pattern},
    {"named_expression", K::NamedExpression},
    {"as_pattern", K::AsPattern},
    {"as_pattern_target", K::AsPatternTarget},
    {"delete_statement", K::DeleteStatement},
    {"import_statement", K::Skipped},
    {"import_from_statement", K::Skipped},
    {"future_import_statement", K::Skipped},
    {"global_statement", K::Skipped},
    {"nonlocal_statement", K::Skipped},
    {"comment", K::Skipped},
    {"type", K::Skipped},
    {"case_pattern", K::Skipped},
    {"type_alias_statement", K::Skipped},
    {"function_definition", K::FunctionDefinition},
    {"class_definition", K::ClassDefinition},
    {"decorated_definition", K::DecoratedDefinition},
    {"decorator", K::Decorator},
    {"parameters", K::Parameters},
    {"lambda_parameters", K::Parameters},
    {"default_parameter", K::DefaultParameter},
    {"typed_default_parameter", K::DefaultParameter},
    {"lambda", K::Lambda},
};

struct Grammar {
  std::vector<K> kinds;
  TSFieldId f_name, f_value, f_left, f_right, f_body, f_function, f_arguments, f_object,
      f_attribute, f_subscript, f_definition, f_parameters, f_superclasses, f_alias;

  Grammar() {
    kinds = symbol_kinds(kNamedKinds, K::Other);
    f_name = field_id("name");
    f_value = field_id("value");
    f_left = field_id("left");
    f_right = field_id("right");
    f_body = field_id("body");
    f_function = field_id("function");
    f_arguments = field_id("arguments");
    f_object = field_id("object");
    f_attribute = field_id("attribute");
    f_subscript = field_id("subscript");
    f_definition = field_id("definition");
    f_parameters = field_id("parameters");
    f_superclasses = field_id("superclasses");
    f_alias = field_id("alias");
  }
};

const Grammar& grammar() {
  static const Grammar g;
  return g;
}

// Deeper trees than this are not walked (the extractor already rejects far shallower code).
constexpr int kMaxDepth = 1000;
constexpr size_t kMaxChainParts = 8;
constexpr size_t kMaxLiteral = 200;

struct RawFact {
  DenseKind kind;
  uint32_t scope;
  std::string path;
  std::optional<std::string> key;
};

struct Child {
  TSNode node;
  TSFieldId field;
  K kind;
};

class DenseWalker {
 public:
  DenseWalker(std::string_view text, const FileFacts& facts)
      : text_(text), g_(grammar()), f_(facts), cursor_(ts_tree_cursor_new(TSNode{})) {
    for (uint32_t s = 1; s < f_.scopes.size(); ++s) {
      if (f_.scopes[s].kind == ScopeKind::Class || f_.scopes[s].kind == ScopeKind::Function) {
        def_scopes_.push_back(s);
      }
    }
    for (const Stmt& st : f_.stmts) {
      if (st.kind == StmtKind::Global) {
        globals_.insert(f_.strings[st.str]);
        scope_globals_.insert(key_of(st.scope, f_.strings[st.str]));
      } else if (st.kind == StmtKind::ImportModule || st.kind == StmtKind::ImportFrom) {
        imported_.insert(f_.strings[st.str]);
      }
    }
  }
  ~DenseWalker() { ts_tree_cursor_delete(&cursor_); }
  DenseWalker(const DenseWalker&) = delete;
  DenseWalker& operator=(const DenseWalker&) = delete;

  // False when the walk could not be matched with the scopes (nothing should be kept).
  bool run(TSNode root) {
    visit(root, false, false);
    return ok_ && next_def_ == def_scopes_.size();
  }

  std::vector<RawFact>& facts() { return raw_; }

  // Calls and keys are kept only when they can matter (docs/dense.md): the rest of a file's calls
  // are the resolver's business.
  bool worth_keeping(const RawFact& r) const {
    if (r.kind != DenseKind::Call && r.kind != DenseKind::Key) return true;
    const std::string_view root = chain_root(r.path);
    if (imported_.contains(root)) return true;
    if (r.kind == DenseKind::Call && (root == "open" || is_file_method(chain_last(r.path)))) {
      return true;
    }
    return chain_mentions_resource(r.path);
  }

 private:
  K kind(TSNode n) const {
    const TSSymbol s = ts_node_symbol(n);
    return s < g_.kinds.size() ? g_.kinds[s] : K::Other;
  }

  std::string_view text_of(TSNode n) const {
    const uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (b > e || e > text_.size()) return {};
    return text_.substr(b, e - b);
  }

  TSNode field(TSNode n, TSFieldId id) const { return ts_node_child_by_field_id(n, id); }

  static std::string key_of(uint32_t scope, std::string_view name) {
    std::string k(reinterpret_cast<const char*>(&scope), sizeof scope);
    k += name;
    return k;
  }

  // Named children (or all children), collected with a cursor onto a shared stack.
  struct Range {
    size_t begin, end;
  };
  // Field ids cost a table lookup per child: asked for only where a field decides the role.
  Range children(TSNode n, bool named_only = true, bool with_fields = false) {
    const size_t begin = stack_.size();
    push_children(stack_, &cursor_, n, named_only, with_fields,
                  [this](TSNode c) { return kind(c); });
    return {begin, stack_.size()};
  }
  void release(const Range& r) { stack_.resize(r.begin); }

  bool in_function() const { return f_.scopes[scope_].kind == ScopeKind::Function; }

  // ---- recording -----------------------------------------------------------------------------

  void add(DenseKind k, std::string path, std::optional<std::string> key = std::nullopt) {
    if (!ok_) return;
    RawFact r{k, scope_, std::move(path), std::move(key)};
    if (worth_keeping(r)) raw_.push_back(std::move(r));
  }

  void read_name(std::string_view name) {
    if (in_function() && (is_constant_name(name) || globals_.contains(name))) {
      add(DenseKind::Read, std::string(name));
    }
  }

  void write_name(std::string_view name) {
    if (in_function() && scope_globals_.contains(key_of(scope_, name))) {
      add(DenseKind::Write, std::string(name));
    }
  }

  // Chains through an UPPER_CASE attribute (settings, module constants) anywhere; `cls.x` and
  // `Class.x` inside functions (class attributes).
  void read_chain(const std::string& chain) {
    const std::vector<std::string_view> parts = split_chain(chain);
    size_t length = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].ends_with("()")) break;
      length += parts[i].size() + (i > 0 ? 1 : 0);
      if (i > 0 && is_constant_name(parts[i])) {
        add(DenseKind::Read, chain.substr(0, length));
        break;
      }
    }
    if (in_function() && parts.size() >= 2 && class_like_root(parts[0]) &&
        !parts[1].ends_with("()")) {
      add(DenseKind::Read, std::string(parts[0]) + "." + std::string(parts[1]));
    }
  }

  void write_chain(const std::string& chain) {
    const std::vector<std::string_view> parts = split_chain(chain);
    if (in_function() && parts.size() == 2 && class_like_root(parts[0]) &&
        !parts[1].ends_with("()")) {
      add(DenseKind::Write, chain);
    }
  }

  static bool class_like_root(std::string_view root) {
    return root == "cls" || (!root.empty() && root[0] >= 'A' && root[0] <= 'Z');
  }

  // ---- syntax helpers ----------------------------------------------------------------------

  // `a.b().c` as written; nullopt for anything but names, attributes and calls.
  std::optional<std::string> chain_of(TSNode n, size_t parts = 0) {
    if (ts_node_is_null(n) || parts >= kMaxChainParts) return std::nullopt;
    switch (kind(n)) {
      case K::Identifier:
        return std::string(text_of(n));
      case K::Attribute: {
        auto object = chain_of(field(n, g_.f_object), parts + 1);
        const TSNode attr = field(n, g_.f_attribute);
        if (!object || ts_node_is_null(attr)) return std::nullopt;
        *object += '.';
        *object += text_of(attr);
        return object;
      }
      case K::Call: {
        auto function = chain_of(field(n, g_.f_function), parts);
        if (function) *function += "()";
        return function;
      }
      default:
        return std::nullopt;
    }
  }

  // The value of a plain string literal (no f/b prefix, no escapes, not empty, not too long).
  std::optional<std::string> literal(TSNode n) {
    if (ts_node_is_null(n) || kind(n) != K::String) return std::nullopt;
    const Range r = children(n);
    bool ok = true;
    std::string value;
    for (size_t i = r.begin; i < r.end && ok; ++i) {
      switch (stack_[i].kind) {
        case K::StringStart:
          ok = text_of(stack_[i].node).find_first_of("fFbB") == std::string_view::npos;
          break;
        case K::StringContent:
          ok = ts_node_named_child_count(stack_[i].node) == 0;
          value += text_of(stack_[i].node);
          break;
        case K::Other:
          break;  // string_end
        default:
          ok = false;
      }
    }
    release(r);
    if (!ok || value.empty() || value.size() > kMaxLiteral) return std::nullopt;
    return value;
  }

  // Positional arguments of a call (keywords and splats left out), in order.
  std::vector<TSNode> positional(TSNode call) {
    std::vector<TSNode> out;
    const TSNode args = field(call, g_.f_arguments);
    if (ts_node_is_null(args) || kind(args) != K::ArgumentList) return out;
    const Range r = children(args);
    for (size_t i = r.begin; i < r.end; ++i) {
      const std::string_view type = ts_node_type(stack_[i].node);
      if (stack_[i].kind == K::KeywordArgument || type == "comment" || type == "list_splat" ||
          type == "dictionary_splat" || type == "parenthesized_list_splat") {
        continue;
      }
      out.push_back(stack_[i].node);
    }
    release(r);
    return out;
  }

  // `app.route("/users")`, `receiver(post_save)`, `hookimpl`: what a REGISTERED_BY label shows.
  std::string decorator_text(const std::string& callee, TSNode expr, bool is_call) {
    std::string text = callee;
    if (is_call) {
      const std::vector<TSNode> args = positional(expr);
      const TSNode all_args = field(expr, g_.f_arguments);
      const bool any_args = !ts_node_is_null(all_args) && ts_node_named_child_count(all_args) > 0;
      text += '(';
      if (!args.empty()) {
        if (auto lit = literal(args[0])) {
          text += '"' + *lit + '"';
        } else if (auto chain = chain_of(args[0])) {
          text += *chain;
        } else {
          text += "...";
        }
      } else if (any_args) {
        text += "...";
      }
      text += ')';
    }
    if (text.size() > kMaxDecoratorText) {
      size_t cut = kMaxDecoratorText;
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
      text.resize(cut);
      text += "...";
    }
    return text;
  }

  // ---- the walk ----------------------------------------------------------------------------

  struct Depth {
    explicit Depth(DenseWalker& w) : w_(w) { ++w_.depth_; }
    ~Depth() { --w_.depth_; }
    bool too_deep() const {
      if (w_.depth_ <= kMaxDepth) return false;
      w_.ok_ = false;
      return true;
    }
    DenseWalker& w_;
  };

  void visit_children(TSNode n, bool store) {
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) visit(stack_[i].node, store, false);
    release(r);
  }

  // `store`: n is (part of) an assignment target. `chain_inner`: n is the object of an attribute
  // chain already recorded whole.
  void visit(TSNode n, bool store, bool chain_inner) {
    Depth d(*this);
    if (d.too_deep() || ts_node_is_null(n)) return;
    switch (kind(n)) {
      case K::Identifier:
        if (store) {
          write_name(text_of(n));
        } else {
          read_name(text_of(n));
        }
        return;
      case K::Attribute: {
        if (!chain_inner) {
          if (auto chain = chain_of(n)) {
            if (store) {
              write_chain(*chain);
            } else {
              read_chain(*chain);
            }
          }
        }
        visit(field(n, g_.f_object), false, true);
        return;
      }
      case K::Call:
        visit_call(n);
        return;
      case K::Subscript:
        visit_subscript(n);
        return;
      case K::String:
        visit_string(n);
        return;
      case K::ComparisonOperator:
        visit_comparison(n);
        return;
      case K::Assignment:
        visit(field(n, g_.f_left), true, false);
        visit(field(n, g_.f_right), false, false);
        return;
      case K::AugmentedAssignment:
        visit(field(n, g_.f_left), true, false);
        visit(field(n, g_.f_left), false, false);
        visit(field(n, g_.f_right), false, false);
        return;
      case K::ForStatement:
      case K::ForInClause:
        visit_fields(n, g_.f_left);
        return;
      case K::NamedExpression:
        visit(field(n, g_.f_name), true, false);
        visit(field(n, g_.f_value), false, false);
        return;
      case K::AsPattern: {
        const Range r = children(n, true, true);
        for (size_t i = r.begin; i < r.end; ++i) {
          visit(stack_[i].node, stack_[i].field == g_.f_alias, false);
        }
        release(r);
        return;
      }
      case K::AsPatternTarget:
      case K::DeleteStatement:
        visit_children(n, true);
        return;
      case K::Pattern:
        visit_children(n, store);
        return;
      case K::Skipped:
        return;
      case K::FunctionDefinition:
      case K::ClassDefinition:
        visit_definition(n);
        return;
      case K::DecoratedDefinition:
        visit_decorated(n);
        return;
      case K::Parameters:
        visit_parameters(n);
        return;
      case K::KeywordArgument:
        visit(field(n, g_.f_value), false, false);
        return;
      default:
        visit_children(n, false);
        return;
    }
  }

  // A for statement or clause: the `left` field is a target, everything else is read.
  void visit_fields(TSNode n, TSFieldId target) {
    const Range r = children(n, true, true);
    for (size_t i = r.begin; i < r.end; ++i) {
      visit(stack_[i].node, stack_[i].field == target, false);
    }
    release(r);
  }

  void visit_call(TSNode n) {
    const TSNode function = field(n, g_.f_function);
    auto callee = chain_of(function);
    // Most calls are not kept (worth_keeping): their arguments are not looked at for a key.
    if (callee && *callee != "getattr" &&
        !(ok_ && worth_keeping({DenseKind::Call, 0, *callee, {}}))) {
      callee.reset();
    }
    if (callee) {
      const std::vector<TSNode> args = positional(n);
      if (*callee == "getattr" && args.size() >= 2) {
        // getattr(obj, "NAME") reads obj.NAME.
        const auto object = chain_of(args[0]);
        const auto name = literal(args[1]);
        if (object && name && is_identifier(*name)) read_chain(*object + "." + *name);
      } else {
        add(DenseKind::Call, *callee, args.empty() ? std::nullopt : literal(args[0]));
      }
    }
    // `settings.DEBUG.lower()` still reads settings.DEBUG.
    if (kind(function) == K::Attribute) {
      if (auto object = chain_of(field(function, g_.f_object))) read_chain(*object);
    }
    visit(function, false, true);
    visit(field(n, g_.f_arguments), false, false);
  }

  void visit_subscript(TSNode n) {
    const TSNode value = field(n, g_.f_value);
    const Range r = children(n, true, true);
    std::vector<TSNode> index;
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].field == g_.f_subscript) index.push_back(stack_[i].node);
    }
    release(r);
    if (index.size() == 1) {
      const auto container = chain_of(value);
      const auto key = literal(index[0]);
      if (container && key) add(DenseKind::Key, *container, *key);
    }
    visit(value, false, false);
    for (const TSNode& i : index) visit(i, false, false);
  }

  // Only the expressions inside f-string interpolations are code.
  void visit_string(TSNode n) {
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].kind == K::Interpolation) visit_children(stack_[i].node, false);
    }
    release(r);
  }

  // `"X" in os.environ` tests for the key "X".
  void visit_comparison(TSNode n) {
    const Range all = children(n, /*named_only=*/false);
    std::vector<TSNode> operands;
    std::string op;
    for (size_t i = all.begin; i < all.end; ++i) {
      if (ts_node_is_named(stack_[i].node)) {
        if (stack_[i].kind != K::Skipped) operands.push_back(stack_[i].node);
      } else {
        op += text_of(stack_[i].node);
      }
    }
    release(all);
    if (operands.size() == 2 && (op == "in" || op == "notin")) {
      const auto key = literal(operands[0]);
      const auto container = chain_of(operands[1]);
      if (key && container) add(DenseKind::Key, *container, *key);
    }
    for (const TSNode& o : operands) visit(o, false, false);
  }

  // Defaults are evaluated in the enclosing scope; parameter names bind nothing we track.
  void visit_parameters(TSNode n) {
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].kind == K::DefaultParameter) {
        visit(field(stack_[i].node, g_.f_value), false, false);
      }
    }
    release(r);
  }

  // The scope of the next definition, if its name matches the extractor's; fails the walk
  // otherwise.
  uint32_t take_definition(TSNode def) {
    const TSNode name = field(def, g_.f_name);
    if (ts_node_is_null(name)) return kNone;
    if (next_def_ >= def_scopes_.size() ||
        f_.strings[f_.scopes[def_scopes_[next_def_]].name] != text_of(name)) {
      ok_ = false;
      return kNone;
    }
    return def_scopes_[next_def_++];
  }

  void visit_definition(TSNode def) {
    const uint32_t id = take_definition(def);
    if (id == kNone) {
      visit_children(def, false);
      return;
    }
    const Range r = children(def, true, true);
    std::vector<TSNode> body;
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      if (c.field == g_.f_body) {
        body.push_back(c.node);
      } else if (c.field == g_.f_parameters || c.field == g_.f_superclasses) {
        visit(c.node, false, false);
      }
    }
    release(r);
    const uint32_t outer = scope_;
    scope_ = id;
    for (const TSNode& b : body) visit(b, false, false);
    scope_ = outer;
  }

  void visit_decorated(TSNode n) {
    const TSNode def = field(n, g_.f_definition);
    const bool named = !ts_node_is_null(def) && !ts_node_is_null(field(def, g_.f_name));
    const uint32_t target =
        named && next_def_ < def_scopes_.size() ? def_scopes_[next_def_] : kNone;
    const Range r = children(n);
    std::vector<TSNode> decorators;
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].kind == K::Decorator) decorators.push_back(stack_[i].node);
    }
    release(r);
    for (const TSNode& d : decorators) {
      const Range dr = children(d);
      for (size_t i = dr.begin; i < dr.end; ++i) {
        if (stack_[i].kind == K::Skipped) continue;
        const TSNode expr = stack_[i].node;
        const bool is_call = stack_[i].kind == K::Call;
        const auto callee = chain_of(is_call ? field(expr, g_.f_function) : expr);
        if (callee && target != kNone && ok_) {
          raw_.push_back(
              {DenseKind::Decorator, target, *callee, decorator_text(*callee, expr, is_call)});
        }
        visit(expr, false, false);
        break;
      }
      release(dr);
    }
    if (!ts_node_is_null(def)) visit(def, false, false);
  }

  std::string_view text_;
  const Grammar& g_;
  const FileFacts& f_;
  TSTreeCursor cursor_;
  std::vector<Child> stack_;
  std::vector<uint32_t> def_scopes_;  // class and function scopes, in the extractor's order
  size_t next_def_ = 0;
  uint32_t scope_ = 0;
  int depth_ = 0;
  bool ok_ = true;
  std::unordered_set<std::string_view> globals_;   // names any function declares global
  std::unordered_set<std::string> scope_globals_;  // (scope, name) pairs declared global
  std::unordered_set<std::string_view> imported_;  // names bound by an import statement
  std::vector<RawFact> raw_;
};

}  // namespace

void extract_dense(TSNode root, std::string_view text, FileFacts& facts) {
  facts.dense.clear();
  facts.dense_extracted = true;
  if (!facts.parsed_cleanly) return;
  std::vector<RawFact> raw;
  {
    DenseWalker walker(text, facts);
    if (!walker.run(root)) return;
    raw = std::move(walker.facts());
  }
  std::unordered_map<std::string, uint32_t> ids;
  auto intern = [&](std::string& s) {
    const auto [it, inserted] = ids.try_emplace(s, static_cast<uint32_t>(facts.strings.size()));
    if (inserted) facts.strings.push_back(std::move(s));
    return it->second;
  };
  facts.dense.reserve(raw.size());
  for (RawFact& r : raw) {
    DenseFact d;
    d.kind = r.kind;
    d.scope = r.scope;
    d.path = intern(r.path);
    if (r.key) d.key = intern(*r.key);
    facts.dense.push_back(d);
  }
  std::sort(facts.dense.begin(), facts.dense.end(), [](const DenseFact& a, const DenseFact& b) {
    if (a.scope != b.scope) return a.scope < b.scope;
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.path != b.path) return a.path < b.path;
    return a.key < b.key;
  });
  facts.dense.erase(std::unique(facts.dense.begin(), facts.dense.end()), facts.dense.end());
}

}  // namespace anchorfs::analysis::python
