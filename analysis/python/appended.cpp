// Appended functions resolved on their own: a closed unit of statements interleaves with a cold
// run's other evaluations without touching them, and functions that only call the file's old
// names with empty arguments record the edges the last whole resolution's final state gives
// (docs/resolver.md, "Refresh").
#include "analysis/python/appended.h"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "analysis/python/dense_parts.h"
#include "analysis/python/incremental.h"
#include "analysis/python/modules.h"
#include "analysis/python/resolve.h"
#include "analysis/python/resolve_call_sites.h"
#include "analysis/python/resolve_value_set.h"
#include "analysis/python/resolve_values.h"

namespace anchorfs::analysis::python {
namespace {

constexpr int kMaxDepth = 32;

template <typename T>
bool is_prefix(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// `now` is `base` with entries added at the end of every table the resolver reads.
bool extends(const FileFacts& base, const FileFacts& now) {
  const auto same_scope = [](const Scope& a, const Scope& b) { return same_for_resolution(a, b); };
  return base.has_all == now.has_all && base.all_names == now.all_names &&
         is_prefix(base.strings, now.strings) && is_prefix(base.params, now.params) &&
         is_prefix(base.exprs, now.exprs) && is_prefix(base.lists, now.lists) &&
         is_prefix(base.stmts, now.stmts) && base.scopes.size() <= now.scopes.size() &&
         std::equal(base.scopes.begin(), base.scopes.end(), now.scopes.begin(), same_scope);
}

// The appended statements and scopes, checked to be closed: functions without decorators,
// flags, defaults or variadic parameters, whose statements bind plain names and evaluate names,
// calls, literals and alternatives, every name read bound by the unit itself. A module-level
// function whose statements are not closed may still be a *leaf*: no unit code names it, it
// nests nothing and binds only its parameters, and its statements only call (see leaf_edges).
class Unit {
 public:
  Unit(const FileFacts& base, const FileFacts& now)
      : base_(base), now_(now), leaf_(now.scopes.size(), 0) {}

  bool closed() {
    for (uint32_t s = static_cast<uint32_t>(base_.scopes.size()); s < now_.scopes.size(); ++s) {
      const Scope& sc = now_.scopes[s];
      if (sc.kind != ScopeKind::Function || sc.flags != 0 || sc.decorators_count != 0 ||
          sc.bases_count != 0 || sc.parent >= s || (sc.parent != 0 && !is_new_scope(sc.parent)) ||
          sc.params_begin + sc.params_count > now_.params.size()) {
        return false;
      }
      // *args and **kwargs would get values at setup; defaults are refused with their Assign.
      for (uint32_t p = sc.params_begin; p < sc.params_begin + sc.params_count; ++p) {
        const ParamKind kind = now_.params[p].kind;
        if (kind != ParamKind::Positional && kind != ParamKind::KeywordOnly) return false;
        bound_.emplace_back(s, now_.params[p].name);
      }
      if (sc.parent != 0) leaf_[sc.parent] = kNotLeaf;
      ++values_;
    }
    for (size_t i = base_.stmts.size(); i < now_.stmts.size(); ++i) {
      if (!binds_plainly(now_.stmts[i])) return false;
    }
    for (size_t i = base_.stmts.size(); i < now_.stmts.size(); ++i) {
      const Stmt& s = now_.stmts[i];
      if (s.kind == StmtKind::Define || reads_only_unit(s.scope, s.b, 0)) continue;
      if (s.scope == 0 || now_.scopes[s.scope].parent != 0 || leaf_[s.scope] == kNotLeaf) {
        return false;
      }
      leaf_[s.scope] = kLeaf;
    }
    return values_ < kMaxSet && leaves_unnamed();
  }

  bool has_leaves() const { return std::find(leaf_.begin(), leaf_.end(), kLeaf) != leaf_.end(); }
  bool is_leaf(uint32_t scope) const { return leaf_[scope] == kLeaf; }

  // The edges of the leaves' calls, from what the base says each old name's call does at the end
  // of the file's first-round evaluation (where a cold run evaluates the appended statements
  // first). False when a leaf does anything else.
  bool leaf_edges(const FileBase& calls, const ResolverInput& input, size_t file,
                  const std::vector<uint32_t>& imported, std::vector<Edge>& edges) {
    calls_ = &calls;
    for (size_t i = base_.stmts.size(); i < now_.stmts.size(); ++i) {
      const Stmt& s = now_.stmts[i];
      if (!is_leaf(s.scope)) continue;
      if (s.kind != StmtKind::Return && s.kind != StmtKind::Evaluate) return false;
      // A function with positional parameters returning a name or a call forwards its
      // parameters (Resolver::find_param_returns), which makes values: refused.
      const ExprKind top = s.b < now_.exprs.size() ? now_.exprs[s.b].kind : ExprKind::Opaque;
      if (s.kind == StmtKind::Return && has_positional(s.scope) &&
          (top == ExprKind::Name || top == ExprKind::Call)) {
        return false;
      }
      if (!discarded(s.scope, s.b, 0)) return false;
    }
    const ResolverFile& edited = input.files[file];
    const bool test_caller = is_test_path(edited.path);
    std::vector<uint64_t> pairs;
    for (const auto& [scope, callees] : sites_) {
      if (callees.size() > detail::kMaxCalleesPerSite) continue;
      for (const LocalScope& c : callees) {
        // Resolver::emit_edges: a test double's edge into a test file the caller never imports.
        if (!test_caller && is_test_path(input.files[c.file].path) &&
            !std::binary_search(imported.begin(), imported.end(), c.file)) {
          continue;
        }
        pairs.push_back(uint64_t{edited.entity + scope} << 32 |
                        (input.files[c.file].entity + c.local));
      }
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    for (const uint64_t k : pairs) {
      edges.push_back(
          {static_cast<EntityIndex>(k >> 32), static_cast<EntityIndex>(k), Relation::Calls});
    }
    return true;
  }

  // String ids of the module-level names the unit binds.
  const std::vector<uint32_t>& module_names() const { return module_names_; }

 private:
  bool is_new_scope(uint32_t s) const { return s >= base_.scopes.size() && s < now_.scopes.size(); }

  bool binds_plainly(const Stmt& s) {
    if (s.scope != 0 && !is_new_scope(s.scope)) return false;
    uint32_t name = kNone;
    switch (s.kind) {
      case StmtKind::Assign:
        if (!is_new_expr(s.a) || now_.exprs[s.a].kind != ExprKind::Name) return false;
        name = now_.exprs[s.a].str;
        break;
      case StmtKind::Define:
        if (!is_new_scope(s.a) || now_.scopes[s.a].parent != s.scope) return false;
        name = now_.scopes[s.a].name;
        break;
      case StmtKind::Return:
        return s.scope != 0;
      case StmtKind::Evaluate:
        return true;
      default:
        return false;
    }
    if (name == kNone) return false;
    if (s.scope == 0) {
      // Spelled nowhere in the file before the edit, and no special name: no old lookup,
      // `from` import or attribute of this module can meet it (the caller checks other files).
      if (name < base_.strings.size() || now_.strings[name].starts_with("__")) return false;
      module_names_.push_back(name);
    }
    bound_.emplace_back(s.scope, name);
    return true;
  }

  bool is_new_expr(uint32_t e) const { return e >= base_.exprs.size() && e < now_.exprs.size(); }

  // An opaque leaf (literals share one) evaluates to nothing, wherever it is.
  bool is_inert(uint32_t e) const {
    return e < now_.exprs.size() && now_.exprs[e].kind == ExprKind::Opaque &&
           now_.exprs[e].list_count == 0;
  }

  bool binds(uint32_t scope, uint32_t name) const {
    return std::find(bound_.begin(), bound_.end(), std::make_pair(scope, name)) != bound_.end();
  }

  // The resolver's lookup walks the enclosing functions to the module: the name must be bound
  // by the unit on that walk, or it could reach an old variable or a builtin.
  bool resolves_in_unit(uint32_t scope, uint32_t name) const {
    for (uint32_t p = scope;; p = now_.scopes[p].parent) {
      if (binds(p, name)) return true;
      if (p == 0) return false;
    }
  }

  bool items_read_only_unit(uint32_t scope, const Expr& x, int depth) {
    if (x.list_begin < base_.lists.size() || x.list_begin + x.list_count > now_.lists.size()) {
      return false;
    }
    for (uint32_t i = 0; i < x.list_count; ++i) {
      if (!reads_only_unit(scope, now_.lists[x.list_begin + i], depth + 1)) return false;
    }
    return true;
  }

  bool reads_only_unit(uint32_t scope, uint32_t e, int depth) {
    if (is_inert(e)) return true;
    if (depth > kMaxDepth || !is_new_expr(e)) return false;
    const Expr& x = now_.exprs[e];
    switch (x.kind) {
      case ExprKind::Name:
        return resolves_in_unit(scope, x.str);
      case ExprKind::Opaque:
        return items_read_only_unit(scope, x, depth);
      case ExprKind::Call:
        return reads_only_unit(scope, x.a, depth + 1) && items_read_only_unit(scope, x, depth);
      case ExprKind::Container:
      case ExprKind::Tuple:
        ++values_;
        return x.str == kNone && items_read_only_unit(scope, x, depth);
      case ExprKind::Alternatives:
        return (x.a == kNone || reads_only_unit(scope, x.a, depth + 1)) &&
               items_read_only_unit(scope, x, depth);
      default:
        return false;
    }
  }

  // No unit expression spells a leaf's name (so nothing calls it and its parameters stay empty).
  bool leaves_unnamed() const {
    for (size_t e = base_.exprs.size(); e < now_.exprs.size(); ++e) {
      const Expr& x = now_.exprs[e];
      if (x.kind != ExprKind::Name && x.kind != ExprKind::Attribute) continue;
      for (uint32_t s = 1; s < now_.scopes.size(); ++s) {
        if (leaf_[s] == kLeaf && now_.scopes[s].name == x.str) return false;
      }
    }
    return true;
  }

  bool has_positional(uint32_t scope) const {
    const Scope& sc = now_.scopes[scope];
    for (uint32_t p = sc.params_begin; p < sc.params_begin + sc.params_count; ++p) {
      if (now_.params[p].kind == ParamKind::Positional) return true;
    }
    return false;
  }

  // What a name read in a leaf is: one of its parameters (never given a value), one of the
  // file's old module names (made by setup: one an attribute store made may not exist yet where
  // the leaf runs), or nothing (no variable ever, no modelled builtin).
  enum class Named { Empty, Old, Refused };
  Named named(uint32_t scope, uint32_t name, const NameCall** old) const {
    if (binds(scope, name)) return Named::Empty;
    if (name >= now_.strings.size()) return Named::Refused;
    for (const uint32_t unit_name : module_names_) {
      if (unit_name == name) return Named::Refused;
    }
    const std::string& spelled = now_.strings[name];
    if ((*old = calls_->find(spelled)) != nullptr)
      return (*old)->late ? Named::Refused : Named::Old;
    for (const std::string_view builtin : detail::kBuiltinNames) {
      if (builtin == spelled) return Named::Refused;  // a builtin value would be made
    }
    return Named::Empty;
  }

  bool leaf_items(uint32_t scope, const Expr& x, int depth, bool empty) {
    if (x.list_begin < base_.lists.size() || x.list_begin + x.list_count > now_.lists.size()) {
      return false;
    }
    for (uint32_t i = 0; i < x.list_count; ++i) {
      const uint32_t item = now_.lists[x.list_begin + i];
      if (!(empty ? empty_valued(scope, item, depth + 1) : discarded(scope, item, depth + 1))) {
        return false;
      }
    }
    return true;
  }

  // Evaluates to no values (so passing it flows nothing), recording the calls inside.
  bool empty_valued(uint32_t scope, uint32_t e, int depth) {
    if (is_inert(e)) return true;
    if (depth > kMaxDepth || !is_new_expr(e)) return false;
    const Expr& x = now_.exprs[e];
    const NameCall* old = nullptr;
    switch (x.kind) {
      case ExprKind::Name:
        return named(scope, x.str, &old) == Named::Empty;
      case ExprKind::Opaque:
        return leaf_items(scope, x, depth, false);
      case ExprKind::Attribute:
        return empty_valued(scope, x.a, depth + 1);
      case ExprKind::Subscript:
        return empty_valued(scope, x.a, depth + 1) && leaf_items(scope, x, depth, false);
      case ExprKind::Alternatives:
        return (x.a == kNone || discarded(scope, x.a, depth + 1)) &&
               leaf_items(scope, x, depth, true);
      default:
        return false;
    }
  }

  // Evaluated for its calls, its value unused (or returned by the leaf, whose return variable
  // nothing reads).
  bool discarded(uint32_t scope, uint32_t e, int depth) {
    if (is_inert(e)) return true;
    if (depth > kMaxDepth || !is_new_expr(e)) return false;
    const Expr& x = now_.exprs[e];
    const NameCall* old = nullptr;
    switch (x.kind) {
      case ExprKind::Name:
        return named(scope, x.str, &old) != Named::Refused;
      case ExprKind::Call:
        return leaf_call(scope, x, depth);
      case ExprKind::Alternatives:
        return (x.a == kNone || discarded(scope, x.a, depth + 1)) &&
               leaf_items(scope, x, depth, false);
      default:
        return empty_valued(scope, e, depth);
    }
  }

  // A call whose callee is empty (its arguments only evaluated) or an old name whose call the
  // base describes at this point (its arguments then must hold no values).
  bool leaf_call(uint32_t scope, const Expr& x, int depth) {
    if (x.a >= now_.exprs.size()) return false;
    const Expr& callee = now_.exprs[x.a];
    const NameCall* old = nullptr;
    if (callee.kind == ExprKind::Name) {
      if (!is_new_expr(x.a)) return false;
      const Named what = named(scope, callee.str, &old);
      if (what == Named::Refused) return false;
    } else if (!empty_valued(scope, x.a, depth + 1)) {
      return false;
    }
    if (x.list_begin < base_.lists.size() || x.list_begin + x.list_count > now_.lists.size()) {
      return false;
    }
    for (uint32_t i = 0; i < x.list_count; ++i) {
      uint32_t a = now_.lists[x.list_begin + i];
      if (a >= now_.exprs.size()) return false;
      const ExprKind kind = now_.exprs[a].kind;
      if (kind == ExprKind::Star || kind == ExprKind::DoubleStar) return false;
      if (kind == ExprKind::Keyword) {
        if (!is_new_expr(a)) return false;
        a = now_.exprs[a].a;
      }
      if (!(old == nullptr ? discarded(scope, a, depth + 1) : empty_valued(scope, a, depth + 1))) {
        return false;
      }
    }
    if (old == nullptr) return true;
    if (!old->callable || old->tick > calls_->end_tick || old->values > calls_->end_values) {
      return false;
    }
    if (!old->callees.empty()) sites_.emplace_back(scope, old->callees);
    return true;
  }

  static constexpr uint8_t kLeaf = 1, kNotLeaf = 2;

  const FileFacts& base_;
  const FileFacts& now_;
  std::vector<std::pair<uint32_t, uint32_t>> bound_;  // (local scope, string id)
  std::vector<uint32_t> module_names_;
  size_t values_ = 0;          // at least as many as the values the unit can make
  std::vector<uint8_t> leaf_;  // per scope: kLeaf, kNotLeaf (it nests a scope) or 0
  const FileBase* calls_ = nullptr;
  // Per leaf call site with callees: its function and the callees (sorted, unique).
  std::vector<std::pair<uint32_t, std::vector<LocalScope>>> sites_;
};

// No other file spells a name, and no star import copies it out of `file`.
bool unseen_elsewhere(const ResolverInput& input, const ImportTable& imports, size_t file,
                      const std::vector<uint32_t>& names) {
  const FileFacts& now = *input.files[file].facts;
  for (size_t f = 0; f < input.files.size(); ++f) {
    for (const ResolvedImport& import : imports.of_file(static_cast<uint32_t>(f))) {
      const Stmt& s = input.files[f].facts->stmts[import.stmt];
      if (s.kind != StmtKind::ImportStar || import.from_file != file) continue;
      for (const uint32_t name : names) {
        if (imports.star_exports(static_cast<uint32_t>(file), now.strings[name])) return false;
      }
    }
    if (f == file) continue;
    for (const std::string& s : input.files[f].facts->strings) {
      for (const uint32_t name : names) {
        if (s == now.strings[name]) return false;
      }
    }
  }
  return true;
}

}  // namespace

bool appended_edges(const ResolverInput& input, const ImportTable& imports, size_t file,
                    const AppendBase& base, std::vector<Edge>& edges) {
  const ResolverFile& edited = input.files[file];
  const FileFacts& now = *edited.facts;
  if (!extends(base.facts, now)) return false;
  Unit unit(base.facts, now);
  if (!unit.closed() || !unseen_elsewhere(input, imports, file, unit.module_names())) {
    return false;
  }
  std::vector<Edge> leaf_edges;
  if (unit.has_leaves() && (base.calls == nullptr || !unit.leaf_edges(*base.calls, input, file,
                                                                      base.imported, leaf_edges))) {
    return false;
  }
  // The unit alone, in its file's place and numbering: the file's old statements gone and its
  // old scopes stripped of what setup reads (parameters, decorators, bases); the leaves'
  // statements gone too (their edges are leaf_edges; they change no variable anything reads).
  FileFacts alone = now;
  for (size_t s = 1; s < base.facts.scopes.size(); ++s) {
    alone.scopes[s].params_count = 0;
    alone.scopes[s].decorators_count = 0;
    alone.scopes[s].bases_count = 0;
  }
  alone.stmts.erase(alone.stmts.begin(),
                    alone.stmts.begin() + static_cast<std::ptrdiff_t>(base.facts.stmts.size()));
  std::erase_if(alone.stmts, [&](const Stmt& s) { return unit.is_leaf(s.scope); });
  alone.has_all = false;
  alone.all_names.clear();
  alone.dense.clear();
  const ResolverFile only{edited.path, &alone, edited.entity};
  const ResolverInput reduced{input.root, std::span<const ResolverFile>(&only, 1)};
  const ModuleIndex modules(reduced);
  const ImportTable reduced_imports(reduced, modules);
  std::vector<Edge> found;
  // A unit still changing when the whole run went quiet would have bought it more rounds.
  if (resolve(reduced, reduced_imports, found) > base.quiet_round) return false;
  const EntityIndex first_new = edited.entity + static_cast<EntityIndex>(base.facts.scopes.size());
  const EntityIndex end = edited.entity + static_cast<EntityIndex>(now.scopes.size());
  for (const Edge& e : found) {
    if (e.relation != Relation::Calls || e.from < edited.entity || e.from >= end ||
        e.to < first_new || e.to >= end) {
      return false;
    }
  }
  edges.insert(edges.end(), found.begin(), found.end());
  edges.insert(edges.end(), leaf_edges.begin(), leaf_edges.end());
  return true;
}

}  // namespace anchorfs::analysis::python
