// Flow-insensitive points-to resolution over a whole repository's Python facts (PyCG-like).
//
// Abstract values are modules, classes, functions, instances of classes, bound methods, super()
// proxies, container literals and generators. Every name, attribute, parameter, return value and
// container element is a variable holding a set of values; each round evaluates every
// constraint of every file once, until nothing changes or kMaxRounds is reached. Call edges are
// recorded whenever a call's callee set contains a repository function.
#include "analysis/python/resolve.h"

#include <algorithm>

#include "analysis/plain_threads.h"
#include "analysis/python/resolve_resolver.h"
#include "analysis/python/resolve_trace.h"

namespace anchorfs::analysis::python {
namespace detail {

void Resolver::run() {
  resolve_trace("resolve start");
  // Sympy ends with ~0.8 scope variables per statement: sized once, the table is not rehashed
  // seven times on the way (it is only looked up, never walked, so its capacity changes nothing).
  // Filling its 8 MB of empty slots is mostly the kernel zeroing fresh pages (~20 ms on sympy):
  // a helper does it while this thread indexes the files, which never touches the table.
  uint32_t statements = 0;
  for (const ResolverFile& file : input_.files) {
    statements += static_cast<uint32_t>(file.facts->stmts.size());
  }
  analysis::run_beside(
      threads_ > 1, [this] { index_files(); },
      [this, statements] { scope_vars_.reserve(statements); });
  // Sympy ends with ~0.3 variables per expression; the reserve is address space only.
  vars_.reserve(expr_count_ + 4 * scopes_.size(), expr_count_);
  // Sympy's statements read ~8 variables each (~14 bytes); moves need some slack.
  stmt_reads_ = ReadLists(stmt_count_, size_t{32} * stmt_count_);
  // What the tables will likely fill, faulted in beside setup and the first rounds, in the order
  // they fill; each estimate is ~1.2 x what sympy uses (pages past it are faulted as they are
  // reached, pages within it it never reaches cost resident memory only).
  vars_.prefault(prefault_, expr_count_ / 2, expr_count_ / 2);
  calls_.prefault(prefault_);
  stmt_reads_.prefault(prefault_, size_t{12} * stmt_count_);
  if (threads_ > 1) {
    // The copy the late rounds' reader index is built from (the pool ~1.2 x sympy's at that
    // point): faulted in ahead, so that the copy is two block copies on the resolver's thread.
    reads_snapshot_.reserve(stmt_count_, size_t{12} * stmt_count_);
    reads_snapshot_.prefault(prefault_, stmt_count_, size_t{12} * stmt_count_);
  }
  // The pattern scans read only the facts and the scope table and write only their own tables,
  // which the binding passes before the rounds never read (nor do they create a variable or a
  // value): they run on a second thread, the bindings' variables and values are made in the same
  // order as on one.
  analysis::run_beside(
      threads_ > 1,
      [this] {
        bind_names();
        expand_star_imports();
        bind_imports();
        seed_receivers();
        seed_variadic_params();
        order_files();
      },
      [this] {
        find_wrappers();
        find_param_returns();
      });
  create_default_vars();
  index_params();
  resolve_trace("setup done exprs %u stmts %u scopes %zu", expr_count_, stmt_count_,
                scopes_.size());
  stmt_round_.assign(stmt_count_, 0);
  second_round_ = new_var();
  if (base_ != nullptr) {
    first_round_end_.assign(files_.size(), {});
    setup_module_names_.assign(files_.size(), 0);
    for (const FileId f : files_.ids()) {
      setup_module_names_[f] = static_cast<uint32_t>(module_names_[f].size());
    }
  }
  const auto evaluate_round = [this] {
    for (const FileId f : evaluation_order_) evaluate_file(f);
    for (Copy& copy : copies_) apply_copy(copy);
  };
  size_t last_evaluated = stmt_count_;
  for (int round = 0; round < kMaxRounds; ++round) {
    ++round_;
    vars_.start_round();
    changed_ = false;
    full_round_ = round == 0;
    if (round == 1) touch(second_round_);
    // The round after the index was built: from here on a round visits only the readers of what
    // changed, starting with what changed in the round it was built beside.
    if (indexing_ && !readers_.active()) {
      readers_.activate([this](auto&& mark) { vars_.for_each_recently_changed(mark); });
    }
    update_bases();
    if (threads_ > 1 && !indexing_ && round > 0 && last_evaluated * 3 < stmt_count_) {
      // Once a round evaluates under a third of the statements (sympy: round 2), the reader
      // index is built from a copy of the lists on a helper while this round runs.
      stmt_reads_.copy_to(reads_snapshot_);
      indexing_ = true;
      const size_t vars = vars_.size();
      analysis::run_beside(true, evaluate_round, [this, vars] {
        readers_.build(reads_snapshot_, stmt_count_, vars);
        reads_snapshot_.release();
      });
    } else {
      evaluate_round();
    }
    stmt_reads_.compact();
    resolve_trace("round %d full %d evaluated %zu values %zu vars %zu", round, full_round_ ? 1 : 0,
                  evaluated_, values_.size(), vars_.size());
    last_evaluated = evaluated_;
    evaluated_ = 0;
    if (!changed_) {
      quiet_round_ = round;
      break;
    }
  }
  prefault_.finish();
  if (resolve_trace_enabled()) trace_tables();
  release_evaluation_state();
  // The edges read the call sites, the bases, the import variables and the values; the base for
  // refreshes reads the module names' variables (through the scope-variable table), the values
  // and the MROs (whose cache only it fills now), and the lookup tables are freed after it:
  // neither writes what the other reads, so with a second thread they run side by side (sympy:
  // ~15-25 ms of export_base and its fresh pages off the resolver's thread).
  analysis::run_beside(
      threads_ > 1, [this] { emit_edges(); },
      [this] {
        if (base_ != nullptr) export_base();
        release_lookup_state();
      });
}

Set Resolver::call_result_of_params(ScopeId function, ValueId receiver, const Args& args,
                                    int depth) {
  const uint32_t returned = returned_param_[function];
  if (returned == kNone) {
    Set returns = result_of(function, depth);
    if (forwardable_[function] == 0) return returns;
    Set out;
    for (ValueId v : returns) {
      if (values_[v].kind == VK::Param) {
        unite(out, argument_at(function, values_[v].index(), receiver, args));
      } else {
        insert(out, v);
      }
    }
    return out;
  }
  const Set argument = argument_at(function, returned & ~kClassOfParam, receiver, args);
  if ((returned & kClassOfParam) == 0) return argument;
  Set classes;
  for (ValueId v : argument) {
    if (values_[v].kind == VK::Instance) insert(classes, values_.cls(values_[v].scope()));
  }
  return classes;
}

Set Resolver::argument_at(ScopeId function, uint32_t index, ValueId receiver,
                          const Args& args) {
  if (receiver != kNoValue && index == 0) return {receiver};
  const size_t at = receiver != kNoValue ? index - 1 : index;
  if (args.forwarding && at < Args::kMaxForwarded && args.forwarded[at] != Args::kNotForwarded) {
    return {values_.param(args.forwarded[at])};
  }
  if (at < args.positional.size()) return args.positional[at];
  if (args.open_positional) return args.starred;  // `f(*items)`: any of the items
  const ScopeRec& s = scopes_[function];
  const FileFacts& ff = facts(s.file);
  const Scope& sc = ff.scopes[s.local];
  if (index >= sc.params_count) return {};
  const Param& param = ff.params[sc.params_begin + index];
  if (param.kind != ParamKind::Positional) return {};
  const NameId name = gs(s.file, param.name);
  for (const auto& [keyword, values] : args.keywords) {
    if (keyword == name) return values;
  }
  // A `**d` argument may bind the parameter without saying so: every caller's argument.
  if (!args.double_starred.empty()) return read(find_var(function, name));
  const VarId* fallback = default_vars_.find(function, name);
  return fallback == nullptr ? Set{} : read(*fallback);
}

uint32_t Resolver::forwarded_param(const Ctx& ctx, const Expr& x, ParamKind kind) const {
  if (x.kind != ExprKind::Name) return kNone;
  const uint32_t mask = forwardable_[ctx.scope];
  const FileFacts& ff = facts(ctx.file);
  const Scope& sc = ff.scopes[scopes_[ctx.scope].local];
  for (uint32_t p = 0; p < sc.params_count && p < 32; ++p) {
    const Param& param = ff.params[sc.params_begin + p];
    if (param.name != x.str) continue;
    return (mask >> p & 1) != 0 && param.kind == kind ? p : kNone;
  }
  return kNone;
}

Set Resolver::forwarding_return(const Ctx& ctx, uint32_t e) {
  const Expr& x = expr_at(ctx.file, e);
  if (const uint32_t p = forwarded_param(ctx, x, ParamKind::Positional); p != kNone) {
    return {values_.param(p)};
  }
  if (x.kind == ExprKind::Call) return call(ctx, e, x, 0, true);
  return eval(ctx, e, 0);
}

void Resolver::mark_forwarded(const Ctx& ctx, const Expr& call_expr, Args& args) {
  args.forwarding = true;
  size_t at = 0;
  for (uint32_t i = 0; i < call_expr.list_count && at < Args::kMaxForwarded; ++i) {
    const Expr& a = expr_at(ctx.file, list_item(ctx.file, call_expr.list_begin + i));
    if (a.kind == ExprKind::Keyword || a.kind == ExprKind::DoubleStar) continue;
    if (a.kind == ExprKind::Star) {
      // `*args` of the returning function's own *args: its positional arguments past its
      // positional parameters, in order (the parameter's index is their count).
      const uint32_t p = forwarded_param(ctx, expr_at(ctx.file, a.a), ParamKind::VarPositional);
      for (uint32_t next = p; p != kNone && next < 32 && at < Args::kMaxForwarded; ++next) {
        args.forwarded[at++] = static_cast<uint8_t>(next);
      }
      break;  // later positions are unknown
    }
    const uint32_t p = forwarded_param(ctx, a, ParamKind::Positional);
    args.forwarded[at++] = p == kNone ? Args::kNotForwarded : static_cast<uint8_t>(p);
  }
  for (; at < Args::kMaxForwarded; ++at) args.forwarded[at] = Args::kNotForwarded;
}

Set Resolver::returns_for(ScopeId function, ValueId receiver, int depth) {
  Set returns = result_of(function, depth);
  if (forwardable_[function] == 0) return returns;
  Set out;
  for (ValueId v : returns) {
    if (values_[v].kind != VK::Param) {
      insert(out, v);
    } else if (values_[v].index() == 0) {
      insert(out, receiver);
    }
  }
  return out;
}

void Resolver::update_bases() {
  for (const FileId f : files_.ids()) {
    const FileFacts& ff = facts(f);
    for (uint32_t s = 1; s < ff.scopes.size(); ++s) {
      if (ff.scopes[s].kind == ScopeKind::Class) update_class_bases(f, s);
    }
  }
}

void Resolver::update_class_bases(FileId f, uint32_t local) {
  const Scope& sc = facts(f).scopes[local];
  if (sc.bases_count == 0) return;
  const ScopeId g = gscope(f, local);
  const Ctx ctx{f, gscope(f, sc.parent), entity_of(gscope(f, sc.parent))};
  std::vector<uint32_t> bases;
  for (uint32_t i = 0; i < sc.bases_count; ++i) {
    const Set values = eval(ctx, list_item(f, sc.bases_begin + i), 0);
    for (ValueId v : values) {
      if (values_[v].kind != VK::Class || values_[v].scope() == g) continue;
      const uint32_t base = raw(values_[v].scope());
      if (std::find(bases.begin(), bases.end(), base) == bases.end()) bases.push_back(base);
    }
  }
  // Every cached MRO is recomputed when next asked for.
  if (classes_.set_bases(raw(g), std::move(bases))) touch(scope_shape(g));
}

VarId Resolver::class_attribute(ScopeId c, NameId name, size_t skip) {
  const std::vector<uint32_t>& order = mro(c);
  if (skip == 0) {
    ClassLookup& lookup = defining_class(c, name, order);
    if (lookup.noted == round_) return lookup.var;
    lookup.noted = round_;
    note_class_reads(order, name, 0, lookup.at);
    return lookup.var;
  }
  const size_t at = first_binding(order, name, skip);
  note_class_reads(order, name, skip, at);
  return at < order.size() ? find_var(ScopeId{order[at]}, name) : kNoVar;
}

void Resolver::note_class_reads(const std::vector<uint32_t>& order, NameId name, size_t skip,
                                size_t at) {
  for (size_t i = 0; i < skip && i < order.size(); ++i) note_read(scope_shape(ScopeId{order[i]}));
  if ((name_roles_[name] & kStored) != 0) {
    for (const uint32_t cls : order) note_read(attribute_shape(ScopeId{cls}));
  }
  for (size_t i = skip; i < order.size() && i <= at; ++i) {
    note_read(scope_shape(ScopeId{order[i]}));
  }
}

size_t Resolver::first_binding(const std::vector<uint32_t>& order, NameId name, size_t skip) const {
  for (size_t i = skip; i < order.size(); ++i) {
    if (find_var(ScopeId{order[i]}, name) != kNoVar) return i;
  }
  return order.size();
}

Resolver::ClassLookup& Resolver::defining_class(ScopeId c, NameId name,
                                                const std::vector<uint32_t>& order) {
  if (class_cache_epoch_ != classes_.generation() + class_vars_created_) {
    class_cache_epoch_ = classes_.generation() + class_vars_created_;
    defining_class_.clear();
  }
  const auto [lookup, inserted] = defining_class_.try_emplace(c, name, ClassLookup{});
  if (inserted) {
    const size_t at = first_binding(order, name, 0);
    lookup->at = static_cast<uint32_t>(at);
    lookup->var = at < order.size() ? find_var(ScopeId{order[at]}, name) : kNoVar;
  }
  return *lookup;
}

void Resolver::bind_method(ValueId v, ValueId receiver, Set& out, int depth) {
  const Value val = values_[v];
  if (val.kind == VK::Wrapped && depth < kMaxEvalDepth) {
    const Value inner = values_[val.inner()];
    if (inner.kind == VK::Function && (scopes_[inner.scope()].flags & kProperty) != 0) {
      bind_method(val.inner(), receiver, out, depth + 1);
      return;
    }
    Set bound;
    bind_method(val.inner(), receiver, bound, depth + 1);
    for (ValueId b : bound) insert(out, values_.wrapped(val.scope(), b));
    return;
  }
  if (val.kind == VK::Property) {
    // Read on an instance it runs the getter (no edge: a property read is no call).
    if (values_[receiver].kind == VK::Instance) {
      const ArgFrame frame(args_);
      const Args none(frame.storage());
      unite(out, call_result(val.getter(), receiver, none, depth));
    } else {
      insert(out, v);
    }
    return;
  }
  if (val.kind != VK::Function) {
    insert(out, v);
    return;
  }
  const uint8_t flags = scopes_[val.scope()].flags;
  const Value recv = values_[receiver];
  if ((flags & kStaticMethod) != 0) {
    insert(out, v);
  } else if ((flags & kClassMethod) != 0) {
    const ValueId cls = recv.kind == VK::Instance ? values_.cls(recv.scope()) : receiver;
    insert(out, values_.bound(val.scope(), cls));
  } else if ((flags & kProperty) != 0) {
    // Reading a property runs its getter on the instance: a getter giving back `self` or
    // `self.__class__` gives this receiver's. On a class it is the property object.
    if (recv.kind == VK::Instance) {
      const ArgFrame frame(args_);
      const Args none(frame.storage());
      unite(out, call_result(val.scope(), receiver, none, depth));
    }
  } else if (recv.kind == VK::Instance) {
    insert(out, values_.bound(val.scope(), receiver));
  } else {
    insert(out, v);
  }
}

inline bool Resolver::stale(StmtId stmt) const {
  if (full_round_) return true;
  const uint32_t since = stmt_round_[stmt];
  return stmt_reads_.any_of(
      stmt, [&](VarId var) { return vars_.recently_changed(var) && vars_.changed(var) >= since; });
}

inline void Resolver::store_reads(StmtId stmt) {
  // Indexed before the changes this evaluation made mark their readers (at the next take).
  if (indexing_ && !stmt_reads_.equals(stmt, reads_.view())) readers_.add(stmt, reads_.view());
  stmt_reads_.store(stmt, reads_.view());
}

void Resolver::evaluate_file(FileId f) {
  for (uint32_t c : copies_of_file_[f]) apply_copy(copies_[c]);
  const FileFacts& ff = facts(f);
  if (readers_.active()) {
    evaluate_marked(f, ff);
    return;
  }
  uint32_t prefetched = 0;  // expressions below it had their Names' lookups asked for
  for (uint32_t i = 0; i < ff.stmts.size(); ++i) {
    if (full_round_) prefetch_names(f, ff, i + kNamesAhead, prefetched);
    const StmtId stmt = stmt_of(f, i);
    if (!stale(stmt)) continue;
    ++evaluated_;
    reads_.clear();
    // Each evaluation gets a fresh tick: changes stamped before it were already seen.
    stmt_round_[stmt] = ++round_;
    evaluate_statement(f, ff.stmts[i]);
    store_reads(stmt);
  }
  if (full_round_ && base_ != nullptr) {
    first_round_end_[f] = {round_, static_cast<uint32_t>(values_.size())};
  }
}

void Resolver::prefetch_names(FileId f, const FileFacts& ff, size_t i, uint32_t& done) const {
  if (i >= ff.stmts.size()) return;
  const Stmt& s = ff.stmts[i];
  uint32_t last = kNone;
  switch (s.kind) {
    case StmtKind::Assign:
      last = s.a == kNone ? s.b : s.b == kNone ? s.a : std::max(s.a, s.b);
      break;
    case StmtKind::Return:
    case StmtKind::Yield:
    case StmtKind::Evaluate:
      last = s.b;
      break;
    default:
      return;
  }
  if (last == kNone || last < done || last >= ff.exprs.size()) return;
  const ScopeId scope = gscope(f, s.scope);
  for (uint32_t e = done; e <= last; ++e) {
    const Expr& x = ff.exprs[e];
    if (x.kind != ExprKind::Name || expr_slot_[site_of(f, e)] != kNone) continue;
    const NameId name = gs(f, x.str);
    const uint64_t bit = name_bit(name);
    // Every scope the lookup may probe, not only the first whose mask has the bit: a mask lets
    // a few names through wrongly, and the lookup then goes on (cpu-clock samples of
    // lookup_scopes + prefetch_names on sympy: 20 a run this way, 26 stopping at the first).
    for (ScopeId p = scope; p != kNoScope; p = scopes_[p].parent) {
      if (p != scope && scopes_[p].kind == ScopeKind::Class) continue;
      if ((scope_names_[p] & bit) != 0) scope_vars_.prefetch(p, name);
    }
  }
  done = last + 1;
}

void Resolver::evaluate_marked(FileId f, const FileFacts& ff) {
  const uint32_t begin = raw(stmt_of(f, 0));
  const auto end = static_cast<uint32_t>(begin + ff.stmts.size());
  // Only marked statements can be stale; the changes made so far mark their readers before the
  // next one is taken, so the statements tested, in order, are the stale ones a visit of every
  // statement finds (and a few it turns down).
  for (uint32_t s = begin;; ++s) {
    readers_.mark_changed_readers();
    s = readers_.take_next(s, end);
    if (s == end) break;
    const StmtId stmt{s};
    if (!stale(stmt)) continue;
    ++evaluated_;
    reads_.clear();
    stmt_round_[stmt] = ++round_;
    evaluate_statement(f, ff.stmts[s - begin]);
    store_reads(stmt);
  }
}

void Resolver::evaluate_statement(FileId f, const Stmt& s) {
  {
    const ScopeId scope = gscope(f, s.scope);
    const Ctx ctx{f, scope, entity_of(scope)};
    switch (s.kind) {
      case StmtKind::Assign: {
        const Set v = eval(ctx, s.b, 0);
        assign(ctx, s.a, v, 0);
        break;
      }
      case StmtKind::Return:
      case StmtKind::Yield: {
        const bool forwarding = s.kind == StmtKind::Return && forwardable_[scope] != 0;
        const Set v = forwarding ? forwarding_return(ctx, s.b) : eval(ctx, s.b, 0);
        const ScopeKind k = scopes_[scope].kind;
        if (k != ScopeKind::Function && k != ScopeKind::Lambda) break;
        merge(lazy_var(s.kind == StmtKind::Return ? ret_var_ : yield_var_, scope), v);
        break;
      }
      case StmtKind::Evaluate:
        eval(ctx, s.b, 0);
        break;
      case StmtKind::Define:
        define(ctx, s.a);
        break;
      default:
        break;
    }
  }
}

void Resolver::define(const Ctx& ctx, uint32_t local_scope) {
  const FileId f = ctx.file;
  const Scope& sc = facts(f).scopes[local_scope];
  const ScopeId g = gscope(f, local_scope);
  Set current{sc.kind == ScopeKind::Class ? values_.cls(g) : values_.function(g)};
  bool deferred = false;
  // Decorators apply bottom-up; an unresolvable decorator (or one whose result is unknown)
  // leaves the definition itself in place.
  for (uint32_t i = sc.decorators_count; i-- > 0;) {
    const Set decorator = eval(ctx, list_item(f, sc.decorators_begin + i), 0);
    if (decorator.empty()) continue;
    Set result;
    Set general;
    for (ValueId d : decorator) {
      const Value dv = values_[d];
      const ScopeId wrapper = dv.kind == VK::Function ? wrapper_of_[dv.scope()] : kNoScope;
      if (wrapper == kNoScope) {
        general.insert(d);
        continue;
      }
      // A closure-returning decorator: each decorated definition gets its own wrapper value,
      // so the wrapper's call of the wrapped function stays specific to it.
      calls_.direct(ctx.caller, entity_of(dv.scope()));
      for (ValueId v : current) insert(result, values_.wrapped(wrapper, v));
    }
    if (!general.empty()) {
      const ArgFrame frame(args_);
      Args args(frame.storage());
      args.positional.push_back(current);
      const Set applied = call_values(ctx, general, args, kNoSite, 0);
      // A decorator that gives back what it decorates (a registration: `@register`) is not
      // also the inner decorators its own body (or its factory's) defines and returns when
      // called another way (`@register("name")`), nor the decorator itself, nor a module- or
      // class-level definition: those reach its result through what its other callers pass
      // (the closures and parameters it shares between calls). A wrapper closure it may return
      // stays.
      const bool gives_back = std::all_of(current.begin(), current.end(), [&](ValueId v) {
        return std::find(applied.begin(), applied.end(), v) != applied.end();
      });
      const auto foreign = [&](ValueId v) {
        const Value val = values_[v];
        if (val.kind != VK::Function && val.kind != VK::Class) return false;
        const ScopeId parent = scopes_[val.scope()].parent;
        const ScopeKind outer = scopes_[parent].kind;
        if (outer == ScopeKind::Module || outer == ScopeKind::Class) return true;
        return std::any_of(general.begin(), general.end(), [&](ValueId d) {
          const Value dv = values_[d];
          const bool function = dv.kind == VK::Function || dv.kind == VK::Bound;
          return function && (dv.scope() == val.scope() || dv.scope() == parent ||
                              scopes_[dv.scope()].parent == parent);
        });
      };
      // In the first round a registration's result may still lack the returns that give its
      // argument back (defined further down); what is bound now would stay, so the name waits
      // for the second round.
      const bool may_give_back = std::any_of(general.begin(), general.end(), [&](ValueId d) {
        const Value dv = values_[d];
        return (dv.kind == VK::Function || dv.kind == VK::Bound) && forwardable_[dv.scope()] != 0;
      });
      if (full_round_ && !gives_back && may_give_back) defer_to_second_round(deferred);
      for (ValueId v : applied) {
        const bool own = std::find(current.begin(), current.end(), v) != current.end();
        if (!gives_back || own || !foreign(v)) insert(result, v);
      }
    }
    if (!result.empty()) current = std::move(result);
  }
  if (!deferred) merge(find_var(ctx.scope, scopes_[g].name), current);
  if (sc.kind == ScopeKind::Class) update_class_bases(f, local_scope);
}

void Resolver::defer_to_second_round(bool& deferred) {
  note_read(second_round_);
  deferred = true;
  changed_ = true;  // so that there is a second round
}

VarId Resolver::lookup_scopes(const Ctx& ctx, uint32_t e, NameId name) {
  // A Name's slot holds a variable.
  uint32_t& cached = expr_slot_[site_of(ctx.file, e)];
  VarId found = find_var(ctx.scope, name);
  for (ScopeId p = scopes_[ctx.scope].parent; found == kNoVar && p != kNoScope;
       p = scopes_[p].parent) {
    if (scopes_[p].kind == ScopeKind::Class) continue;
    found = find_var(p, name);
  }
  cached = raw(found == kNoVar ? kUnresolved : found);
  return VarId{cached};
}

std::optional<Builtin> Resolver::builtin(NameId name) const {
  if ((name_roles_[name] & kBuiltin) == 0) return std::nullopt;
  for (size_t b = 0; b < builtin_ids_.size(); ++b) {
    if (builtin_ids_[b] == name) return static_cast<Builtin>(b);
  }
  return std::nullopt;
}

Set Resolver::eval(const Ctx& ctx, uint32_t e, int depth) {
  if (e == kNone || depth > kMaxEvalDepth) return {};
  const FileId f = ctx.file;
  const Expr x = expr_at(f, e);
  Set out;
  switch (x.kind) {
    case ExprKind::Opaque:
      for (uint32_t i = 0; i < x.list_count; ++i)
        eval(ctx, list_item(f, x.list_begin + i), depth + 1);
      break;
    case ExprKind::Name: {
      const VarId var = lookup(ctx, e, x.str);
      if (var != kUnresolved) return read(var);
      if (const auto b = builtin(gs(f, x.str))) out.insert(values_.builtin(*b));
      break;
    }
    case ExprKind::ScopedName: {
      const VarId var = find_var(gscope(f, x.a), gs(f, x.str));
      if (var != kNoVar) return read(var);
      break;
    }
    case ExprKind::Attribute: {
      const Set objects = eval(ctx, x.a, depth + 1);
      const NameId name = gs(f, x.str);
      for (ValueId o : objects) attribute(o, name, out, depth);
      break;
    }
    case ExprKind::Call:
      return call(ctx, e, x, depth);
    case ExprKind::Subscript: {
      const Set objects = eval(ctx, x.a, depth + 1);
      for (uint32_t i = 0; i < x.list_count; ++i)
        eval(ctx, list_item(f, x.list_begin + i), depth + 1);
      const LiteralIndex literal = literal_index_of(f, x);
      const NameId key = literal.valid ? kNoName : literal_key_of(f, x);
      for (ValueId o : objects) {
        if (literal.valid && values_[o].kind == VK::Container) {
          literal_subscript(values_[o].site(), literal, site_of(f, e), out);
        } else if (key != kNoName && is_dict_display(o)) {
          keyed_subscript(o, key, out);
        } else {
          subscript(o, out, depth);
        }
      }
      break;
    }
    case ExprKind::Container:
    case ExprKind::Tuple: {
      const SiteId site = site_of(f, e);
      // The literal's value, once its first evaluation has made it.
      uint32_t& made = expr_slot_[site];
      const VarId elements =
          made == kNone ? heap_.elements_var(site) : heap_.elements_of(ValueId{made});
      VarId positions = kNoVar;
      if (x.kind == ExprKind::Tuple) {
        positions = Heap::positions_of(elements);
        if (made == kNone) {
          for (uint32_t i = 0; i < x.list_count; ++i) new_var();
        }
      }
      // A dict display of pairs alternates keys and values: a value under a literal key is kept
      // under that key too. Its keys are no elements (a subscript or get() gives values only);
      // they are kept apart for iteration.
      const bool pairs = x.kind == ExprKind::Container && x.str != kNone;
      if (pairs && made == kNone) create_display_keys(f, x, site);
      for (uint32_t i = 0; i < x.list_count; ++i) {
        const uint32_t item = list_item(f, x.list_begin + i);
        const Set v = eval(ctx, item, depth + 1);
        if (v.empty()) continue;
        if (pairs && i % 2 == 0) {
          if (const VarId keys = heap_.display_keys(site); keys != kNoVar) merge(keys, v);
          continue;
        }
        merge(elements, v);
        if (positions != kNoVar) merge(Heap::position(positions, i), v);
        if (pairs && i % 2 == 1) {
          const Expr& k = expr_at(f, list_item(f, x.list_begin + i - 1));
          if (k.kind == ExprKind::Opaque && k.str != kNone)
            merge(heap_.key_var(site, gs(f, k.str)), v);
        }
      }
      if (made == kNone) made = raw(values_.container(site));
      out.insert(ValueId{made});
      break;
    }
    case ExprKind::Alternatives:
      eval(ctx, x.a, depth + 1);
      for (uint32_t i = 0; i < x.list_count; ++i) {
        unite(out, eval(ctx, list_item(f, x.list_begin + i), depth + 1));
      }
      break;
    case ExprKind::Definition:
      out.insert(values_.function(gscope(f, x.a)));
      break;
    case ExprKind::Keyword:
      return eval(ctx, x.a, depth + 1);
    case ExprKind::Star:
      for (ValueId v : eval(ctx, x.a, depth + 1)) iterate(v, out, depth);
      break;
    case ExprKind::Iterate:
      for (ValueId v : eval(ctx, x.a, depth + 1)) {
        iterate(v, out, depth);
        if (values_[v].kind == VK::Instance)
          record_iteration(ctx, values_[v].scope(), site_of(f, e));
      }
      break;
    case ExprKind::DoubleStar:
      for (ValueId v : eval(ctx, x.a, depth + 1)) subscript(v, out, depth);
      break;
    case ExprKind::Enter:
      for (ValueId v : eval(ctx, x.a, depth + 1)) enter(v, out, depth);
      break;
    case ExprKind::Caught:
      for (ValueId v : eval(ctx, x.a, depth + 1)) caught(v, out);
      break;
  }
  return out;
}

void Resolver::attribute(ValueId o, NameId name, Set& out, int depth) {
  const Value obj = values_[o];
  switch (obj.kind) {
    case VK::Module: {
      const FileId file = file_of(obj.module());
      if (file != kNoFile) {
        read_attribute_shape(module_scope(file), name);
        const VarId var = find_var(module_scope(file), name);
        if (var != kNoVar) read_into(out, var);
      }
      if (const auto sub = modules_.submodule(raw(obj.module()), strings_.by_id()[name])) {
        insert(out, values_.module(ModuleId{*sub}));
      }
      break;
    }
    case VK::Class: {
      if (name == s_class_) break;
      const VarId var = class_attribute(obj.scope(), name);
      if (var == kNoVar) break;
      const Set found = read(var);
      for (ValueId v : found) bind_method(v, o, out, depth);
      break;
    }
    case VK::Instance: {
      if (name == s_class_) {
        insert(out, values_.cls(obj.scope()));
        break;
      }
      // Instance attributes of every class on the MRO add up (no shadowing), so a missing
      // one is created empty and read: a later store changes exactly that variable.
      const std::vector<uint32_t>& order = mro(obj.scope());
      const VarId* const vars = instance_vars(obj.scope(), name, order);
      for (size_t i = 0; i < order.size(); ++i) read_into(out, vars[i]);
      const VarId var = class_attribute(obj.scope(), name);
      if (var == kNoVar) break;
      const Set found = read(var);
      for (ValueId v : found) bind_method(v, o, out, depth);
      break;
    }
    case VK::Super: {
      VarId var = kNoVar;
      const Value recv = values_[obj.receiver()];
      if (recv.kind == VK::Instance || recv.kind == VK::Class) {
        const std::vector<uint32_t>& order = mro(recv.scope());
        const auto at = std::find(order.begin(), order.end(), raw(obj.scope()));
        if (at != order.end()) {
          var = class_attribute(recv.scope(), name, static_cast<size_t>(at - order.begin()) + 1);
        }
      }
      if (var == kNoVar) var = class_attribute(obj.scope(), name, 1);
      if (var == kNoVar) break;
      const Set found = read(var);
      for (ValueId v : found) bind_method(v, obj.receiver(), out, depth);
      break;
    }
    case VK::Function: {
      note_read(object_shape(o));
      if (const VarId* var = object_vars_.find(o, name)) read_into(out, *var);
      break;
    }
    default:
      break;
  }
}

Set Resolver::implicit(ScopeId instance_class, NameId method, int depth) {
  Set out;
  const VarId var = class_attribute(instance_class, method);
  if (var == kNoVar) return out;
  const Set found = read(var);
  for (ValueId v : found) {
    if (values_[v].kind == VK::Function) {
      unite(out, returns_for(values_[v].scope(), values_.instance(instance_class), depth));
    }
  }
  return out;
}

void Resolver::iterate(ValueId v, Set& out, int depth) {
  const Value val = values_[v];
  switch (val.kind) {
    case VK::Container:
      read_into(out, heap_.elements_of(v));
      if (const VarId keys = heap_.display_keys(val.site()); keys != kNoVar) read_into(out, keys);
      break;
    case VK::Generator:
      read_into(out, lazy_var(yield_var_, val.scope()));
      break;
    case VK::Instance:
      if (depth > 2) break;
      for (ValueId it : implicit(val.scope(), s_iter_, depth)) {
        const Value iv = values_[it];
        if (iv.kind == VK::Instance) {
          unite(out, implicit(iv.scope(), s_next_, depth));
        } else {
          iterate(it, out, depth + 1);
        }
      }
      break;
    default:
      break;
  }
}

void Resolver::subscript(ValueId v, Set& out, int depth) {
  const Value val = values_[v];
  if (val.kind == VK::Container) {
    read_into(out, heap_.elements_of(v));
  } else if (val.kind == VK::Instance) {
    unite(out, implicit(val.scope(), s_getitem_, depth));
  } else if (val.kind == VK::Class) {
    insert(out, v);  // Generic[...] aliases stand for the class
  }
}

void Resolver::enter(ValueId v, Set& out, int depth) {
  const Value val = values_[v];
  if (val.kind == VK::Instance) {
    unite(out, implicit(val.scope(), s_enter_, depth));
  } else if (val.kind == VK::Generator) {
    read_into(out, lazy_var(yield_var_, val.scope()));  // a @contextmanager generator
  }
}

void Resolver::caught(ValueId v, Set& out) {
  const Value val = values_[v];
  if (val.kind == VK::Class) {
    insert(out, values_.instance(val.scope()));
  } else if (val.kind == VK::Container) {
    const Set elements = read(heap_.elements_of(v));
    for (ValueId c : elements) {
      if (values_[c].kind == VK::Class) insert(out, values_.instance(values_[c].scope()));
    }
  }
}

void Resolver::assign(const Ctx& ctx, uint32_t target, const Set& v, int depth) {
  if (depth > kMaxEvalDepth) return;
  const FileId f = ctx.file;
  const Expr x = expr_at(f, target);
  switch (x.kind) {
    case ExprKind::Name: {
      const VarId var = lookup(ctx, target, x.str);
      if (var != kUnresolved) merge(var, v);
      break;
    }
    case ExprKind::ScopedName: {
      const VarId var = find_var(gscope(f, x.a), gs(f, x.str));
      if (var != kNoVar) merge(var, v);
      if (const VarId* d = default_vars_.find(gscope(f, x.a), gs(f, x.str))) merge(*d, v);
      break;
    }
    case ExprKind::Attribute: {
      const Set objects = eval(ctx, x.a, depth + 1);
      const NameId name = gs(f, x.str);
      for (ValueId o : objects) store_attribute(o, name, v);
      break;
    }
    case ExprKind::Subscript: {
      const Set objects = eval(ctx, x.a, depth + 1);
      for (uint32_t i = 0; i < x.list_count; ++i)
        eval(ctx, list_item(f, x.list_begin + i), depth + 1);
      const LiteralIndex literal = literal_index_of(f, x);
      const NameId key = literal.valid ? kNoName : literal_key_of(f, x);
      Set stored = v;
      if (literal.slice) {  // `ls[i:j] = items` stores the items' elements
        stored.clear();
        for (ValueId c : v) iterate(c, stored, depth);
      }
      for (ValueId o : objects) {
        if (values_[o].kind != VK::Container) continue;
        merge(heap_.elements_of(o), stored);
        if (literal.valid && !literal.slice) store_literal_index(o, literal, stored);
        if (key != kNoName && is_dict_display(o))
          merge(heap_.key_var(values_[o].site(), key), stored);
      }
      break;
    }
    case ExprKind::Tuple:
    case ExprKind::Container:
      unpack(ctx, x, v, depth);
      break;
    case ExprKind::Star:
      assign(ctx, x.a, v, depth + 1);
      break;
    default:
      break;
  }
}

void Resolver::unpack(const Ctx& ctx, const Expr& pattern, const Set& v, int depth) {
  const FileId f = ctx.file;
  bool starred = false;
  for (uint32_t i = 0; i < pattern.list_count; ++i) {
    if (expr_at(f, list_item(f, pattern.list_begin + i)).kind == ExprKind::Star) starred = true;
  }
  // Element-wise for a literal of the same length; otherwise every target may get any element.
  std::vector<Set> per_target(pattern.list_count);
  for (ValueId c : v) {
    const Value val = values_[c];
    bool matched = false;
    if (val.kind == VK::Container && !starred) {
      const Expr* literal = container_literal(val.site());
      if (literal != nullptr && literal->kind == ExprKind::Tuple &&
          literal->list_count == pattern.list_count) {
        const VarId positions = Heap::positions_of(heap_.elements_of(c));
        for (uint32_t i = 0; i < pattern.list_count; ++i) {
          read_into(per_target[i], Heap::position(positions, i));
        }
        matched = true;
      } else if (literal != nullptr && literal->kind == ExprKind::Container &&
                 literal->str != kNone && pattern.list_count == 2) {
        // A dict display unpacked in two is an items() pair: a key, then a value.
        if (const VarId keys = heap_.display_keys(val.site()); keys != kNoVar) {
          read_into(per_target[0], keys);
        }
        read_into(per_target[1], heap_.elements_of(c));
        matched = true;
      }
    }
    if (!matched) {
      Set elements;
      iterate(c, elements, depth);
      for (uint32_t i = 0; i < pattern.list_count; ++i) unite(per_target[i], elements);
    }
  }
  for (uint32_t i = 0; i < pattern.list_count; ++i) {
    const uint32_t t = list_item(f, pattern.list_begin + i);
    if (expr_at(f, t).kind == ExprKind::Star) {
      assign(ctx, expr_at(f, t).a, v, depth + 1);
    } else {
      assign(ctx, t, per_target[i], depth + 1);
    }
  }
}

const Expr* Resolver::container_literal(SiteId site) const {
  const auto it = std::upper_bound(files_.begin(), files_.end(), raw(site),
                                   [](uint32_t s, const FileRec& r) { return s < r.expr_base; });
  if (it == files_.begin()) return nullptr;
  const FileRec& rec = *(it - 1);
  const uint32_t local = raw(site) - rec.expr_base;
  if (local >= rec.facts->exprs.size()) return nullptr;
  return &rec.facts->exprs[local];
}

void Resolver::store_attribute(ValueId o, NameId name, const Set& v) {
  const Value obj = values_[o];
  switch (obj.kind) {
    case VK::Module: {
      const FileId file = file_of(obj.module());
      if (file != kNoFile) merge(scope_var(module_scope(file), name), v);
      break;
    }
    case VK::Class:
      merge(scope_var(obj.scope(), name), v);
      break;
    case VK::Instance:
      merge(instance_var(o, name), v);
      break;
    case VK::Function:
      merge(object_var(o, name), v);
      break;
    default:
      break;
  }
}

void Resolver::evaluate_args(const Ctx& ctx, const Expr& call_expr, int depth, Args& args) {
  const FileId f = ctx.file;
  for (uint32_t i = 0; i < call_expr.list_count; ++i) {
    const uint32_t a = list_item(f, call_expr.list_begin + i);
    const Expr& ax = expr_at(f, a);
    if (ax.kind == ExprKind::Keyword) {
      args.keywords.emplace_back(gs(f, ax.str), eval(ctx, ax.a, depth + 1));
    } else if (ax.kind == ExprKind::Star || ax.kind == ExprKind::DoubleStar) {
      const Set v = eval(ctx, ax.a, depth + 1);
      for (ValueId c : v) {
        if (ax.kind == ExprKind::Star) {
          iterate(c, args.starred, depth);
        } else {
          subscript(c, args.double_starred, depth);
        }
      }
      if (ax.kind == ExprKind::Star) args.open_positional = true;
    } else if (args.open_positional) {
      eval(ctx, a, depth + 1);
    } else {
      args.positional.push_back(eval(ctx, a, depth + 1));
    }
  }
}

Set Resolver::call(const Ctx& ctx, uint32_t e, const Expr& x, int depth, bool forward) {
  const FileId f = ctx.file;
  const Set callees = eval(ctx, x.a, depth + 1);
  const ArgFrame frame(args_);
  Args args(frame.storage());
  evaluate_args(ctx, x, depth, args);
  if (forward) mark_forwarded(ctx, x, args);
  const SiteId site = site_of(f, e);
  Set out = call_values(ctx, callees, args, site, depth);
  // Methods of container literals move values in and out of their elements.
  const Expr& callee = expr_at(f, x.a);
  if (callee.kind == ExprKind::Attribute) {
    const NameId method = gs(f, callee.str);
    if (method == s_sort_) sort_method(ctx, eval(ctx, callee.a, depth + 1), args, site, depth);
    if ((name_roles_[method] & kContainerMethod) != 0) {
      const Set objects = eval(ctx, callee.a, depth + 1);
      for (ValueId o : objects) {
        if (values_[o].kind != VK::Container) continue;
        container_method(values_[o].site(), o, method, args, out, depth);
      }
    }
  }
  return out;
}

void Resolver::container_method(SiteId site, ValueId container, NameId method, const Args& args,
                                Set& out, int depth) {
  const VarId elements = heap_.elements_of(container);
  const auto& pos = args.positional;
  const uint8_t roles = name_roles_[method];
  if ((roles & kAdd) != 0 && !pos.empty()) merge(elements, pos[0]);
  if ((roles & kInsert) != 0 && pos.size() >= 2) merge(elements, pos[1]);
  if ((roles & kExtend) != 0 && !pos.empty()) {
    Set items;
    for (ValueId v : pos[0]) iterate(v, items, depth);
    merge(elements, items);
  }
  if ((roles & kGet) != 0) read_into(out, elements);
  if ((roles & kView) != 0 && method != s_items_) insert(out, container);
  if (method == s_items_) {
    // items() iterates as pairs: a view whose elements are the dict itself, so unpacking an
    // element (`for k, v in d.items()`) gives any key or value.
    const SiteId view = heap_.items_site(site);
    merge(heap_.elements_var(view), {container});
    insert(out, values_.container(view));
  }
}

void Resolver::flow_arguments(ScopeId function, ValueId receiver, const Args& args) {
  const ScopeRec& s = scopes_[function];
  const FileFacts& ff = facts(s.file);
  const Scope& sc = ff.scopes[s.local];
  const ParamSummary& summary = param_summary_[function];
  const VarId* const positional_params = positional_vars_.data() + summary.positional_begin;
  const size_t positional_count = summary.positional_count;
  const bool has_varargs = summary.varargs, has_varkw = summary.varkw;
  size_t next_positional = 0;
  // The receiver flows into `self` (so `self.m()` reaches the overrides of the instances that
  // really get there); `self` keeps its seed when that widens it (see merge).
  if (receiver != kNoValue) {
    if (positional_count == 0) return;
    merge(positional_params[0], {receiver});
    next_positional = 1;
  }
  for (const Set& a : args.positional) {
    if (next_positional < positional_count) {
      merge(positional_params[next_positional++], a);
    } else if (has_varargs) {
      merge(heap_.elements_var(heap_.varargs_site(function)), a);
    }
  }
  if (has_varargs && !args.starred.empty()) {
    merge(heap_.elements_var(heap_.varargs_site(function)), args.starred);
  }
  for (const auto& [name, values] : args.keywords) {
    bool matched = false;
    for (uint32_t p = 0; p < sc.params_count; ++p) {
      const Param& param = ff.params[sc.params_begin + p];
      if (gs(s.file, param.name) != name) continue;
      if (param.kind != ParamKind::Positional && param.kind != ParamKind::KeywordOnly) continue;
      merge(find_var(function, name), values);
      matched = true;
    }
    if (!matched && has_varkw) merge(heap_.elements_var(heap_.varkw_site(function)), values);
  }
  if (!args.double_starred.empty()) {
    // `f(**d)`: any value of d may bind any parameter that a keyword could name.
    for (uint32_t p = 0; p < sc.params_count; ++p) {
      const Param& param = ff.params[sc.params_begin + p];
      const bool nameable = param.kind == ParamKind::KeywordOnly ||
                            (param.kind == ParamKind::Positional && p >= next_positional);
      if (nameable) merge(find_var(function, gs(s.file, param.name)), args.double_starred);
    }
    if (has_varkw) merge(heap_.elements_var(heap_.varkw_site(function)), args.double_starred);
  }
}

Set Resolver::call_values(const Ctx& ctx, const Set& callees, const Args& args, SiteId site,
                          int depth) {
  Set out;
  for (ValueId c : callees) {
    const Value v = values_[c];
    switch (v.kind) {
      case VK::Function:
        record_call(ctx, v.scope(), site);
        flow_arguments(v.scope(), kNoValue, args);
        unite(out, call_result(v.scope(), kNoValue, args, depth));
        break;
      case VK::Bound:
        record_call(ctx, v.scope(), site);
        flow_arguments(v.scope(), v.receiver(), args);
        unite(out, call_result(v.scope(), v.receiver(), args, depth));
        break;
      case VK::Class: {
        const ValueId instance = values_.instance(v.scope());
        const VarId init = class_attribute(v.scope(), s_init_);
        bool called_init = false;
        if (init != kNoVar) {
          const Set found = read(init);
          for (ValueId m : found) {
            if (values_[m].kind != VK::Function) continue;
            record_call(ctx, values_[m].scope(), site);
            flow_arguments(values_[m].scope(), instance, args);
            called_init = true;
          }
        }
        if (!called_init) record_call(ctx, v.scope(), site);
        insert(out, instance);
        break;
      }
      case VK::Instance: {
        const VarId var = class_attribute(v.scope(), s_call_);
        if (var == kNoVar) break;
        const Set found = read(var);
        for (ValueId m : found) {
          if (values_[m].kind != VK::Function) continue;
          record_call(ctx, values_[m].scope(), site);
          flow_arguments(values_[m].scope(), c, args);
          unite(out, call_result(values_[m].scope(), c, args, depth));
        }
        break;
      }
      case VK::Wrapped: {
        record_call(ctx, v.scope(), site);
        if (depth > kMaxEvalDepth) break;
        const Ctx inner{scopes_[v.scope()].file, v.scope(), entity_of(v.scope())};
        unite(out, call_values(inner, {v.inner()}, args, kNoSite, depth + 1));
        break;
      }
      case VK::Builtin:
        call_builtin(ctx, v.builtin(), args, site, out, depth);
        break;
      default:
        break;
    }
  }
  return out;
}

std::optional<Resolver::EnclosingMethod> Resolver::enclosing_method(ScopeId scope) const {
  for (ScopeId s = scope; s != kNoScope; s = scopes_[s].parent) {
    const ScopeId p = scopes_[s].parent;
    if (scopes_[s].kind == ScopeKind::Function && p != kNoScope &&
        scopes_[p].kind == ScopeKind::Class) {
      const bool on_class = (scopes_[s].flags & kClassMethod) != 0 || scopes_[s].name == s_new_;
      return EnclosingMethod{s, p, on_class};
    }
  }
  return std::nullopt;
}

void Resolver::call_builtin(const Ctx& ctx, Builtin b, const Args& args, SiteId site, Set& out,
                            int depth) {
  const auto& pos = args.positional;
  switch (b) {
    case Builtin::Super: {
      if (!pos.empty()) {
        for (ValueId c : pos[0]) {
          if (values_[c].kind != VK::Class) continue;
          ValueId receiver = values_.instance(values_[c].scope());
          if (pos.size() > 1) {
            for (ValueId r : pos[1]) {
              if (values_[r].kind == VK::Class) receiver = r;
            }
          }
          insert(out, values_.super(values_[c].scope(), receiver));
        }
      } else if (const auto m = enclosing_method(ctx.scope)) {
        // super() continues the MRO of the receiver's class after the defining class.
        const VarId self = first_positional_param(m->function);
        if (self != kNoVar) {
          for (ValueId r : read(self)) {
            const VK k = values_[r].kind;
            if (k == VK::Instance || k == VK::Class) insert(out, values_.super(m->cls, r));
          }
        }
        if (out.empty()) {
          const ValueId receiver = m->on_class ? values_.cls(m->cls) : values_.instance(m->cls);
          insert(out, values_.super(m->cls, receiver));
        }
      }
      break;
    }
    case Builtin::StaticMethod:
    case Builtin::ClassMethod:
      if (!pos.empty()) unite(out, pos[0]);
      break;
    case Builtin::Property:
      // `property(getter)` where the getter is no @property definition (a decorator returning
      // `property(accessor)`, `x = property(get_x)`): a property object, whose reads run the
      // getter and which is no callable itself.
      if (!pos.empty()) {
        for (ValueId v : pos[0]) {
          const Value getter = values_[v];
          const bool plain =
              getter.kind == VK::Function && (scopes_[getter.scope()].flags & kProperty) == 0;
          insert(out, plain ? values_.property(getter.scope()) : v);
        }
      }
      break;
    case Builtin::Next:
      if (!pos.empty()) {
        for (ValueId v : pos[0]) iterate(v, out, depth);
      }
      break;
    case Builtin::Map:
      call_map(ctx, args, site, out, depth);
      break;
    case Builtin::Filter:
    case Builtin::Min:
    case Builtin::Max:
      call_filter_min_max(ctx, b, args, site, out, depth);
      break;
    case Builtin::Iter:
    case Builtin::List:
    case Builtin::Tuple:
    case Builtin::Set:
    case Builtin::FrozenSet:
    case Builtin::Sorted:
    case Builtin::Reversed: {
      if (pos.empty() || site == kNoSite) break;
      Set items;
      for (ValueId v : pos[0]) iterate(v, items, depth);
      if (b == Builtin::Sorted) call_key(ctx, args, items, site, depth);
      merge(heap_.elements_var(site), items);
      insert(out, values_.container(site));
      break;
    }
    case Builtin::Type:
      if (pos.size() == 1) {
        for (ValueId v : pos[0]) {
          if (values_[v].kind == VK::Instance) insert(out, values_.cls(values_[v].scope()));
        }
      }
      break;
    case Builtin::kCount:
      break;
  }
}

}  // namespace detail

int resolve(const ResolverInput& input, const ImportTable& imports, std::vector<Edge>& edges,
            ResolutionBase* base, size_t threads) {
  detail::Resolver resolver(input, imports, edges, base, threads);
  resolver.run();
  return resolver.quiet_round();
}

}  // namespace anchorfs::analysis::python
