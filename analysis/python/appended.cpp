// Appended functions resolved on their own: a closed unit of statements interleaves with a cold
// run's other evaluations without touching them (docs/resolver.md, "Refresh").
#include "analysis/python/appended.h"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "analysis/python/incremental.h"
#include "analysis/python/modules.h"
#include "analysis/python/resolve.h"
#include "analysis/python/resolve_value_set.h"

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

// The appended statements and scopes, checked to be closed: functions without parameters,
// decorators or flags, whose statements bind plain names and evaluate names, calls, literals
// and alternatives, every name read bound by the unit itself.
class Unit {
 public:
  Unit(const FileFacts& base, const FileFacts& now) : base_(base), now_(now) {}

  bool closed() {
    for (uint32_t s = static_cast<uint32_t>(base_.scopes.size()); s < now_.scopes.size(); ++s) {
      const Scope& sc = now_.scopes[s];
      if (sc.kind != ScopeKind::Function || sc.flags != 0 || sc.params_count != 0 ||
          sc.decorators_count != 0 || sc.bases_count != 0 || sc.parent >= s ||
          (sc.parent != 0 && !is_new_scope(sc.parent))) {
        return false;
      }
      ++values_;
    }
    for (size_t i = base_.stmts.size(); i < now_.stmts.size(); ++i) {
      if (!binds_plainly(now_.stmts[i])) return false;
    }
    for (size_t i = base_.stmts.size(); i < now_.stmts.size(); ++i) {
      const Stmt& s = now_.stmts[i];
      if (s.kind != StmtKind::Define && !reads_only_unit(s.scope, s.b, 0)) return false;
    }
    return values_ < kMaxSet;
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

  const FileFacts& base_;
  const FileFacts& now_;
  std::vector<std::pair<uint32_t, uint32_t>> bound_;  // (local scope, string id)
  std::vector<uint32_t> module_names_;
  size_t values_ = 0;  // at least as many as the values the unit can make
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
                    const FileFacts& base, int quiet_round, std::vector<Edge>& edges) {
  const ResolverFile& edited = input.files[file];
  const FileFacts& now = *edited.facts;
  if (!extends(base, now)) return false;
  Unit unit(base, now);
  if (!unit.closed() || !unseen_elsewhere(input, imports, file, unit.module_names())) {
    return false;
  }
  // The unit alone, in its file's place and numbering: the file's old statements gone and its
  // old scopes stripped of what setup reads (parameters, decorators, bases).
  FileFacts alone = now;
  for (size_t s = 1; s < base.scopes.size(); ++s) {
    alone.scopes[s].params_count = 0;
    alone.scopes[s].decorators_count = 0;
    alone.scopes[s].bases_count = 0;
  }
  alone.stmts.erase(alone.stmts.begin(),
                    alone.stmts.begin() + static_cast<std::ptrdiff_t>(base.stmts.size()));
  alone.has_all = false;
  alone.all_names.clear();
  alone.dense.clear();
  const ResolverFile only{edited.path, &alone, edited.entity};
  const ResolverInput reduced{input.root, std::span<const ResolverFile>(&only, 1)};
  const ModuleIndex modules(reduced);
  const ImportTable reduced_imports(reduced, modules);
  std::vector<Edge> found;
  // A unit still changing when the whole run went quiet would have bought it more rounds.
  if (resolve(reduced, reduced_imports, found) > quiet_round) return false;
  const EntityIndex first_new = edited.entity + static_cast<EntityIndex>(base.scopes.size());
  const EntityIndex end = edited.entity + static_cast<EntityIndex>(now.scopes.size());
  for (const Edge& e : found) {
    if (e.relation != Relation::Calls || e.from < edited.entity || e.from >= end ||
        e.to < first_new || e.to >= end) {
      return false;
    }
  }
  edges.insert(edges.end(), found.begin(), found.end());
  return true;
}

}  // namespace anchorfs::analysis::python
