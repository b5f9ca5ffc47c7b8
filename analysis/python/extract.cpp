// One walk of a Python syntax tree into FileFacts: scopes, anchors, flow and dense-view facts.
#include "analysis/python/extract.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/code/child_list.h"
#include "analysis/error_regions.h"
#include "analysis/parse_arena.h"
#include "analysis/parse_budget.h"
#include "analysis/python/child_walk.h"
#include "analysis/python/dense_collector.h"
#include "analysis/python/fact_sink.h"
#include "analysis/python/flow_anchor.h"
#include "analysis/python/grammar.h"
#include "analysis/python/node_kinds.h"
#include "analysis/python/text_layout.h"

namespace anchorfs::analysis::python {
namespace {

using K = NodeKind;

// One walk of a syntax tree with two outputs: the flow facts (into the sink) and the dense
// view's facts (into the collector, which sees every node with the role the walk reached it in).
class Extractor {
 public:
  Extractor(std::string_view text, FactSink& sink, bool dense)
      : text_(text),
        g_(grammar()),
        lines_(text),
        sink_(sink),
        dense_(text, f_.scopes, nesting_, dense) {
    protected_end_ = protected_prefix_end(text);
    sink_.clear();
  }

  FileFacts run(TSNode root) {
    f_.newline = first_newline(text_);
    f_.lines = text_.empty() ? 0 : lines_.count();
    Scope module;
    module.kind = ScopeKind::Module;
    module.name = intern("");
    f_.scopes.push_back(module);
    lambda_counters_.push_back(0);
    visit_body(root, 0);
    f_.parsed_cleanly = !nesting_.too_deep && !ts_node_is_error(root);
    if (f_.parsed_cleanly) {
      if (const auto anchor = file_anchor(text_)) {
        f_.has_file_anchor = true;
        f_.file_anchor = *anchor;
      }
      clear_anchors_at_errors(root);
    } else {
      for (Scope& s : f_.scopes) s.has_anchor = false;
    }
    f_.has_all = all_seen_ && !all_unknown_;
    if (!f_.has_all) f_.all_names.clear();
    sink_.copy_to(f_);
    dense_.finish(f_);
    return std::move(f_);
  }

 private:
  // Drops the anchors the tree's syntax errors rule out (analysis/error_regions.h).
  void clear_anchors_at_errors(TSNode root) {
    if (!ts_node_has_error(root)) return;
    const ErrorRegions errors(root, text_);
    f_.error_regions = static_cast<uint32_t>(errors.size());
    for (Scope& s : f_.scopes) {
      if (s.has_anchor && errors.blocks(s.anchor_offset, errors.line_end(s.line))) {
        s.has_anchor = false;
      }
    }
    if (f_.has_file_anchor) {
      const size_t eol = text_.find('\n', f_.file_anchor);
      if (errors.blocks(f_.file_anchor, eol == std::string_view::npos ? text_.size() : eol)) {
        f_.has_file_anchor = false;
      }
    }
  }

  // ---- small helpers ------------------------------------------------------------------------

  K kind(TSNode n) const { return g_.kind(n); }
  // ts_node_is_null without a call into the runtime (that function tests the same field).
  static bool is_null(TSNode n) { return n.id == nullptr; }
  std::string_view text_of(TSNode n) const { return node_text(text_, n); }

  // `s` must be a view into the source text; built strings go through intern_copy.
  uint32_t intern(std::string_view s) { return sink_.strings().intern(s); }
  uint32_t intern_copy(std::string_view s) { return sink_.strings().intern(s, /*copy=*/true); }

  // Children are collected onto a shared stack (one pass, O(1) per child); callers index
  // into it, so nested collections never invalidate an outer range.
  struct Range {
    size_t begin, end;
  };

  // Field ids cost a lookup per child: only callers that look at Child::field ask for them.
  Range children(TSNode n, bool named_only = true, bool with_fields = false) {
    const size_t begin = stack_.size();
    push_children(stack_, n, named_only, with_fields,
                  [this](TSNode c) { return kind(c); });
    return {begin, stack_.size()};
  }
  Range fielded_children(TSNode n) {
    return children(n, /*named_only=*/true, /*with_fields=*/true);
  }
  // Drops the range's children: an erase at the end, which inlines (resize was a call, 34
  // instructions a release; callgrind).
  void release(const Range& r) {
    stack_.erase(stack_.begin() + static_cast<std::ptrdiff_t>(r.begin), stack_.end());
  }

  TSNode field(TSNode n, TSFieldId id) const { return anchorfs_child_by_field(n, id); }

  // The role of a child evaluated under a node reached as `use`: nothing under an ignored node
  // is looked at; everything else is read.
  static Use read_under(Use use) { return use == Use::Ignored ? Use::Ignored : Use::Read; }

  // Unpacking patterns (and parenthesised or listed targets) pass a store on to their parts.
  static Use pattern_part(Use use) { return use == Use::Store ? Use::Store : read_under(use); }
  static Use store_under(Use use) { return use == Use::Ignored ? Use::Ignored : Use::Store; }

  // The named children of n other than `handled` (which the walk visited itself), for the dense
  // view only: a clause's extra operands, a statement's trailing ones.
  void dense_rest(TSNode n, std::initializer_list<TSNode> handled, Use use, uint32_t scope) {
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      bool seen = false;
      for (const TSNode& h : handled) seen = seen || ts_node_eq(h, stack_[i].node);
      if (!seen) dense_.walk(stack_[i].node, use, scope);
    }
    release(r);
  }

  uint32_t add_expr(ExprKind k, uint32_t a = kNone, uint32_t str = kNone,
                    size_t items_mark = SIZE_MAX) {
    return sink_.add_expr(k, a, str, items_mark);
  }

  uint32_t opaque() { return add_expr(ExprKind::Opaque); }

  void add_stmt(StmtKind k, uint32_t scope, uint32_t a, uint32_t b, uint32_t str = kNone) {
    sink_.add_stmt(k, scope, a, b, str);
  }

  FactSink::Mark mark() const { return sink_.mark(f_.scopes.size()); }

  // A value that is only evaluated (a statement's expression, an operand of an operator, an
  // index) matters only through its calls and lambdas: the resolver does nothing else with
  // it. Without any, it is dropped (kNone) and its facts are rolled back to `m`, unless a
  // statement or scope emitted meanwhile refers to them. Its dense facts stay.
  uint32_t for_effects(uint32_t e, const FactSink::Mark& m) {
    if (sink_.has_effects(e)) return e;
    if (sink_.only_expressions_since(m, f_.scopes.size())) sink_.roll_back(m);
    return kNone;
  }

  // Source that cannot have effects is not walked for the flow facts; the dense view still
  // reads it (names, chains, keys), more cheaply than building expressions to roll back.
  // `n` is a node, or a listed child whose kind the listing already looked up (expr() takes
  // either).
  template <class NodeOrChild>
  uint32_t expr_for_effects(const NodeOrChild& n, uint32_t scope, Use use) {
    if (!may_have_effects(text_of(node_of(n)))) {
      dense_.walk(node_of(n), use, scope);
      return kNone;
    }
    const FactSink::Mark m = mark();
    return for_effects(expr(n, scope, use), m);
  }
  static TSNode node_of(TSNode n) { return n; }
  static TSNode node_of(const Child& c) { return c.node; }

  // Every call and generator has a "(", and lambdas, yields, walruses and comprehensions
  // their keyword or operator: source without any cannot hold what for_effects keeps, so it
  // need not be walked. Only short source is judged so: walking it could not go past the
  // nesting limit (each level of nesting takes at least a byte of source, give or take a few
  // wrapper nodes), which a long one might, and that must still be noticed.
  bool may_have_effects(std::string_view source) const {
    if (nesting_.depth + 4 * static_cast<int64_t>(source.size()) >= kMaxNesting) return true;
    return source.find('(') != std::string_view::npos ||
           source.find("for") != std::string_view::npos ||
           source.find("lambda") != std::string_view::npos ||
           source.find("yield") != std::string_view::npos ||
           source.find(":=") != std::string_view::npos;
  }

  template <class NodeOrChild>
  void evaluate(const NodeOrChild& n, uint32_t scope, Use use = Use::Read) {
    if (is_null(node_of(n))) return;
    const uint32_t e = expr_for_effects(n, scope, use);
    if (e != kNone) add_stmt(StmtKind::Evaluate, scope, kNone, e);
  }

  // Guards every recursion: past kMaxNesting the rest of the subtree is not analysed.
  struct Depth {
    explicit Depth(Extractor& x) : x_(x) { ++x_.nesting_.depth; }
    ~Depth() { --x_.nesting_.depth; }
    bool too_deep() const {
      if (x_.nesting_.depth <= kMaxNesting) return false;
      x_.nesting_.too_deep = true;
      return true;
    }
    Extractor& x_;
  };

  // ---- statements ---------------------------------------------------------------------------

  void visit_body(TSNode n, uint32_t scope) {
    Depth d(*this);
    if (d.too_deep()) return;
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) visit_statement(stack_[i].node, stack_[i].kind, scope);
    release(r);
  }

  void visit_statement(TSNode n, K k, uint32_t scope) {
    Depth d(*this);
    if (d.too_deep()) return;
    switch (k) {
      case K::Comment:
      case K::PassStatement:
      case K::BreakStatement:
      case K::ContinueStatement:
      case K::FutureImportStatement:
      case K::TypeAliasStatement:
        return;
      case K::RaiseStatement: {
        // `raise C` instantiates C: modelled as the call `C()`.
        const Range r = children(n);
        for (size_t i = r.begin; i < r.end; ++i) {
          const Child c = stack_[i];
          if (c.kind == K::Comment) continue;
          const bool plain = (c.kind == K::Identifier || c.kind == K::Attribute) && i == r.begin;
          if (plain) {
            add_stmt(StmtKind::Evaluate, scope, kNone, add_expr(ExprKind::Call, expr(c, scope)));
          } else {
            evaluate(c, scope);
          }
        }
        release(r);
        return;
      }
      case K::ExpressionStatement: {
        const Range r = children(n);
        for (size_t i = r.begin; i < r.end; ++i) {
          const Child c = stack_[i];
          if (c.kind == K::Assignment) {
            visit_assignment(c.node, scope);
          } else if (c.kind == K::AugmentedAssignment) {
            visit_augmented(c.node, scope);
          } else {
            visit_expression_statement(c, scope);
          }
        }
        release(r);
        return;
      }
      case K::ReturnStatement: {
        const Range r = children(n);
        if (r.end > r.begin) {
          const TSNode value = stack_[r.begin].node;
          add_stmt(StmtKind::Return, scope, kNone, expr(value, scope));
          if (r.end - r.begin > 1) dense_rest(n, {value}, Use::Read, scope);
        }
        release(r);
        return;
      }
      case K::GlobalStatement:
      case K::NonlocalStatement: {
        const Range r = children(n);
        for (size_t i = r.begin; i < r.end; ++i) {
          if (stack_[i].kind != K::Identifier) continue;
          add_stmt(k == K::GlobalStatement ? StmtKind::Global : StmtKind::Nonlocal, scope, kNone,
                   kNone, intern(text_of(stack_[i].node)));
        }
        release(r);
        return;
      }
      case K::ImportStatement:
        visit_import(n, scope);
        return;
      case K::ImportFromStatement:
        visit_import_from(n, scope);
        return;
      case K::FunctionDefinition:
      case K::ClassDefinition:
        visit_definition(n, n, k, scope, {});
        return;
      case K::DecoratedDefinition:
        visit_decorated(n, scope);
        return;
      case K::ForStatement: {
        const uint32_t iterable = expr(field(n, g_.f_right), scope);
        const uint32_t element = add_expr(ExprKind::Iterate, iterable);
        add_stmt(StmtKind::Assign, scope, target(field(n, g_.f_left), scope, Use::Store), element);
        visit_clauses(n, scope, {g_.f_left, g_.f_right});
        return;
      }
      case K::DeleteStatement:
        // Calls in `del f(x).y` are evaluated; for the dense view `del x` writes x.
        visit_clauses(n, scope, {}, Use::Store);
        return;
      case K::WithStatement:
        visit_clauses(n, scope, {});
        return;
      case K::WithClause:
        visit_clauses(n, scope, {});
        return;
      case K::WithItem:
        visit_with_item(n, scope);
        return;
      case K::ExceptClause:
      case K::ExceptGroupClause:
        visit_except(n, scope);
        return;
      case K::Block:
      case K::Module:
      case K::IfStatement:
      case K::ElifClause:
      case K::ElseClause:
      case K::WhileStatement:
      case K::TryStatement:
      case K::FinallyClause:
      case K::MatchStatement:
      case K::CaseClause:
      case K::Error:
        visit_clauses(n, scope, {});
        return;
      default:
        if (is_statement_like(k)) {
          visit_clauses(n, scope, {});
        } else {
          evaluate(Child{n, 0, k}, scope);
        }
        return;
    }
  }

  static bool is_statement_like(K k) {
    switch (k) {
      case K::DeleteStatement:
      case K::RaiseStatement:
      case K::AssertStatement:
      case K::PrintStatement:
      case K::ExecStatement:
        return true;
      default:
        return false;
    }
  }

  static bool is_block_like(K k) {
    switch (k) {
      case K::Block:
      case K::IfStatement:
      case K::ElifClause:
      case K::ElseClause:
      case K::WhileStatement:
      case K::ForStatement:
      case K::TryStatement:
      case K::ExceptClause:
      case K::ExceptGroupClause:
      case K::FinallyClause:
      case K::WithStatement:
      case K::WithClause:
      case K::WithItem:
      case K::MatchStatement:
      case K::CaseClause:
      case K::FunctionDefinition:
      case K::ClassDefinition:
      case K::DecoratedDefinition:
      case K::ExpressionStatement:
      case K::ReturnStatement:
      case K::ImportStatement:
      case K::ImportFromStatement:
      case K::GlobalStatement:
      case K::NonlocalStatement:
      case K::Error:
        return true;
      default:
        return is_statement_like(k);
    }
  }

  // Statements nested in n are visited; its other named children (conditions, subjects, case
  // patterns, raised values) are evaluated for their calls, reached as `use`. Children in `skip`
  // are handled.
  void visit_clauses(TSNode n, uint32_t scope, std::initializer_list<TSFieldId> skip,
                     Use use = Use::Read) {
    const Range r = skip.size() == 0 ? children(n) : fielded_children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      bool skipped = false;
      for (TSFieldId s : skip) skipped = skipped || (s != 0 && c.field == s);
      if (skipped || c.kind == K::Comment) continue;
      if (is_block_like(c.kind)) {
        visit_statement(c.node, c.kind, scope);
      } else {
        evaluate(c, scope, use);
      }
    }
    release(r);
  }

  void visit_expression_statement(Child c, uint32_t scope) {
    evaluate(c, scope);
    if (scope == 0) note_all_mutation(c.node);
  }

  void visit_assignment(TSNode n, uint32_t scope) {
    // a = b = value: every left side receives the rightmost value.
    std::vector<TSNode> targets;
    TSNode node = n;
    TSNode value{};
    bool has_value = false;
    while (true) {
      targets.push_back(field(node, g_.f_left));
      const TSNode right = field(node, g_.f_right);
      if (is_null(right)) break;
      if (kind(right) != K::Assignment) {
        value = right;
        has_value = true;
        break;
      }
      node = right;
      if (targets.size() > kMaxNesting) {
        nesting_.too_deep = true;
        return;
      }
    }
    if (!has_value) {
      // A bare annotation binds nothing, but to the dense view it still writes its target.
      for (const TSNode& t : targets) dense_.walk(t, Use::Store, scope);
      return;
    }
    const uint32_t v = expr(value, scope);
    for (const TSNode& t : targets) {
      if (is_null(t)) continue;
      add_stmt(StmtKind::Assign, scope, target(t, scope, Use::Store), v);
      if (scope == 0 && kind(t) == K::Identifier && text_of(t) == "__all__") {
        all_seen_ = true;
        f_.all_names.clear();
        all_unknown_ = !collect_strings(value);
      }
    }
  }

  void visit_augmented(TSNode n, uint32_t scope) {
    const TSNode left = field(n, g_.f_left), right = field(n, g_.f_right);
    if (is_null(left) || is_null(right)) return;
    const uint32_t v = expr(right, scope);
    add_stmt(StmtKind::Assign, scope, target(left, scope, Use::Store), v);
    dense_.walk(left, Use::Read, scope);  // `x += 1` reads x too
    if (scope == 0 && kind(left) == K::Identifier && text_of(left) == "__all__") {
      if (!collect_strings(right)) all_unknown_ = true;
    }
  }

  // __all__.extend([...]) / __all__.append("x") at module level.
  void note_all_mutation(TSNode n) {
    if (kind(n) != K::Call) return;
    const TSNode fn = field(n, g_.f_function);
    if (kind(fn) != K::Attribute) return;
    const TSNode obj = field(fn, g_.f_object);
    if (kind(obj) != K::Identifier || text_of(obj) != "__all__") return;
    const std::string_view method = text_of(field(fn, g_.f_attribute));
    const TSNode args = field(n, g_.f_arguments);
    const Range r = children(args);
    bool ok = r.end - r.begin == 1;
    if (ok && method == "append") {
      ok = append_string(stack_[r.begin].node);
    } else if (ok && method == "extend") {
      ok = collect_strings(stack_[r.begin].node);
    } else if (method != "remove") {
      ok = false;
    }
    release(r);
    if (!ok) all_unknown_ = true;
  }

  // Appends the strings of a list/tuple literal of plain strings to __all__; false otherwise.
  bool collect_strings(TSNode n) {
    const K k = kind(n);
    if (k != K::List && k != K::Tuple && k != K::ParenthesizedExpression) return false;
    const Range r = children(n);
    bool ok = true;
    for (size_t i = r.begin; i < r.end && ok; ++i) {
      if (stack_[i].kind == K::Comment) continue;
      ok = append_string(stack_[i].node);
    }
    release(r);
    return ok;
  }

  bool append_string(TSNode n) {
    const std::optional<std::string> value = plain_string(n, text_);
    if (!value) return false;
    f_.all_names.push_back(intern_copy(*value));
    return true;
  }

  // A plain string literal used as a dict key or a subscript, as the resolver reads it ("'k":
  // a quote, then the key), or kNone.
  uint32_t literal_key(TSNode n) {
    const std::optional<std::string> value = plain_string(n, text_);
    if (!value) return kNone;
    return intern_copy("'" + *value);
  }

  std::string dotted(TSNode n) {
    std::string out;
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].kind == K::ImportPrefix) {
        out += text_of(stack_[i].node);
      } else if (stack_[i].kind == K::DottedName) {
        out += dotted(stack_[i].node);
      } else if (stack_[i].kind == K::Identifier) {
        if (!out.empty() && out.back() != '.') out += '.';
        out += text_of(stack_[i].node);
      }
    }
    release(r);
    std::erase_if(
        out, [](char c) { return c == ' ' || c == '\t' || c == '\\' || c == '\r' || c == '\n'; });
    return out;
  }

  void visit_import(TSNode n, uint32_t scope) {
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      if (c.kind == K::DottedName) {
        const std::string module = dotted(c.node);
        const std::string top = module.substr(0, module.find('.'));
        add_stmt(StmtKind::ImportModule, scope, intern_copy(module), 1, intern_copy(top));
      } else if (c.kind == K::AliasedImport) {
        const std::string module = dotted(field(c.node, g_.f_name));
        const std::string_view alias = text_of(field(c.node, g_.f_alias));
        if (!module.empty() && !alias.empty()) {
          add_stmt(StmtKind::ImportModule, scope, intern_copy(module), 0, intern(alias));
        }
      }
    }
    release(r);
  }

  void visit_import_from(TSNode n, uint32_t scope) {
    const TSNode module_node = field(n, g_.f_module_name);
    if (is_null(module_node)) return;
    const uint32_t module = intern_copy(dotted(module_node));
    const Range r = fielded_children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      if (c.kind == K::WildcardImport) {
        add_stmt(StmtKind::ImportStar, scope, module, kNone);
      } else if (c.field == g_.f_name && c.kind == K::DottedName) {
        const std::string name = dotted(c.node);
        add_stmt(StmtKind::ImportFrom, scope, module, intern_copy(name), intern_copy(name));
      } else if (c.field == g_.f_name && c.kind == K::AliasedImport) {
        const std::string name = dotted(field(c.node, g_.f_name));
        const std::string_view alias = text_of(field(c.node, g_.f_alias));
        if (!name.empty() && !alias.empty()) {
          add_stmt(StmtKind::ImportFrom, scope, module, intern_copy(name), intern(alias));
        }
      }
    }
    release(r);
  }

  void visit_with_item(TSNode n, uint32_t scope) {
    const TSNode value = field(n, g_.f_value);
    if (is_null(value)) return;
    if (kind(value) == K::AsPattern) {
      const Range r = fielded_children(value);
      TSNode manager{}, alias{};
      bool has_manager = false, has_alias = false;
      for (size_t i = r.begin; i < r.end; ++i) {
        if (stack_[i].field == g_.f_alias) {
          alias = stack_[i].node;
          has_alias = true;
        } else if (!has_manager) {
          manager = stack_[i].node;
          has_manager = true;
        } else {
          dense_.walk(stack_[i].node, Use::Read, scope);
        }
      }
      release(r);
      if (!has_manager) return;
      if (!has_alias) {
        evaluate(manager, scope);
        return;
      }
      const uint32_t m = expr(manager, scope);
      if (sink_.has_effects(m)) add_stmt(StmtKind::Evaluate, scope, kNone, m);
      add_stmt(StmtKind::Assign, scope, target(alias, scope, Use::Store),
               add_expr(ExprKind::Enter, m));
      return;
    }
    evaluate(value, scope);
  }

  void visit_except(TSNode n, uint32_t scope) {
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      if (c.kind == K::Block) {
        visit_statement(c.node, c.kind, scope);
      } else if (c.kind == K::AsPattern) {
        const Range pr = fielded_children(c.node);
        uint32_t caught = kNone;
        for (size_t j = pr.begin; j < pr.end; ++j) {
          if (stack_[j].field == g_.f_alias) {
            if (caught != kNone) {
              add_stmt(StmtKind::Assign, scope, target(stack_[j], scope, Use::Store),
                       add_expr(ExprKind::Caught, caught));
            } else {
              dense_.walk(stack_[j].node, Use::Store, scope);
            }
          } else if (caught == kNone) {
            caught = expr(stack_[j], scope);
            if (sink_.has_effects(caught)) add_stmt(StmtKind::Evaluate, scope, kNone, caught);
          } else {
            dense_.walk(stack_[j].node, Use::Read, scope);
          }
        }
        release(pr);
      } else if (c.kind != K::Comment) {
        evaluate(c, scope);
      }
    }
    release(r);
  }

  // ---- definitions --------------------------------------------------------------------------

  void visit_decorated(TSNode n, uint32_t scope) {
    const TSNode def = field(n, g_.f_definition);
    if (is_null(def)) {
      visit_clauses(n, scope, {});
      return;
    }
    std::vector<TSNode> decorators;
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].kind == K::Decorator) decorators.push_back(stack_[i].node);
    }
    release(r);
    visit_definition(def, n, kind(def), scope, decorators);
  }

  static uint8_t decorator_flag(std::string_view name) {
    if (name == "staticmethod") return kStaticMethod;
    if (name == "classmethod") return kClassMethod;
    if (name == "property" || name == "cached_property" || name == "abstractproperty") {
      return kProperty;
    }
    return 0;
  }

  void visit_definition(TSNode def, TSNode outer, K k, uint32_t parent,
                        const std::vector<TSNode>& decorators) {
    const TSNode name_node = field(def, g_.f_name);
    if (is_null(name_node)) {
      visit_clauses(def, parent, {});
      return;
    }
    const auto id = static_cast<uint32_t>(f_.scopes.size());
    Scope s;
    s.kind = k == K::ClassDefinition ? ScopeKind::Class : ScopeKind::Function;
    s.parent = parent;
    s.name = intern(text_of(name_node));
    s.line = lines_.line_of(ts_node_start_byte(def));
    const TSNode host = flow_control_host(text_, outer);
    std::optional<LineAnchor> anchor;
    if (!is_null(host)) {
      anchor = statement_anchor(text_, ts_node_start_byte(host), protected_end_);
    }
    if (!anchor) anchor = statement_anchor(text_, ts_node_start_byte(outer), protected_end_);
    if (anchor) {
      s.has_anchor = true;
      s.anchor_offset = anchor->offset;
      s.anchor_indent = intern_copy(anchor->indent);
    }
    f_.scopes.push_back(s);
    lambda_counters_.push_back(0);

    // Decorators and bases are gathered on the item stack and copied into lists below.
    const size_t decorators_mark = sink_.items_mark();
    uint8_t flags = 0;
    for (const TSNode& d : decorators) {
      const Range r = children(d);
      bool first = true;
      for (size_t i = r.begin; i < r.end; ++i) {
        if (stack_[i].kind == K::Comment) continue;
        const TSNode e = stack_[i].node;
        const K ek = kind(e);
        if (first) dense_.decorator(e, ek, id);
        first = false;
        if (ek == K::Identifier) flags = static_cast<uint8_t>(flags | decorator_flag(text_of(e)));
        if (ek == K::Attribute) {
          const std::string_view attr = text_of(field(e, g_.f_attribute));
          if (attr == "setter" || attr == "getter" || attr == "deleter") flags |= kProperty;
          flags = static_cast<uint8_t>(flags | (decorator_flag(attr) & kProperty));
        }
        sink_.push_item(expr(e, parent));
      }
      release(r);
    }

    const size_t decorators_count = sink_.items_since(decorators_mark);
    const size_t bases_mark = sink_.items_mark();
    std::vector<Param> params;
    if (k == K::ClassDefinition) {
      const TSNode supers = field(def, g_.f_superclasses);
      if (!is_null(supers)) {
        const Range r = children(supers);
        for (size_t i = r.begin; i < r.end; ++i) {
          const Child c = stack_[i];
          if (c.kind == K::Comment) continue;
          if (c.kind == K::KeywordArgument || c.kind == K::ListSplat ||
              c.kind == K::DictionarySplat) {
            evaluate(c, parent);
          } else {
            sink_.push_item(expr(c, parent));
          }
        }
        release(r);
      }
    } else {
      params = parameters(field(def, g_.f_parameters), id, parent, Use::Read);
    }

    Scope& stored = f_.scopes[id];
    stored.flags = flags;
    const size_t bases_count = sink_.items_since(bases_mark);
    stored.bases_begin = sink_.add_list(bases_mark);
    stored.bases_count = static_cast<uint32_t>(bases_count);
    stored.decorators_begin = sink_.add_list(decorators_mark);
    stored.decorators_count = static_cast<uint32_t>(decorators_count);
    stored.params_begin = static_cast<uint32_t>(f_.params.size());
    stored.params_count = static_cast<uint32_t>(params.size());
    f_.params.insert(f_.params.end(), params.begin(), params.end());

    add_stmt(StmtKind::Define, parent, id, kNone);
    const TSNode body = field(def, g_.f_body);
    if (!is_null(body)) visit_body(body, id);
  }

  // Parameters of scope `fn`; default values are evaluated in `outer` (reached as `use`) and
  // flow into them.
  std::vector<Param> parameters(TSNode list, uint32_t fn, uint32_t outer, Use use) {
    std::vector<Param> params;
    if (is_null(list)) return params;
    bool keyword_only = false;
    const Range r = children(list);
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      TSNode name{};
      TSNode value{};
      bool has_name = false, has_value = false;
      ParamKind pk = keyword_only ? ParamKind::KeywordOnly : ParamKind::Positional;
      switch (c.kind) {
        case K::Identifier:
          name = c.node;
          has_name = true;
          break;
        case K::DefaultParameter:
        case K::TypedDefaultParameter:
          name = field(c.node, g_.f_name);
          value = field(c.node, g_.f_value);
          has_name = !is_null(name) && kind(name) == K::Identifier;
          has_value = !is_null(value);
          break;
        case K::TypedParameter:
        case K::ListSplatPattern:
        case K::DictionarySplatPattern: {
          TSNode inner = c.node;
          K ik = c.kind;
          if (c.kind == K::TypedParameter) {
            const Range tr = children(c.node);
            if (tr.end > tr.begin) {
              inner = stack_[tr.begin].node;
              ik = stack_[tr.begin].kind;
            }
            release(tr);
          }
          if (ik == K::Identifier) {
            name = inner;
            has_name = true;
          } else if (ik == K::ListSplatPattern || ik == K::DictionarySplatPattern) {
            pk = ik == K::ListSplatPattern ? ParamKind::VarPositional : ParamKind::VarKeyword;
            if (ik == K::ListSplatPattern) keyword_only = true;
            const Range sr = children(inner);
            if (sr.end > sr.begin && stack_[sr.begin].kind == K::Identifier) {
              name = stack_[sr.begin].node;
              has_name = true;
            }
            release(sr);
          }
          break;
        }
        case K::KeywordSeparator:
          keyword_only = true;
          break;
        default:
          break;
      }
      if (!has_name) {
        if (has_value) dense_.walk(value, read_under(use), outer);
        continue;
      }
      const uint32_t name_id = intern(text_of(name));
      params.push_back({name_id, pk});
      if (has_value) {
        const uint32_t v = expr(value, outer, read_under(use));
        add_stmt(StmtKind::Assign, outer, add_expr(ExprKind::ScopedName, fn, name_id), v);
      }
    }
    release(r);
    return params;
  }

  // ---- expressions --------------------------------------------------------------------------

  // The expression n in `scope`, reached as `use` (which only the dense view reads).
  uint32_t expr(TSNode n, uint32_t scope, Use use = Use::Read) {
    if (is_null(n)) return opaque();
    return expr_of(n, kind(n), scope, use);
  }
  // A listed child's kind is already known: looking it up again costs a call into the runtime
  // and a read of the node (callgrind, sympy core + polys: ~480 k lookups).
  uint32_t expr(Child c, uint32_t scope, Use use = Use::Read) {
    return expr_of(c.node, c.kind, scope, use);
  }

  // The expression n (not null) of kind k.
  uint32_t expr_of(TSNode n, K k, uint32_t scope, Use use) {
    Depth d(*this);
    if (d.too_deep()) return opaque();
    if (DenseCollector::skipped(k)) use = Use::Ignored;
    dense_.enter(n, k, use, scope);
    switch (k) {
      case K::Identifier:
        return sink_.add_name(scope, intern(text_of(n)));
      case K::Attribute: {
        const Use object_use = use == Use::Ignored ? Use::Ignored : Use::ChainObject;
        const uint32_t object = expr(field(n, g_.f_object), scope, object_use);
        return add_expr(ExprKind::Attribute, object, intern(text_of(field(n, g_.f_attribute))));
      }
      case K::Call:
        return call(n, scope, use);
      case K::Subscript: {
        const uint32_t object = expr(field(n, g_.f_value), scope, read_under(use));
        const size_t items = sink_.items_mark();
        const Range r = fielded_children(n);
        size_t indices = 0;
        uint32_t literal = kNone;
        for (size_t i = r.begin; i < r.end; ++i) {
          if (stack_[i].field != g_.f_subscript) continue;
          ++indices;
          literal = literal_index(stack_[i].node);
          const uint32_t index = expr_for_effects(stack_[i], scope, read_under(use));
          if (index != kNone) sink_.push_item(index);
        }
        release(r);
        return add_expr(ExprKind::Subscript, object, indices == 1 ? literal : kNone, items);
      }
      case K::List:
      case K::Tuple:
      case K::Set:
      case K::ExpressionList:
      case K::PatternList:
        return sequence(n, scope, k != K::Set, k == K::Set ? read_under(use) : pattern_part(use));
      case K::Dictionary: {
        const size_t items = sink_.items_mark();
        const Range r = children(n);
        bool only_pairs = true;
        for (size_t i = r.begin; i < r.end; ++i) {
          const Child c = stack_[i];
          if (c.kind == K::Pair) {
            const TSNode key = field(c.node, g_.f_key);
            const uint32_t literal = literal_key(key);
            sink_.push_item(literal == kNone ? expr(key, scope, read_under(use))
                                             : add_expr(ExprKind::Opaque, kNone, literal));
            sink_.push_item(expr(field(c.node, g_.f_value), scope, read_under(use)));
          } else if (c.kind == K::DictionarySplat) {
            only_pairs = false;
            sink_.push_item(
                add_expr(ExprKind::DoubleStar, first_named(c.node, scope, read_under(use))));
          } else if (c.kind != K::Comment) {
            only_pairs = false;
            sink_.push_item(expr(c, scope, read_under(use)));
          }
        }
        release(r);
        return add_expr(ExprKind::Container, kNone, only_pairs ? intern_copy("{}") : kNone, items);
      }
      case K::ListComprehension:
      case K::SetComprehension:
      case K::GeneratorExpression:
      case K::DictionaryComprehension:
        return comprehension(n, scope, use);
      case K::ParenthesizedExpression: {
        const Range r = children(n);
        uint32_t inner = kNone;
        for (size_t i = r.begin; i < r.end; ++i) {
          if (stack_[i].kind != K::Comment && inner == kNone) {
            inner = expr(stack_[i], scope, pattern_part(use));
          }
        }
        release(r);
        return inner == kNone ? opaque() : inner;
      }
      case K::BooleanOperator: {
        const size_t items = sink_.items_mark();
        sink_.push_item(expr(field(n, g_.f_left), scope, read_under(use)));
        sink_.push_item(expr(field(n, g_.f_right), scope, read_under(use)));
        return add_expr(ExprKind::Alternatives, kNone, kNone, items);
      }
      case K::ConditionalExpression:
        return conditional(n, scope, read_under(use));
      case K::NamedExpression: {
        const TSNode name = field(n, g_.f_name);
        const uint32_t value = expr(field(n, g_.f_value), scope, read_under(use));
        if (!is_null(name)) {
          add_stmt(StmtKind::Assign, scope, target(name, scope, store_under(use)), value);
        }
        return value;
      }
      case K::Lambda:
        return lambda(n, scope, read_under(use));
      case K::Await:
      case K::DictionarySplat:
      case K::ParenthesizedListSplat:
        return first_named(n, scope, read_under(use));
      case K::Yield:
        return yield(n, scope, read_under(use));
      case K::KeywordArgument:
        // The flow facts evaluate the keyword's name too; it is no read for the dense view.
        return first_named(n, scope, read_under(use), field(n, g_.f_name));
      case K::ListSplat:
        return first_named(n, scope, pattern_part(use));
      case K::String:
        // Only an f-string's interpolations can hold anything; other strings are not walked.
        return may_interpolate(n) ? opaque_over_children(n, k, scope, use) : opaque();
      default:
        // Numbers, keywords and other tokens: nothing to walk.
        if (ts_node_child_count(n) == 0) return opaque();
        return opaque_over_children(n, k, scope, use);
    }
  }

  bool may_interpolate(TSNode n) const {
    for (const char c : text_of(n)) {
      if (c == '"' || c == '\'') return false;
      if (c == 'f' || c == 'F' || c == 't' || c == 'T') return true;
    }
    return true;
  }

  // `x if c else y` is either branch; the condition is evaluated too.
  uint32_t conditional(TSNode n, uint32_t scope, Use use) {
    const size_t items = sink_.items_mark();
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].kind != K::Comment) sink_.push_item(expr(stack_[i], scope, use));
    }
    release(r);
    if (sink_.items_since(items) != 3) return add_expr(ExprKind::Opaque, kNone, kNone, items);
    const uint32_t condition = sink_.item(items + 1);
    const uint32_t otherwise = sink_.item(items + 2);
    sink_.pop_items(2);
    sink_.push_item(otherwise);
    return add_expr(ExprKind::Alternatives, condition, kNone, items);
  }

  // The first operand's value; the others are evaluated. Each is reached as `use`, except
  // `not_code` (a keyword's name), which the dense view ignores.
  uint32_t first_named(TSNode n, uint32_t scope, Use use, TSNode not_code = {}) {
    const Range r = children(n);
    uint32_t out = kNone;
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].kind == K::Comment) continue;
      const Use u = ts_node_eq(stack_[i].node, not_code) ? Use::Ignored : use;
      if (out == kNone) {
        out = expr(stack_[i], scope, u);
      } else {
        evaluate(stack_[i], scope, u);
      }
    }
    release(r);
    return out == kNone ? opaque() : out;
  }

  // Literals and operators: no modelled value, but calls (and lambdas) inside still count.
  // Leaves are not walked, but a name among them is still read for the dense view; of a
  // string (n reached as `use`), only the interpolations are code.
  uint32_t opaque_over_children(TSNode n, K k, uint32_t scope, Use use) {
    const bool string = k == K::String;
    const size_t items = sink_.items_mark();
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      if (c.kind == K::Comment) continue;
      const Use child_use = string && c.kind != K::Interpolation ? Use::Ignored : read_under(use);
      if (ts_node_named_child_count(c.node) == 0) {
        dense_.enter(c.node, c.kind, child_use, scope);
        continue;
      }
      const FactSink::Mark m = mark();
      const uint32_t e = expr_for_effects(c, scope, child_use);
      if (e != kNone && !sink_.splice_opaque(e, m)) sink_.push_item(e);
    }
    release(r);
    return add_expr(ExprKind::Opaque, kNone, kNone, items);
  }

  // A list, tuple or set; its items reached as `use`.
  uint32_t sequence(TSNode n, uint32_t scope, bool positional, Use use) {
    const size_t items = sink_.items_mark();
    bool starred = false;
    const Range r = children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      if (c.kind == K::Comment) continue;
      if (c.kind == K::ListSplat || c.kind == K::ParenthesizedListSplat) {
        const Use splat_use = c.kind == K::ListSplat ? use : read_under(use);
        sink_.push_item(add_expr(ExprKind::Star, first_named(c.node, scope, splat_use)));
        starred = true;
      } else {
        sink_.push_item(expr(c, scope, use));
      }
    }
    release(r);
    return add_expr(positional && !starred ? ExprKind::Tuple : ExprKind::Container, kNone, kNone,
                    items);
  }

  static bool is_decimal(std::string_view s) {
    return !s.empty() && s.size() < 10 &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  }

  // The index of a subscript as the resolver reads it (see ExprKind::Subscript): "3" for a
  // decimal literal, "lo:hi" for a slice without step (each bound decimal, empty, or "?"), "'k"
  // for a plain string literal, else kNone. A step may reverse the order, so such slices are not marked.
  uint32_t literal_index(TSNode n) {
    if (kind(n) == K::String) return literal_key(n);
    if (kind(n) != K::Slice) return is_decimal(text_of(n)) ? intern(text_of(n)) : kNone;
    std::string bounds[2];
    size_t colons = 0;
    const uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode c = ts_node_child(n, i);
      if (!ts_node_is_named(c)) {
        colons += text_of(c) == ":" ? 1 : 0;
      } else if (colons < 2 && kind(c) != K::Comment) {
        bounds[colons] = is_decimal(text_of(c)) ? std::string(text_of(c)) : "?";
      }
    }
    if (colons != 1) return kNone;
    return intern_copy(bounds[0] + ":" + bounds[1]);
  }

  // A comprehension reached as `use`.
  uint32_t comprehension(TSNode n, uint32_t scope, Use use) {
    const Use read = read_under(use);
    const size_t items = sink_.items_mark();
    const Range r = fielded_children(n);
    for (size_t i = r.begin; i < r.end; ++i) {
      const Child c = stack_[i];
      if (c.kind == K::ForInClause) {
        const TSNode right = field(c.node, g_.f_right);
        const uint32_t iterable = expr(right, scope, read);
        const uint32_t element = add_expr(ExprKind::Iterate, iterable);
        const TSNode left = field(c.node, g_.f_left);
        if (!is_null(left)) {
          add_stmt(StmtKind::Assign, scope, target(left, scope, store_under(use)), element);
        }
        // `for x in a, b` iterates a only here; the dense view reads b too.
        if (ts_node_named_child_count(c.node) > 2) dense_rest(c.node, {left, right}, read, scope);
      } else if (c.kind == K::IfClause) {
        evaluate(c, scope, read);
      } else if (c.field == g_.f_body && c.kind == K::Pair) {
        sink_.push_item(expr(field(c.node, g_.f_key), scope, read));
        sink_.push_item(expr(field(c.node, g_.f_value), scope, read));
      } else if (c.field == g_.f_body) {
        sink_.push_item(expr(c, scope, read));
      }
    }
    release(r);
    return add_expr(ExprKind::Container, kNone, kNone, items);
  }

  // A call reached as `use`: its callee is the object of the chain the dense view records.
  uint32_t call(TSNode n, uint32_t scope, Use use) {
    const Use read = read_under(use);
    const Use callee_use = use == Use::Ignored ? Use::Ignored : Use::ChainObject;
    const uint32_t callee = expr(field(n, g_.f_function), scope, callee_use);
    const size_t args = sink_.items_mark();
    const TSNode arguments = field(n, g_.f_arguments);
    if (!is_null(arguments)) {
      if (kind(arguments) == K::GeneratorExpression) {
        sink_.push_item(comprehension(arguments, scope, read));
      } else {
        const Range r = children(arguments);
        for (size_t i = r.begin; i < r.end; ++i) {
          const Child c = stack_[i];
          switch (c.kind) {
            case K::Comment:
              break;
            case K::KeywordArgument: {
              const uint32_t v = expr(field(c.node, g_.f_value), scope, read);
              sink_.push_item(
                  add_expr(ExprKind::Keyword, v, intern(text_of(field(c.node, g_.f_name)))));
              break;
            }
            case K::ListSplat:
            case K::ParenthesizedListSplat:
              sink_.push_item(add_expr(ExprKind::Star, first_named(c.node, scope, read)));
              break;
            case K::DictionarySplat:
              sink_.push_item(add_expr(ExprKind::DoubleStar, first_named(c.node, scope, read)));
              break;
            default:
              sink_.push_item(expr(c, scope, read));
          }
        }
        release(r);
      }
    }
    return add_expr(ExprKind::Call, callee, kNone, args);
  }

  // A lambda whose defaults and body are reached as `use`.
  uint32_t lambda(TSNode n, uint32_t scope, Use use) {
    const auto id = static_cast<uint32_t>(f_.scopes.size());
    Scope s;
    s.kind = ScopeKind::Lambda;
    s.parent = scope;
    s.name = intern_copy("<lambda" + std::to_string(++lambda_counters_[scope]) + ">");
    s.line = lines_.line_of(ts_node_start_byte(n));
    f_.scopes.push_back(s);
    lambda_counters_.push_back(0);
    const std::vector<Param> params = parameters(field(n, g_.f_parameters), id, scope, use);
    Scope& stored = f_.scopes[id];
    stored.params_begin = static_cast<uint32_t>(f_.params.size());
    stored.params_count = static_cast<uint32_t>(params.size());
    stored.decorators_begin = stored.bases_begin = static_cast<uint32_t>(sink_.list_size());
    f_.params.insert(f_.params.end(), params.begin(), params.end());
    const TSNode body = field(n, g_.f_body);
    if (!is_null(body)) add_stmt(StmtKind::Return, id, kNone, expr(body, id, use));
    return add_expr(ExprKind::Definition, id);
  }

  // A yield whose value is reached as `use`.
  uint32_t yield(TSNode n, uint32_t scope, Use use) {
    bool from = false;
    const Range all = children(n, /*named_only=*/false);
    for (size_t i = all.begin; i < all.end; ++i) {
      if (!ts_node_is_named(stack_[i].node) && text_of(stack_[i].node) == "from") from = true;
    }
    release(all);
    const Range r = children(n);
    uint32_t value = kNone;
    for (size_t i = r.begin; i < r.end; ++i) {
      if (stack_[i].kind != K::Comment && value == kNone) value = expr(stack_[i], scope, use);
    }
    release(r);
    if (f_.scopes[scope].kind == ScopeKind::Function ||
        f_.scopes[scope].kind == ScopeKind::Lambda) {
      f_.scopes[scope].flags = static_cast<uint8_t>(f_.scopes[scope].flags | kGenerator);
    }
    if (value != kNone) {
      add_stmt(StmtKind::Yield, scope, kNone, from ? add_expr(ExprKind::Iterate, value) : value);
    }
    return opaque();
  }

  // Assignment targets: names, attributes, subscripts, and (nested) unpacking patterns, reached
  // as `use` (a store, unless the dense view ignores them).
  uint32_t target(TSNode n, uint32_t scope, Use use) {
    if (is_null(n)) return opaque();
    return target_of(n, kind(n), scope, use);
  }
  uint32_t target(Child c, uint32_t scope, Use use) {
    return target_of(c.node, c.kind, scope, use);
  }

  // The target n (not null) of kind k.
  uint32_t target_of(TSNode n, K k, uint32_t scope, Use use) {
    Depth d(*this);
    if (d.too_deep()) return opaque();
    switch (k) {
      case K::Identifier:
        dense_.enter(n, k, use, scope);
        return sink_.add_name(scope, intern(text_of(n)));
      case K::Attribute:
      case K::Subscript:
        return expr_of(n, k, scope, use);
      case K::PatternList:
      case K::TuplePattern:
      case K::ListPattern:
      case K::Tuple:
      case K::List:
      case K::ExpressionList: {
        const size_t items = sink_.items_mark();
        const Range r = children(n);
        for (size_t i = r.begin; i < r.end; ++i) {
          if (stack_[i].kind != K::Comment) sink_.push_item(target(stack_[i], scope, use));
        }
        release(r);
        return add_expr(ExprKind::Tuple, kNone, kNone, items);
      }
      case K::ListSplatPattern:
      case K::ListSplat: {
        const Range r = children(n);
        const uint32_t inner = r.end > r.begin ? target(stack_[r.begin], scope, use) : opaque();
        release(r);
        return add_expr(ExprKind::Star, inner);
      }
      case K::ParenthesizedExpression:
      case K::AsPatternTarget: {
        const Range r = children(n);
        uint32_t inner = kNone;
        for (size_t i = r.begin; i < r.end; ++i) {
          if (stack_[i].kind != K::Comment && inner == kNone) {
            inner = target(stack_[i], scope, use);
          }
        }
        release(r);
        if (inner != kNone) return inner;
        // An aliased bare identifier has no named child: its own text is the name.
        const std::string_view name = text_of(n);
        return name.empty() ? opaque() : sink_.add_name(scope, intern(name));
      }
      default:
        return expr_of(n, k, scope, use);
    }
  }

  std::string_view text_;
  const Grammar& g_;
  LineTable lines_;
  uint64_t protected_end_ = 0;
  FactSink& sink_;
  FileFacts f_;
  Nesting nesting_;
  DenseCollector dense_;
  std::vector<uint32_t> lambda_counters_;  // per scope
  std::vector<Child> stack_;
  bool all_seen_ = false;
  bool all_unknown_ = false;
};

// Every file's facts stay in memory until resolution ends: growth slack is not kept.
void shrink_to_size(FileFacts& f) {
  f.all_names.shrink_to_fit();
  f.strings.shrink_to_fit();
  f.scopes.shrink_to_fit();
  f.params.shrink_to_fit();
  f.exprs.shrink_to_fit();
  f.lists.shrink_to_fit();
  f.stmts.shrink_to_fit();
  f.dense.shrink_to_fit();
}

}  // namespace

FileFacts extract_facts(std::string_view bytes, bool dense) {
  const ParseArena arena;
  TSParser* parser = arena.parser();
  ts_parser_set_language(parser, tree_sitter_python());
  FileFacts facts;
  if (bytes.size() > UINT32_MAX) {
    Scope module;
    facts.strings.emplace_back();
    module.name = 0;
    facts.scopes.push_back(module);
    return facts;
  }
  // A file whose syntax tree would outgrow its budget, or that nests deeper than the runtime can
  // free (parse_budget.h), is served like one that does not parse.
  TSTree* tree = nullptr;
  if (!nests_too_deep_to_parse(bytes)) {
    const ParseBudget budget(parser, parse_budget_bytes(bytes.size()));
    tree = ts_parser_parse_string(parser, nullptr, bytes.data(),
                                  static_cast<uint32_t>(bytes.size()));
  }
  if (tree == nullptr) {
    ts_parser_reset(parser);
    facts.strings.emplace_back();
    Scope module;
    module.name = 0;
    facts.scopes.push_back(module);
    return facts;
  }
  const TSNode root = ts_tree_root_node(tree);
  // One sink per thread: its buffers keep their capacity from file to file.
  thread_local FactSink sink;
  facts = Extractor(bytes, sink, dense).run(root);
  shrink_to_size(facts);
  return facts;
}

}  // namespace anchorfs::analysis::python
