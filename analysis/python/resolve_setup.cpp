// The resolver's setup: global ids, which names each scope binds, imports, receivers and the
// patterns found before the rounds (wrapper decorators, identity functions, parameters).
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_set>

#include "analysis/python/resolve_resolver.h"

namespace anchorfs::analysis::python::detail {

NameId Resolver::global_string(std::string_view s) { return strings_.intern(s); }

void Resolver::index_files() {
  files_.resize(input_.files.size());
  size_t call_count = 0;
  for (const FileId f : files_.ids()) {
    const FileFacts& facts = *input_.files[raw(f)].facts;
    FileRec& rec = files_[f];
    rec.facts = &facts;
    rec.entity = input_.files[raw(f)].entity;
    rec.scope_base = static_cast<uint32_t>(scopes_.size());
    rec.expr_base = expr_count_;
    rec.str_base = static_cast<uint32_t>(gstr_.size());
    rec.stmt_base = stmt_count_;
    stmt_count_ += static_cast<uint32_t>(facts.stmts.size());
    for (const Expr& x : facts.exprs) call_count += x.kind == ExprKind::Call ? 1 : 0;
    expr_count_ += static_cast<uint32_t>(facts.exprs.size());
    for (const std::string& s : facts.strings) gstr_.push_back(global_string(s));
    for (uint32_t s = 0; s < facts.scopes.size(); ++s) {
      const Scope& scope = facts.scopes[s];
      ScopeRec r;
      r.file = f;
      r.local = s;
      r.parent = scope.parent == kNone ? kNoScope : ScopeId{rec.scope_base + scope.parent};
      r.kind = scope.kind;
      r.flags = scope.flags;
      r.name = scope.name == kNone ? kNoName : gstr_[rec.str_base + scope.name];
      scopes_.push_back(r);
    }
  }
  expr_slot_.assign(expr_count_, kNone);
  heap_.set_expression_count(expr_count_);
  calls_.reserve(call_count);
  ret_var_.assign(scopes_.size(), kNoVar);
  yield_var_.assign(scopes_.size(), kNoVar);
  classes_ = ClassHierarchy(scopes_.size());
  values_ = Values(scopes_.size());
  scope_shape_.assign(scopes_.size(), kNoVar);
  attribute_shape_.assign(scopes_.size(), kNoVar);
  scope_names_.assign(scopes_.size(), 0);
  for (size_t b = 0; b < static_cast<size_t>(Builtin::kCount); ++b) {
    builtin_ids_.push_back(global_string(kBuiltinNames[b]));
  }
  s_init_ = global_string("__init__");
  s_call_ = global_string("__call__");
  s_iter_ = global_string("__iter__");
  s_next_ = global_string("__next__");
  s_enter_ = global_string("__enter__");
  s_getitem_ = global_string("__getitem__");
  s_class_ = global_string("__class__");
  s_new_ = global_string("__new__");
  s_init_subclass_ = global_string("__init_subclass__");
  s_class_getitem_ = global_string("__class_getitem__");
  s_items_ = global_string("items");
  s_key_ = global_string("key");
  s_sort_ = global_string("sort");
  const std::pair<uint8_t, std::vector<std::string_view>> roles[] = {
      {kAdd, {"append", "add", "appendleft", "put", "put_nowait"}},
      {kExtend, {"extend", "update", "extendleft"}},
      {kInsert, {"insert", "setdefault"}},
      {kGet, {"get", "pop", "popitem", "popleft", "setdefault", "get_nowait"}},
      {kView, {"values", "keys", "items", "copy"}},
  };
  std::vector<std::pair<NameId, uint8_t>> named;
  for (const auto& [role, names] : roles) {
    for (std::string_view m : names) named.emplace_back(global_string(m), role);
  }
  name_roles_.assign(strings_.size(), 0);
  for (const auto& [name, role] : named) name_roles_[name] |= role;
  for (const NameId name : builtin_ids_) name_roles_[name] |= kBuiltin;
  // Every name is interned by now; the strings by id are the table from here on.
  strings_.release();
}

void Resolver::bind(ScopeId scope, NameId name) {
  if (declared_global_.contains(pack(scope, name))) {
    const ScopeId module = module_scope(scopes_[scope].file);
    alias_var(scope, name, scope_var(module, name));
    return;
  }
  if (declared_nonlocal_.contains(pack(scope, name))) return;
  scope_var(scope, name);
}

void Resolver::bind_target(FileId f, ScopeId scope, uint32_t e, std::vector<uint64_t>& bindings,
                           int depth) {
  if (depth > kMaxEvalDepth) return;
  const Expr& x = expr_at(f, e);
  switch (x.kind) {
    case ExprKind::Name:
      bindings.push_back(pack(scope, gs(f, x.str)));
      break;
    case ExprKind::ScopedName:
      bindings.push_back(pack(gscope(f, x.a), gs(f, x.str)));
      break;
    case ExprKind::Tuple:
    case ExprKind::Container:
      for (uint32_t i = 0; i < x.list_count; ++i) {
        bind_target(f, scope, list_item(f, x.list_begin + i), bindings, depth + 1);
      }
      break;
    case ExprKind::Star:
      bind_target(f, scope, x.a, bindings, depth + 1);
      break;
    default:
      break;
  }
}

void Resolver::collect_stored_names(FileId f, uint32_t e, int depth) {
  if (depth > 64) return;
  const Expr& x = expr_at(f, e);
  if (x.kind == ExprKind::Attribute) name_roles_[gs(f, x.str)] |= kStored;
  if (x.kind == ExprKind::Star) collect_stored_names(f, x.a, depth + 1);
  if (x.kind == ExprKind::Tuple || x.kind == ExprKind::Container) {
    for (uint32_t i = 0; i < x.list_count; ++i) {
      collect_stored_names(f, list_item(f, x.list_begin + i), depth + 1);
    }
  }
}

void Resolver::bind_names() {
  module_names_.assign(files_.size(), {});
  for (const FileId f : files_.ids()) {
    for (const Stmt& s : facts(f).stmts) {
      if (s.kind == StmtKind::Global) {
        declared_global_.insert(pack(gscope(f, s.scope), gs(f, s.str)));
      }
      if (s.kind == StmtKind::Nonlocal) {
        declared_nonlocal_.insert(pack(gscope(f, s.scope), gs(f, s.str)));
      }
    }
  }
  // A file's bindings are listed first and bound in that order: each is a lookup at a random
  // place in the 8 MB scope-variable table (on sympy a cache miss each, a quarter of the setup),
  // so the line of the binding a few ahead is asked for while this one is bound.
  constexpr size_t kAhead = 8;
  std::vector<uint64_t> bindings;
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (const Stmt& s : ff.stmts) {
      if (s.kind == StmtKind::Assign) collect_stored_names(f, s.a, 0);
    }
    bindings.clear();
    for (uint32_t s = 1; s < ff.scopes.size(); ++s) {
      const Scope& sc = ff.scopes[s];
      for (uint32_t p = 0; p < sc.params_count; ++p) {
        bindings.push_back(pack(gscope(f, s), gs(f, ff.params[sc.params_begin + p].name)));
      }
    }
    for (const Stmt& s : ff.stmts) {
      const ScopeId scope = gscope(f, s.scope);
      switch (s.kind) {
        case StmtKind::Assign:
          bind_target(f, scope, s.a, bindings);
          break;
        case StmtKind::Define:
          bindings.push_back(pack(scope, gs(f, ff.scopes[s.a].name)));
          break;
        case StmtKind::ImportModule:
        case StmtKind::ImportFrom:
          bindings.push_back(pack(scope, gs(f, s.str)));
          break;
        default:
          break;
      }
    }
    for (size_t i = 0; i < bindings.size(); ++i) {
      if (i + kAhead < bindings.size()) {
        const uint64_t next = bindings[i + kAhead];
        scope_vars_.prefetch(ScopeId{static_cast<uint32_t>(next >> 32)},
                             NameId{static_cast<uint32_t>(next)});
      }
      bind(ScopeId{static_cast<uint32_t>(bindings[i] >> 32)},
           NameId{static_cast<uint32_t>(bindings[i])});
    }
  }
  // nonlocal names alias the nearest enclosing function's binding.
  for (uint64_t k : declared_nonlocal_) {
    const ScopeId scope{static_cast<uint32_t>(k >> 32)};
    const NameId name{static_cast<uint32_t>(k)};
    for (ScopeId p = scopes_[scope].parent; p != kNoScope; p = scopes_[p].parent) {
      if (scopes_[p].kind == ScopeKind::Module) break;
      if (scopes_[p].kind == ScopeKind::Class) continue;
      const VarId v = find_var(p, name);
      if (v != kNoVar) {
        alias_var(scope, name, v);
        break;
      }
    }
  }
}

std::vector<NameId> Resolver::exports(FileId f) {
  std::vector<NameId> out;
  for (const NameId name : module_names_[f]) {
    if (imports_.star_exports(raw(f), strings_.by_id()[name])) out.push_back(name);
  }
  return out;
}

void Resolver::expand_star_imports() {
  struct Star {
    FileId file;
    ScopeId scope;
    FileId from_file;
  };
  std::vector<Star> stars;
  for (const FileId f : files_.ids()) {
    for (const ResolvedImport& import : imports_.of_file(raw(f))) {
      const Stmt& s = facts(f).stmts[import.stmt];
      if (s.kind != StmtKind::ImportStar) continue;
      const FileId target{import.from_file};
      if (target != kNoFile && target != f) stars.push_back({f, gscope(f, s.scope), target});
      if (target != kNoFile) import_edges_.insert(pack(f, target));
    }
  }
  // Star imports chain (a re-exports b's names): repeat until no module gains names.
  std::unordered_set<uint64_t> copied;
  for (int pass = 0; pass < 16; ++pass) {
    bool grew = false;
    for (const Star& st : stars) {
      for (const NameId name : exports(st.from_file)) {
        const VarId src = find_var(module_scope(st.from_file), name);
        if (src == kNoVar) continue;
        const bool fresh = find_var(st.scope, name) == kNoVar;
        const VarId dst = scope_var(st.scope, name);
        if (copied.insert(pack(dst, src)).second) copies_.push_back({st.file, dst, src});
        grew = grew || fresh;
      }
    }
    if (!grew) break;
  }
}

void Resolver::bind_imports() {
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (const ResolvedImport& import : imports_.of_file(raw(f))) {
      if (import.module == kNone) continue;
      const Stmt& s = ff.stmts[import.stmt];
      const ScopeId scope = gscope(f, s.scope);
      if (s.kind == StmtKind::ImportModule) {
        const FileId target_file = file_of(ModuleId{import.module});
        if (target_file != kNoFile && target_file != f) import_edges_.insert(pack(f, target_file));
        if (import.bound != kNone) {
          merge(find_var(scope, gs(f, s.str)), {values_.module(ModuleId{import.bound})});
        }
      } else if (s.kind == StmtKind::ImportFrom) {
        const VarId dst = find_var(scope, gs(f, s.str));
        const NameId name = gs(f, s.b);
        if (import.bound != kNone) {
          merge(dst, {values_.module(ModuleId{import.bound})});
          const FileId sub_file = file_of(ModuleId{import.bound});
          if (sub_file != kNoFile && sub_file != f) import_edges_.insert(pack(f, sub_file));
          continue;
        }
        const FileId from_file{import.from_file};
        if (from_file == kNoFile) continue;
        const VarId src = find_var(module_scope(from_file), name);
        if (src != kNoVar && src != dst) copies_.push_back({f, dst, src});
        from_imports_.push_back({f, from_file, dst});
      }
    }
  }
}

void Resolver::order_files() {
  copies_of_file_.assign(files_.size(), {});
  for (uint32_t c = 0; c < copies_.size(); ++c) {
    copies_of_file_[copies_[c].file].push_back(c);
  }
  IdVector<FileId, std::vector<FileId>> imports(files_.size(), {});
  std::vector<uint64_t> sorted(import_edges_.begin(), import_edges_.end());
  std::sort(sorted.begin(), sorted.end());
  for (uint64_t k : sorted) {
    imports[FileId{static_cast<uint32_t>(k >> 32)}].push_back(FileId{static_cast<uint32_t>(k)});
  }
  IdVector<FileId, uint8_t> state(files_.size(), 0);
  std::vector<std::pair<FileId, size_t>> stack;
  evaluation_order_.clear();
  for (const FileId root : files_.ids()) {
    if (state[root] != 0) continue;
    state[root] = 1;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [file, next] = stack.back();
      if (next < imports[file].size()) {
        const FileId dep = imports[file][next++];
        if (state[dep] == 0) {
          state[dep] = 1;
          stack.push_back({dep, 0});
        }
        continue;
      }
      evaluation_order_.push_back(file);
      stack.pop_back();
    }
  }
}

void Resolver::seed_variadic_params() {
  for (const ScopeId g : scopes_.ids()) {
    const ScopeRec& s = scopes_[g];
    if (s.kind != ScopeKind::Function && s.kind != ScopeKind::Lambda) continue;
    const FileFacts& ff = facts(s.file);
    const Scope& sc = ff.scopes[s.local];
    for (uint32_t p = 0; p < sc.params_count; ++p) {
      const Param& param = ff.params[sc.params_begin + p];
      if (param.kind == ParamKind::VarPositional) {
        merge(find_var(g, gs(s.file, param.name)), {values_.container(heap_.varargs_site(g))});
      } else if (param.kind == ParamKind::VarKeyword) {
        merge(find_var(g, gs(s.file, param.name)), {values_.container(heap_.varkw_site(g))});
      }
    }
  }
}

void Resolver::seed_receivers() {
  for (const ScopeId g : scopes_.ids()) {
    const ScopeRec& s = scopes_[g];
    if (s.kind != ScopeKind::Function || s.parent == kNoScope) continue;
    if (scopes_[s.parent].kind != ScopeKind::Class || (s.flags & kStaticMethod) != 0) continue;
    const VarId first = first_positional_param(g);
    if (first == kNoVar) continue;
    const bool on_class = (s.flags & kClassMethod) != 0 || s.name == s_new_ ||
                          s.name == s_init_subclass_ || s.name == s_class_getitem_;
    const ValueId receiver = on_class ? values_.cls(s.parent) : values_.instance(s.parent);
    merge(first, {receiver});
    receiver_seed_.emplace(first, receiver);
  }
}

void Resolver::find_wrappers() {
  find_identities();
  wrapper_of_.assign(scopes_.size(), kNoScope);
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (const Stmt& s : ff.stmts) {
      if (s.kind != StmtKind::Return || s.scope == 0) continue;
      const Scope& d = ff.scopes[s.scope];
      if (d.kind != ScopeKind::Function || d.params_count == 0) continue;
      const Param& p = ff.params[d.params_begin];
      if (p.kind != ParamKind::Positional) continue;
      const Expr& r = ff.exprs[s.b];
      if (r.kind != ExprKind::Name) continue;
      for (uint32_t w = s.scope + 1; w < ff.scopes.size(); ++w) {
        const Scope& ws = ff.scopes[w];
        if (ws.parent != s.scope || ws.kind != ScopeKind::Function || ws.name != r.str) continue;
        if (calls_name(f, w, p.name)) wrapper_of_[gscope(f, s.scope)] = gscope(f, w);
      }
    }
  }
}

void Resolver::find_identities() {
  returned_param_.assign(scopes_.size(), kNone);
  IdVector<ScopeId, uint8_t> spoiled(scopes_.size(), 0);
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (const Stmt& s : ff.stmts) {
      if (s.scope == 0) continue;
      const ScopeId g = gscope(f, s.scope);
      if (s.kind == StmtKind::Yield) spoiled[g] = 1;
      if (s.kind == StmtKind::Assign && spoiled[g] == 0) {
        const Expr& t = ff.exprs[s.a];
        if (t.kind != ExprKind::Name && t.kind != ExprKind::Attribute &&
            t.kind != ExprKind::Subscript && t.kind != ExprKind::ScopedName) {
          spoiled[g] = 2;  // unpacking may rebind anything: checked below as "any rebind"
        }
      }
      if (s.kind != StmtKind::Return || spoiled[g] == 1) continue;
      const Scope& sc = ff.scopes[s.scope];
      const Expr* r = &ff.exprs[s.b];
      uint32_t class_of = 0;
      if (r->kind == ExprKind::Attribute && r->a != kNone && ff.strings[r->str] == "__class__") {
        r = &ff.exprs[r->a];
        class_of = kClassOfParam;
      }
      uint32_t index = kNone;
      if (r->kind == ExprKind::Name) {
        for (uint32_t p = 0; p < sc.params_count; ++p) {
          const Param& param = ff.params[sc.params_begin + p];
          if (param.kind == ParamKind::Positional && param.name == r->str) index = p | class_of;
        }
      }
      if (index == kNone || (returned_param_[g] != kNone && returned_param_[g] != index)) {
        spoiled[g] = 1;
        continue;
      }
      returned_param_[g] = index;
    }
  }
  // A parameter that is assigned to is no longer the argument.
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (const Stmt& s : ff.stmts) {
      const ScopeId g = gscope(f, s.scope);
      if (returned_param_[g] == kNone || spoiled[g] == 1) continue;
      if (s.kind != StmtKind::Assign && s.kind != StmtKind::Global &&
          s.kind != StmtKind::Nonlocal) {
        continue;
      }
      const Scope& sc = ff.scopes[s.scope];
      const uint32_t param =
          ff.params[sc.params_begin + (returned_param_[g] & ~kClassOfParam)].name;
      if (s.kind != StmtKind::Assign ? s.str == param
                                     : (spoiled[g] == 2 || expr_names(ff, s.a, param, 0))) {
        spoiled[g] = 1;
      }
    }
  }
  for (const ScopeId g : scopes_.ids()) {
    if (spoiled[g] == 1) returned_param_[g] = kNone;
  }
}

uint32_t Resolver::param_index(FileId f, ScopeId g, uint32_t name) const {
  const Scope& sc = facts(f).scopes[scopes_[g].local];
  for (uint32_t p = 0; p < sc.params_count && p < 32; ++p) {
    if (facts(f).params[sc.params_begin + p].name == name) return p;
  }
  return kNone;
}

void Resolver::find_param_returns() {
  forwardable_.assign(scopes_.size(), 0);
  for (const ScopeId g : scopes_.ids()) {
    const ScopeRec& s = scopes_[g];
    if (s.kind != ScopeKind::Function && s.kind != ScopeKind::Lambda) continue;
    if ((s.flags & kGenerator) != 0 || returned_param_[g] != kNone) continue;
    const Scope& sc = facts(s.file).scopes[s.local];
    for (uint32_t p = 0; p < sc.params_count && p < 32; ++p) {
      const ParamKind kind = facts(s.file).params[sc.params_begin + p].kind;
      if (kind == ParamKind::Positional || kind == ParamKind::VarPositional) {
        forwardable_[g] |= 1u << p;
      }
    }
  }
  // A parameter rebound anywhere in its function (or named by a nested `nonlocal`/`global`) is
  // no longer the argument.
  IdVector<ScopeId, uint8_t> gives_back(scopes_.size(), 0);
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (const Stmt& s : ff.stmts) {
      const ScopeId g = gscope(f, s.scope);
      if (s.kind == StmtKind::Nonlocal || s.kind == StmtKind::Global) {
        for (ScopeId p = g; p != kNoScope; p = scopes_[p].parent) {
          const uint32_t i = forwardable_[p] == 0 ? kNone : param_index(f, p, s.str);
          if (i != kNone) forwardable_[p] &= ~(1u << i);
        }
        continue;
      }
      if (forwardable_[g] == 0) continue;
      if (s.kind == StmtKind::Assign) {
        const Scope& sc = ff.scopes[s.scope];
        for (uint32_t p = 0; p < sc.params_count && p < 32; ++p) {
          if (expr_names(ff, s.a, ff.params[sc.params_begin + p].name, 0)) {
            forwardable_[g] &= ~(1u << p);
          }
        }
      } else if (s.kind == StmtKind::Return) {
        const Expr& r = ff.exprs[s.b];
        gives_back[g] |= r.kind == ExprKind::Name || r.kind == ExprKind::Call ? 1 : 0;
      }
    }
  }
  for (const ScopeId g : scopes_.ids()) {
    if (gives_back[g] == 0) forwardable_[g] = 0;
  }
  // Defaults: what a parameter is when the call passes nothing for it (their variables are made
  // by create_default_vars, in this order).
  default_params_.clear();
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (const Stmt& s : ff.stmts) {
      if (s.kind != StmtKind::Assign || ff.exprs[s.a].kind != ExprKind::ScopedName) continue;
      const Expr& t = ff.exprs[s.a];
      const ScopeId g = gscope(f, t.a);
      const uint32_t i = forwardable_[g] == 0 ? kNone : param_index(f, g, t.str);
      if (i == kNone || (forwardable_[g] & (1u << i)) == 0) continue;
      default_params_.push_back({f, g, t.str});
    }
  }
}

void Resolver::create_default_vars() {
  for (const DefaultParam& d : default_params_) {
    const auto [var, inserted] =
        default_vars_.try_emplace(d.function, gs(d.file, d.name), VarId{0});
    if (inserted) *var = new_var();
  }
  std::vector<DefaultParam>().swap(default_params_);
}

bool Resolver::expr_names(const FileFacts& ff, uint32_t e, uint32_t name, int depth) {
  if (depth > 64) return true;
  const Expr& x = ff.exprs[e];
  if (x.kind == ExprKind::Name) return x.str == name;
  if (x.kind == ExprKind::Star) return expr_names(ff, x.a, name, depth + 1);
  if (x.kind == ExprKind::Tuple || x.kind == ExprKind::Container) {
    for (uint32_t i = 0; i < x.list_count; ++i) {
      if (expr_names(ff, ff.lists[x.list_begin + i], name, depth + 1)) return true;
    }
  }
  return false;
}

bool Resolver::calls_name(FileId f, uint32_t w, uint32_t name) const {
  const FileFacts& ff = facts(f);
  for (const Stmt& s : ff.stmts) {
    if (s.scope != w) continue;
    for (uint32_t e : {s.a, s.b}) {
      if (e != kNone && s.kind != StmtKind::Define && s.kind < StmtKind::ImportModule &&
          expr_calls_name(ff, e, name, 0)) {
        return true;
      }
    }
  }
  return false;
}

bool Resolver::expr_calls_name(const FileFacts& ff, uint32_t e, uint32_t name, int depth) {
  if (depth > 64) return false;
  const Expr& x = ff.exprs[e];
  if (x.kind == ExprKind::Call && ff.exprs[x.a].kind == ExprKind::Name &&
      ff.exprs[x.a].str == name) {
    return true;
  }
  const bool a_is_expr = x.kind != ExprKind::Definition && x.kind != ExprKind::ScopedName;
  if (a_is_expr && x.a != kNone && expr_calls_name(ff, x.a, name, depth + 1)) return true;
  for (uint32_t i = 0; i < x.list_count; ++i) {
    if (expr_calls_name(ff, ff.lists[x.list_begin + i], name, depth + 1)) return true;
  }
  return false;
}

void Resolver::index_params() {
  param_summary_.assign(scopes_.size(), {});
  // Each parameter's variable is a lookup at a random place of the scope-variable table: the
  // lines of a scope a few ahead are asked for while this one's are read (as bind_names does).
  constexpr uint32_t kAhead = 4;
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (uint32_t s = 0; s < ff.scopes.size(); ++s) {
      if (s + kAhead < ff.scopes.size()) {
        const Scope& next = ff.scopes[s + kAhead];
        for (uint32_t p = 0; p < next.params_count; ++p) {
          scope_vars_.prefetch(gscope(f, s + kAhead), gs(f, ff.params[next.params_begin + p].name));
        }
      }
      const Scope& sc = ff.scopes[s];
      const ScopeId g = gscope(f, s);
      ParamSummary& summary = param_summary_[g];
      summary.positional_begin = static_cast<uint32_t>(positional_vars_.size());
      for (uint32_t p = 0; p < sc.params_count; ++p) {
        const Param& param = ff.params[sc.params_begin + p];
        const VarId var = find_var(g, gs(f, param.name));
        if (param.kind == ParamKind::Positional) positional_vars_.push_back(var);
        summary.varargs = summary.varargs || param.kind == ParamKind::VarPositional;
        summary.varkw = summary.varkw || param.kind == ParamKind::VarKeyword;
      }
      summary.positional_count =
          static_cast<uint32_t>(positional_vars_.size()) - summary.positional_begin;
    }
  }
}

}  // namespace anchorfs::analysis::python::detail
