// The dense view's rules per syntax node, their walk over subtrees, and the whole-file post-pass.
#include "analysis/python/dense_collector.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "analysis/python/child_walk.h"
#include "analysis/python/dense_names.h"

namespace anchorfs::analysis::python {
namespace {

using K = NodeKind;

constexpr size_t kMaxChainParts = 8;
constexpr size_t kMaxLiteral = 200;

bool class_like_root(std::string_view root) {
  return root == "cls" || (!root.empty() && root[0] >= 'A' && root[0] <= 'Z');
}

// Calls and keys are kept only when they can matter (docs/dense.md): the rest of a file's calls
// are the resolver's business. This is the part of the rule that needs nothing but the chain;
// a chain whose root the file imports is kept too, which only finish() can tell.
bool kept_whatever_imported(DenseKind k, std::string_view path) {
  if (k == DenseKind::Call && (chain_root(path) == "open" || is_file_method(chain_last(path)))) {
    return true;
  }
  return chain_mentions_resource(path);
}

bool is_pattern(K k) {
  switch (k) {
    case K::PatternList:
    case K::TuplePattern:
    case K::ListPattern:
    case K::ListSplatPattern:
    case K::ListSplat:
    case K::Tuple:
    case K::List:
    case K::ExpressionList:
    case K::ParenthesizedExpression:
      return true;
    default:
      return false;
  }
}

// Whether an argument-list child is a plain positional argument (not a keyword, a splat or a
// comment).
bool is_positional(K kind) {
  switch (kind) {
    case K::KeywordArgument:
    case K::Comment:
    case K::ListSplat:
    case K::DictionarySplat:
    case K::ParenthesizedListSplat:
      return false;
    default:
      return true;
  }
}

}  // namespace

DenseCollector::DenseCollector(std::string_view text, const std::vector<Scope>& scopes,
                               Nesting& nesting, bool enabled)
    : text_(text),
      g_(grammar()),
      scopes_(scopes),
      nesting_(nesting),
      enabled_(enabled) {}

bool DenseCollector::skipped(K k) {
  switch (k) {
    case K::ImportStatement:
    case K::ImportFromStatement:
    case K::FutureImportStatement:
    case K::GlobalStatement:
    case K::NonlocalStatement:
    case K::Comment:
    case K::Type:
    case K::CasePattern:
    case K::TypeAliasStatement:
      return true;
    default:
      return false;
  }
}

// Dense facts belong to the innermost class or function: a lambda's are its parent's.
uint32_t DenseCollector::owner(uint32_t scope) const {
  while (scopes_[scope].kind == ScopeKind::Lambda) scope = scopes_[scope].parent;
  return scope;
}

bool DenseCollector::in_function(uint32_t scope) const {
  return scopes_[scope].kind == ScopeKind::Function;
}

// ---- the rules of one node ---------------------------------------------------------------------

void DenseCollector::enter(TSNode n, K k, Use use, uint32_t scope) {
  if (!enabled_ || use == Use::Ignored) return;
  switch (k) {
    case K::Identifier:
      if (use == Use::Store) {
        write_name(text(n), owner(scope));
      } else {
        read_name(text(n), owner(scope));
      }
      return;
    case K::Attribute:
      if (use == Use::ChainObject) return;
      if (const auto chain = chain_of(n)) {
        if (use == Use::Store) {
          write_chain(*chain, owner(scope));
        } else {
          read_chain(*chain, owner(scope));
        }
      }
      return;
    case K::Call:
      call(n, owner(scope));
      return;
    case K::Subscript:
      subscript_key(n, owner(scope));
      return;
    case K::ComparisonOperator:
      comparison_key(n, owner(scope));
      return;
    default:
      return;
  }
}

void DenseCollector::add(DenseKind k, uint32_t scope, std::string path,
                         std::optional<std::string> key) {
  Fact f{k, scope, std::move(path), std::move(key)};
  if (k == DenseKind::Key && !kept_whatever_imported(k, f.path)) {
    if_imported_.insert(std::move(f));
  } else {
    facts_.push_back(std::move(f));
  }
}

void DenseCollector::read_name(std::string_view name, uint32_t scope) {
  if (!in_function(scope)) return;
  if (is_constant_name(name)) {
    add(DenseKind::Read, scope, std::string(name));
  } else {
    reads_.insert({scope, name});
  }
}

void DenseCollector::write_name(std::string_view name, uint32_t scope) {
  if (in_function(scope)) writes_.insert({scope, name});
}

// Chains through an UPPER_CASE attribute (settings, module constants) anywhere; `cls.x` and
// `Class.x` inside functions (class attributes).
void DenseCollector::read_chain(const std::string& chain, uint32_t scope) {
  const std::vector<std::string_view> parts = split_chain(chain);
  size_t length = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].ends_with("()")) break;
    length += parts[i].size() + (i > 0 ? 1 : 0);
    if (i > 0 && is_constant_name(parts[i])) {
      add(DenseKind::Read, scope, chain.substr(0, length));
      break;
    }
  }
  if (in_function(scope) && parts.size() >= 2 && class_like_root(parts[0]) &&
      !parts[1].ends_with("()")) {
    add(DenseKind::Read, scope, std::string(parts[0]) + "." + std::string(parts[1]));
  }
}

void DenseCollector::write_chain(const std::string& chain, uint32_t scope) {
  const std::vector<std::string_view> parts = split_chain(chain);
  if (in_function(scope) && parts.size() == 2 && class_like_root(parts[0]) &&
      !parts[1].ends_with("()")) {
    add(DenseKind::Write, scope, chain);
  }
}

void DenseCollector::call(TSNode n, uint32_t scope) {
  const TSNode function = field(n, g_.f_function);
  if (auto callee = chain_of(function)) {
    const std::vector<TSNode> args = *callee == "getattr" ? positional(n) : std::vector<TSNode>{};
    if (args.size() >= 2) {
      // getattr(obj, "NAME") reads obj.NAME.
      const auto object = chain_of(args[0]);
      const auto name = literal(args[1]);
      if (object && name && is_identifier(*name)) read_chain(*object + "." + *name, scope);
    } else {
      call_fact(std::move(*callee), n, scope);
    }
  }
  // `settings.DEBUG.lower()` still reads settings.DEBUG.
  if (g_.kind(function) == K::Attribute) {
    if (const auto object = chain_of(field(function, g_.f_object))) read_chain(*object, scope);
  }
}

void DenseCollector::call_fact(std::string callee, TSNode n, uint32_t scope) {
  Fact f{DenseKind::Call, scope, std::move(callee), first_argument_literal(n)};
  if (kept_whatever_imported(DenseKind::Call, f.path)) {
    facts_.push_back(std::move(f));
  } else {
    if_imported_.insert(std::move(f));
  }
}

// `chain["key"]` uses the key.
void DenseCollector::subscript_key(TSNode n, uint32_t scope) {
  const Range r = children(n, true, true);
  size_t indices = 0;
  TSNode index{};
  for (size_t i = r.begin; i < r.end; ++i) {
    if (stack_[i].field != g_.f_subscript) continue;
    ++indices;
    index = stack_[i].node;
  }
  release(r);
  if (indices != 1) return;
  const auto container = chain_of(field(n, g_.f_value));
  const auto key = literal(index);
  if (container && key) add(DenseKind::Key, scope, *container, *key);
}

// `"X" in os.environ` tests for the key "X".
void DenseCollector::comparison_key(TSNode n, uint32_t scope) {
  const Range all = children(n, /*named_only=*/false);
  std::vector<TSNode> operands;
  std::string op;
  for (size_t i = all.begin; i < all.end; ++i) {
    if (ts_node_is_named(stack_[i].node)) {
      if (!skipped(stack_[i].kind)) operands.push_back(stack_[i].node);
    } else {
      op += text(stack_[i].node);
    }
  }
  release(all);
  if (operands.size() != 2 || (op != "in" && op != "notin")) return;
  const auto key = literal(operands[0]);
  const auto container = chain_of(operands[1]);
  if (key && container) add(DenseKind::Key, scope, *container, *key);
}

void DenseCollector::decorator(TSNode expr, K k, uint32_t definition) {
  if (!enabled_) return;
  const bool is_call = k == K::Call;
  if (const auto callee = chain_of(is_call ? field(expr, g_.f_function) : expr)) {
    facts_.push_back(
        {DenseKind::Decorator, definition, *callee, decorator_text(*callee, expr, is_call)});
  }
}

// ---- reading syntax ----------------------------------------------------------------------------

// `a.b().c` as written; nullopt for anything but names, attributes and calls.
std::optional<std::string> DenseCollector::chain_of(TSNode n, size_t parts) const {
  if (ts_node_is_null(n) || parts >= kMaxChainParts) return std::nullopt;
  switch (g_.kind(n)) {
    case K::Identifier:
      return std::string(text(n));
    case K::Attribute: {
      auto object = chain_of(field(n, g_.f_object), parts + 1);
      const TSNode attr = field(n, g_.f_attribute);
      if (!object || ts_node_is_null(attr)) return std::nullopt;
      *object += '.';
      *object += text(attr);
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

// A plain string literal that is not empty and not too long.
std::optional<std::string> DenseCollector::literal(TSNode n) const {
  auto value = plain_string(n, text_);
  if (!value || value->empty() || value->size() > kMaxLiteral) return std::nullopt;
  return value;
}

// Positional arguments of a call (keywords and splats left out), in order.
std::vector<TSNode> DenseCollector::positional(TSNode call) {
  std::vector<TSNode> out;
  const TSNode args = field(call, g_.f_arguments);
  if (ts_node_is_null(args) || g_.kind(args) != K::ArgumentList) return out;
  const Range r = children(args);
  for (size_t i = r.begin; i < r.end; ++i) {
    if (is_positional(stack_[i].kind)) out.push_back(stack_[i].node);
  }
  release(r);
  return out;
}

// The literal first positional argument of a call. Nearly always the first named child, so the
// argument list is read child by child only as far as needed.
std::optional<std::string> DenseCollector::first_argument_literal(TSNode call) const {
  const TSNode args = field(call, g_.f_arguments);
  if (ts_node_is_null(args) || g_.kind(args) != K::ArgumentList) return std::nullopt;
  const uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode c = ts_node_named_child(args, i);
    if (is_positional(g_.kind(c))) return literal(c);
  }
  return std::nullopt;
}

// `app.route("/users")`, `receiver(post_save)`, `hookimpl`: what a REGISTERED_BY label shows.
std::string DenseCollector::decorator_text(const std::string& callee, TSNode expr, bool is_call) {
  std::string out = callee;
  if (is_call) {
    const std::vector<TSNode> args = positional(expr);
    const TSNode all_args = field(expr, g_.f_arguments);
    const bool any_args = !ts_node_is_null(all_args) && ts_node_named_child_count(all_args) > 0;
    out += '(';
    if (!args.empty()) {
      if (auto lit = literal(args[0])) {
        out += '"' + *lit + '"';
      } else if (auto chain = chain_of(args[0])) {
        out += *chain;
      } else {
        out += "...";
      }
    } else if (any_args) {
      out += "...";
    }
    out += ')';
  }
  if (out.size() > kMaxDecoratorText) {
    size_t cut = kMaxDecoratorText;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
    out += "...";
  }
  return out;
}

DenseCollector::Range DenseCollector::children(TSNode n, bool named_only, bool with_fields) {
  const size_t begin = stack_.size();
  push_children(stack_, n, named_only, with_fields,
                [this](TSNode c) { return g_.kind(c); });
  return {begin, stack_.size()};
}

// ---- subtrees the call-graph walk leaves unvisited ----------------------------------------------

void DenseCollector::walk_children(TSNode n, Use use, uint32_t scope) {
  const Range r = children(n);
  for (size_t i = r.begin; i < r.end; ++i) walk(stack_[i].node, use, scope);
  release(r);
}

// Only expressions reach here (the call-graph walk visits every statement and definition itself),
// so the scope never changes below n.
void DenseCollector::walk(TSNode n, Use use, uint32_t scope) {
  if (!enabled_ || use == Use::Ignored || ts_node_is_null(n)) return;
  const K k = g_.kind(n);
  if (skipped(k)) return;
  struct Depth {
    explicit Depth(Nesting& n) : n_(n) { ++n_.depth; }
    ~Depth() { --n_.depth; }
    Nesting& n_;
  } depth(nesting_);
  if (nesting_.depth > kMaxNesting) {
    nesting_.too_deep = true;
    return;
  }
  enter(n, k, use, scope);
  const Use read_or_store = use == Use::Store ? Use::Store : Use::Read;
  switch (k) {
    case K::Identifier:
      return;
    case K::Attribute:
      walk(field(n, g_.f_object), Use::ChainObject, scope);
      return;
    case K::Call:
      walk(field(n, g_.f_function), Use::ChainObject, scope);
      walk(field(n, g_.f_arguments), Use::Read, scope);
      return;
    case K::Subscript:
    case K::ForInClause:
    case K::AsPattern: {
      // A subscript reads only its value and indices; a comprehension's `for` stores into its
      // left side, an `as` into its alias.
      const Range r = children(n, true, true);
      for (size_t i = r.begin; i < r.end; ++i) {
        const TSFieldId f = stack_[i].field;
        if (k == K::Subscript) {
          if (f == g_.f_value || f == g_.f_subscript) walk(stack_[i].node, Use::Read, scope);
        } else {
          const bool target = f == (k == K::AsPattern ? g_.f_alias : g_.f_left);
          walk(stack_[i].node, target ? Use::Store : Use::Read, scope);
        }
      }
      release(r);
      return;
    }
    case K::String: {
      // Only the expressions inside f-string interpolations are code.
      const Range r = children(n);
      for (size_t i = r.begin; i < r.end; ++i) {
        if (stack_[i].kind == K::Interpolation) walk_children(stack_[i].node, Use::Read, scope);
      }
      release(r);
      return;
    }
    case K::NamedExpression:
      walk(field(n, g_.f_name), Use::Store, scope);
      walk(field(n, g_.f_value), Use::Read, scope);
      return;
    case K::AsPatternTarget:
      walk_children(n, Use::Store, scope);
      return;
    case K::Parameters:
    case K::LambdaParameters: {
      // Defaults are evaluated; parameter names bind nothing the dense view tracks.
      const Range r = children(n);
      for (size_t i = r.begin; i < r.end; ++i) {
        if (stack_[i].kind == K::DefaultParameter || stack_[i].kind == K::TypedDefaultParameter) {
          walk(field(stack_[i].node, g_.f_value), Use::Read, scope);
        }
      }
      release(r);
      return;
    }
    case K::KeywordArgument:
      walk(field(n, g_.f_value), Use::Read, scope);
      return;
    default:
      walk_children(n, is_pattern(k) ? read_or_store : Use::Read, scope);
      return;
  }
}

// ---- the post-pass -----------------------------------------------------------------------------

void DenseCollector::finish(FileFacts& facts) {
  if (!enabled_) return;
  facts.dense.clear();
  facts.dense_extracted = true;
  // Precision first: no dense facts are read out of code with syntax errors.
  if (!facts.parsed_cleanly || facts.error_regions > 0) return;

  std::unordered_set<std::string_view> globals;   // declared global anywhere
  std::set<NameUse> scope_globals;                // ... in this scope
  std::unordered_set<std::string_view> imported;  // bound by an import
  for (const Stmt& st : facts.stmts) {
    if (st.kind == StmtKind::Global) {
      globals.insert(facts.strings[st.str]);
      scope_globals.insert({st.scope, facts.strings[st.str]});
    } else if (st.kind == StmtKind::ImportModule || st.kind == StmtKind::ImportFrom) {
      imported.insert(facts.strings[st.str]);
    }
  }
  for (const auto& [scope, name] : reads_) {
    if (globals.contains(name)) facts_.push_back({DenseKind::Read, scope, std::string(name), {}});
  }
  for (const NameUse& w : writes_) {
    if (scope_globals.contains(w)) {
      facts_.push_back({DenseKind::Write, w.first, std::string(w.second), {}});
    }
  }
  for (const Fact& f : if_imported_) {
    if (imported.contains(chain_root(f.path))) facts_.push_back(f);
  }

  // Strings are interned in the facts' sorted order, so their ids do not depend on the order in
  // which the walk met them.
  std::sort(facts_.begin(), facts_.end());
  facts_.erase(std::unique(facts_.begin(), facts_.end()), facts_.end());
  std::unordered_map<std::string, uint32_t> ids;
  auto intern = [&](std::string& s) {
    const auto [it, inserted] = ids.try_emplace(s, static_cast<uint32_t>(facts.strings.size()));
    if (inserted) facts.strings.push_back(std::move(s));
    return it->second;
  };
  facts.dense.reserve(facts_.size());
  for (Fact& r : facts_) {
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
