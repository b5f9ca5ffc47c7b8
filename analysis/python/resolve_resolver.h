// The resolver: the coordinator of the fixed point, its state and its small operations, shared
// by the resolve*.cpp that implement it.
//
// Concepts with files of their own: ids (resolve_ids.h), abstract values (resolve_values.h), the
// heap of allocation sites (resolve_heap.h), value sets and variables (resolve_value_set.h,
// resolve_var_sets.h), call sites and arguments (resolve_call_sites.h), the class hierarchy
// (class_hierarchy.h). resolve.cpp: the rounds and
// the evaluation of constraints; resolve_setup.cpp: indexing, binding, imports and the
// setup-time analyses; resolve_semantics.cpp: protocols, callbacks and literal indexes;
// resolve_output.cpp: the edges and debug output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/graph.h"
#include "analysis/python/class_hierarchy.h"
#include "analysis/python/facts.h"
#include "analysis/python/imports.h"
#include "analysis/python/literal_index.h"
#include "analysis/python/modules.h"
#include "analysis/python/resolve_call_sites.h"
#include "analysis/python/resolve_flat_map.h"
#include "analysis/python/resolve_names.h"
#include "analysis/python/resolve_heap.h"
#include "analysis/python/resolve_ids.h"
#include "analysis/python/resolve.h"
#include "analysis/python/resolve_read_lists.h"
#include "analysis/python/resolve_readers.h"
#include "analysis/python/resolve_value_set.h"
#include "analysis/python/resolve_values.h"
#include "analysis/python/resolve_var_sets.h"

namespace anchorfs::analysis::python::detail {

// Expression nesting the evaluator follows (facts are bounded by the extractor already).
inline constexpr int kMaxEvalDepth = 500;
inline constexpr VarId kUnresolved = VarId{UINT32_MAX - 1};  // a Name bound nowhere

using Set = ValueSet;

struct ScopeRec {
  FileId file = FileId{0};
  uint32_t local = 0;  // the scope's number in its file's facts
  ScopeId parent = kNoScope;
  ScopeKind kind = ScopeKind::Module;
  uint8_t flags = 0;
  NameId name = kNoName;
};

// Where a file's local ids start among the global ones.
struct FileRec {
  const FileFacts* facts = nullptr;
  EntityIndex entity = kNoEntity;
  uint32_t scope_base = 0, expr_base = 0, str_base = 0, stmt_base = 0;
};

struct Ctx {
  FileId file;
  ScopeId scope;
  EntityIndex caller;
};

inline void insert(Set& s, ValueId v) {
  s.insert(v);
}
inline void unite(Set& dst, const Set& src) {
  dst.unite(src);
}

class Resolver {
 public:
  Resolver(const ResolverInput& input, const ImportTable& imports, std::vector<Edge>& edges,
           ResolutionBase* base, size_t threads)
      : input_(input),
        out_(edges),
        modules_(imports.modules()),
        imports_(imports),
        base_(base),
        threads_(threads),
        prefault_(threads > 1) {}

  void run();

  // The first round that changed nothing (kMaxRounds when every round changed something).
  int quiet_round() const { return quiet_round_; }

  // What only the rounds need goes before the edges are built, so that building them does not
  // raise the peak (and reuses the freed memory rather than fresh pages).
  void release_evaluation_state();
  // What the rounds and export_base need (the scope-variable table, its name masks, the MROs):
  // after export_base, which may run beside the edges.
  void release_lookup_state();

  // Debug trace only: set sizes, table sizes and the largest tables' capacity in MB.
  void trace_tables() const;

 private:
  // ---- indexing -----------------------------------------------------------------------------

  NameId global_string(std::string_view s);

  void index_files();

  const FileFacts& facts(FileId f) const { return *files_[f].facts; }
  // Global ids of a file's local string, scope, expression and statement numbers.
  NameId gs(FileId f, uint32_t local_str) const { return gstr_[files_[f].str_base + local_str]; }
  ScopeId gscope(FileId f, uint32_t local) const { return ScopeId{files_[f].scope_base + local}; }
  SiteId site_of(FileId f, uint32_t e) const { return SiteId{files_[f].expr_base + e}; }
  StmtId stmt_of(FileId f, uint32_t i) const { return StmtId{files_[f].stmt_base + i}; }
  const Expr& expr_at(FileId f, uint32_t e) const { return facts(f).exprs[e]; }
  uint32_t list_item(FileId f, uint32_t i) const { return facts(f).lists[i]; }
  EntityIndex entity_of(ScopeId g) const {
    return files_[scopes_[g].file].entity + scopes_[g].local;
  }
  ScopeId module_scope(FileId f) const { return ScopeId{files_[f].scope_base}; }
  // The file of a module, kNoFile for a namespace package.
  FileId file_of(ModuleId m) const { return FileId{modules_.modules()[raw(m)].file}; }

  // Every read of a variable during a statement's evaluation is recorded: the statement is
  // evaluated again only when one of them changed (or the structure did).
  // A variable is listed once per evaluation (see VarSets::read_tick).
  Set read(VarId var) {
    note_read(var);
    return vars_.get(var);
  }
  // unite(out, read(var)): the same read and the same union, without copying the set out first.
  void read_into(Set& out, VarId var) {
    note_read(var);
    vars_.unite_into(out, var);
  }
  // A read whose values do not matter (shape pseudo-variables): only the dependency counts.
  void note_read(VarId var) {
    uint32_t& tick = vars_.read_tick(var);
    if (tick != round_) {
      tick = round_;
      reads_.push(var);
    }
  }

  VarId new_var() { return vars_.add(); }

  // A variable that would hold more than kMaxSet values is widened to "unknown": it is emptied
  // and never grows again. That loses edges through it rather than reporting wrong ones, and
  // stops imprecision from spreading (and costing time) through the rest of the program.
  bool merge(VarId var, const Set& src) {
    if (var == kNoVar || var == kUnresolved || src.empty() || vars_.poisoned(var)) return false;
    if (vars_.contains_all(var, src)) return false;
    return merge_new(var, src);
  }
  // The rest of merge, when `src` brings a value the variable lacks: out of line, so that the
  // common merge that brings nothing needs no registers saved.
  [[gnu::noinline]] bool merge_new(VarId var, const Set& src) {
    Set dst = vars_.get(var);
    const size_t before = dst.size();
    unite(dst, src);
    if (dst.size() >= kMaxSet) {
      vars_.poison(var);
      dst.clear();
      if (const auto seed = receiver_seed_.find(var); seed != receiver_seed_.end()) {
        dst.insert(seed->second);
      }
    } else if (dst.size() == before) {
      return false;
    }
    vars_.set(var, dst);
    changed_ = true;
    vars_.mark_changed(var, round_);
    readers_.changed(var);
    return true;
  }

  VarId find_var(ScopeId scope, NameId name) const {
    // Most misses (a function's lookup of a module or builtin name) end at the scope's mask,
    // which is small enough to stay cached, instead of at a slot of the 8 MB table.
    if ((scope_names_[scope] & name_bit(name)) == 0) return kNoVar;
    const VarId* var = scope_vars_.find(scope, name);
    return var == nullptr ? kNoVar : *var;
  }

  // The bit `name` sets in the mask of each scope with a variable of that name.
  static uint64_t name_bit(NameId name) { return uint64_t{1} << (raw(name) & 63); }

  // The variable is created before the entry (new variables are numbered as they always were:
  // the attribute shape first).
  VarId scope_var(ScopeId scope, NameId name) {
    if (const VarId var = find_var(scope, name); var != kNoVar) return var;
    touch(attribute_shape(scope));
    const VarId var = new_var();
    scope_vars_.try_emplace(scope, name, var);
    scope_names_[scope] |= name_bit(name);
    if (scopes_[scope].kind == ScopeKind::Class) ++class_vars_created_;
    if (scopes_[scope].kind == ScopeKind::Module) {
      module_names_[scopes_[scope].file].push_back(name);
    }
    return var;
  }

  // `name` in `scope` stands for another scope's variable (global and nonlocal declarations).
  void alias_var(ScopeId scope, NameId name, VarId var) {
    scope_vars_.set(scope, name, var);
    scope_names_[scope] |= name_bit(name);
    if (scopes_[scope].kind == ScopeKind::Class) ++class_vars_created_;
  }

  // The class hierarchy holds class scopes as plain numbers (it is a pure structure of its own).
  const std::vector<uint32_t>& mro(ScopeId cls) { return classes_.mro(raw(cls)); }

  // The instance variables `name` along `order`, the MRO of class `c`, created as needed:
  // remembered per (class, name) until an MRO changes, instead of a hash lookup per class on
  // every attribute evaluation.
  const VarId* instance_vars(ScopeId c, NameId name, const std::vector<uint32_t>& order) {
    if (instance_vars_generation_ != classes_.generation()) {
      instance_vars_generation_ = classes_.generation();
      instance_vars_of_.clear();
      instance_vars_pool_.clear();
    }
    const auto [begin, inserted] =
        instance_vars_of_.try_emplace(c, name, static_cast<uint32_t>(instance_vars_pool_.size()));
    if (inserted) {
      for (uint32_t k : order) {
        instance_vars_pool_.push_back(instance_var(values_.instance(ScopeId{k}), name));
      }
    }
    return instance_vars_pool_.data() + *begin;
  }

  VarId instance_var(ValueId instance, NameId name) {
    const auto [var, inserted] = object_vars_.try_emplace(instance, name, VarId{0});
    if (inserted) *var = new_var();
    return *var;
  }

  VarId object_var(ValueId object_value, NameId name) {
    if (const VarId* var = object_vars_.find(object_value, name)) return *var;
    touch(object_shape(object_value));
    const VarId var = new_var();
    object_vars_.try_emplace(object_value, name, var);
    return var;
  }

  // A pseudo-variable per class, module or object standing for the set of attributes it has:
  // looking attributes up reads it, creating one touches it (so failed lookups are retried).
  VarId scope_shape(ScopeId scope) { return lazy_var(scope_shape_, scope); }
  // Touched when a class or module gains an attribute after setup. Only lookups of names that
  // some attribute store in the repository spells can ever see such a change, so only those
  // read it (a store to `Printable.__module__` must not re-run every lookup on every subclass).
  VarId attribute_shape(ScopeId scope) { return lazy_var(attribute_shape_, scope); }
  void read_attribute_shape(ScopeId scope, NameId name) {
    if ((name_roles_[name] & kStored) != 0) note_read(attribute_shape(scope));
  }
  VarId object_shape(ValueId object_value) {
    const auto [var, inserted] = object_shapes_.try_emplace(object_value, VarId{0});
    if (inserted) *var = new_var();
    return *var;
  }
  void touch(VarId var) {
    vars_.mark_changed(var, round_);
    readers_.changed(var);
    changed_ = true;
  }

  template <ResolverId Id>
  VarId lazy_var(IdVector<Id, VarId>& table, Id index) {
    if (table[index] == kNoVar) table[index] = new_var();
    return table[index];
  }

  // ---- binding: which names each scope defines ----------------------------------------------

  void bind(ScopeId scope, NameId name);

  // Lists the (scope, name) bindings of assignment target `e`, packed, in binding order.
  void bind_target(FileId f, ScopeId scope, uint32_t e, std::vector<uint64_t>& bindings,
                   int depth = 0);

  void collect_stored_names(FileId f, uint32_t e, int depth);

  void bind_names();

  // Names a module exports to `from m import *`.
  std::vector<NameId> exports(FileId f);

  void expand_star_imports();

  void bind_imports();

  // Files are evaluated imported-first (a depth-first post-order over import edges, from files
  // in path order): definitions are mostly known before their users run, so the fixed point
  // needs fewer re-evaluations. Deterministic, and any order gives the same fixed point.
  void order_files();

  // *args and **kwargs parameters hold a tuple and a dict that calls fill.
  void seed_variadic_params();

  // A method's first parameter is an instance of its class (the class itself for classmethods),
  // even when no call in the repository reaches it.
  void seed_receivers();

  VarId first_positional_param(ScopeId g) {
    const ScopeRec& s = scopes_[g];
    const FileFacts& ff = facts(s.file);
    const Scope& sc = ff.scopes[s.local];
    if (sc.params_count == 0) return kNoVar;
    const Param& p = ff.params[sc.params_begin];
    if (p.kind != ParamKind::Positional) return kNoVar;
    return find_var(g, gs(s.file, p.name));
  }

  // A decorator `d(p)` that returns a function `w` defined in its own body which calls `p`: the
  // wrapper pattern (functools.wraps and friends). Decorating with it is modelled per decorated
  // definition (a Wrapped value) instead of merging every decorated function into `p`.
  void find_wrappers();

  // Functions whose every return gives back one of their positional parameters unchanged
  // (`def public(obj): ...; return obj`, `return self`): a call's value is that argument of the
  // call itself, so such helpers do not merge what all their callers pass.
  void find_identities();

  // Positional parameters (and *args) a function gives back unchanged in some of its returns
  // (not all: those are find_identities'), as `return p` or passed on unchanged to a call it
  // returns (`return self.register(name, p)`, `return decorator(*args)`): such a return stores
  // Param(i) instead of p's values (every caller's argument), and call_result puts each call's
  // own argument in its place. So a registration method returning the function it registers on
  // one path and a decorator on another does not give every registered function to every call.
  // Reads only the facts, the scope table and find_identities' result.
  void find_param_returns();
  // The variables of the defaults find_param_returns found (made after the seeds', in order).
  void create_default_vars();
  // Which of g's first 32 parameters (file f's local string `name`) is named so, or kNone.
  uint32_t param_index(FileId f, ScopeId g, uint32_t name) const;

  // The i-th positional argument of the call at hand of `function` (`receiver` as argument 0
  // when bound): a positional argument, else, for a positional parameter, a keyword argument
  // naming it or its default. Param(j) when the call forwards its caller's argument j.
  Set argument_at(ScopeId function, uint32_t index, ValueId receiver, const Args& args);

  // The forwardable parameter of ctx.scope of `kind` that expression `x` names, or kNone.
  uint32_t forwarded_param(const Ctx& ctx, const Expr& x, ParamKind kind) const;

  // A Return statement's value in a function with forwardable parameters.
  Set forwarding_return(const Ctx& ctx, uint32_t e);

  // Fills args.forwarded for a call returned by ctx.scope (see find_param_returns).
  void mark_forwarded(const Ctx& ctx, const Expr& call_expr, Args& args);

  // result_of with Param(0) as `receiver` and other Param values dropped (implicit calls).
  Set returns_for(ScopeId function, ValueId receiver, int depth);

  static bool expr_names(const FileFacts& ff, uint32_t e, uint32_t name, int depth);

  // The value of calling `function` with `args` (and `receiver` bound to its first parameter).
  // Most functions give back neither a parameter nor a forwarded call: their result inline, the
  // rest in call_result_of_params, out of line.
  Set call_result(ScopeId function, ValueId receiver, const Args& args, int depth) {
    if (returned_param_[function] == kNone && forwardable_[function] == 0) {
      return result_of(function, depth);
    }
    return call_result_of_params(function, receiver, args, depth);
  }
  [[gnu::noinline]] Set call_result_of_params(ScopeId function, ValueId receiver,
                                              const Args& args, int depth);

  // Whether some statement of local scope `w` calls a plain name spelled like local string
  // `name`.
  bool calls_name(FileId f, uint32_t w, uint32_t name) const;

  static bool expr_calls_name(const FileFacts& ff, uint32_t e, uint32_t name, int depth);

  // ---- classes ------------------------------------------------------------------------------

  void update_bases();

  // Re-evaluates one class's bases (in its defining scope). Also run when the class statement
  // itself runs, so that in the first round the hierarchy is known before most lookups.
  void update_class_bases(FileId f, uint32_t local);

  // The class attribute `name` as Python finds it: in the first class of the MRO (from index
  // `skip`) whose body binds it. kNoVar when no repository class binds it.
  VarId class_attribute(ScopeId c, NameId name, size_t skip = 0);
  // The reads a lookup in `order` from `skip` that stopped at index `at` depends on: the shapes
  // of the classes it passed and of the one it stopped at, and, for a name some store spells,
  // every class's attribute shape.
  void note_class_reads(const std::vector<uint32_t>& order, NameId name, size_t skip, size_t at);

  // The index of the first class in `order` from `skip` on whose body binds `name`, or
  // order.size().
  size_t first_binding(const std::vector<uint32_t>& order, NameId name, size_t skip) const;

  // What class_attribute(c, name) found, remembered: attribute lookups walk the same long MROs
  // (sympy's Basic hierarchy) over and over. `at` is first_binding(mro(c), name, 0) and `var`
  // the variable of `name` in that class (kNoVar past the MRO); both change only with the MRO
  // or when a class gains a variable, and both empty the cache. `noted` is the tick of the
  // evaluation that last noted the lookup's reads: the shape variables it notes are the same
  // while the entry lives, and a variable noted at the current tick is not listed again, so a
  // second lookup within one evaluation notes nothing new and skips the walk.
  struct ClassLookup {
    uint32_t at = 0;
    VarId var = kNoVar;
    uint32_t noted = 0;
  };
  ClassLookup& defining_class(ScopeId c, NameId name, const std::vector<uint32_t>& order);

  // A class attribute's values as seen through `receiver` (an instance or class value).
  void bind_method(ValueId v, ValueId receiver, Set& out, int depth);

  Set returns_of(ScopeId function, int /*depth*/) { return read(lazy_var(ret_var_, function)); }

  // ---- evaluation ---------------------------------------------------------------------------

  // A change since the statement last ran happened this round or the last: had it happened
  // earlier, the statement's check in the last round would have found it (every round checks
  // every statement that may be stale, and a statement run in the last round ran after anything
  // before it). So only recently changed variables need their tick compared. Inlined into both
  // loops that test statements (called out of line it cost ~3 % more instructions).
  [[gnu::always_inline]] inline bool stale(StmtId stmt) const;

  void evaluate_file(FileId f);
  // Round 0 evaluates every Name for the first time, and its lookup (lookup_scopes) is mostly a
  // cache miss in the scope-variable table. Before statement `i - kNamesAhead` runs, the slots
  // the lookups of statement i's Names will probe are asked for: the Names among the expressions
  // past `done` up to the statement's roots (the extractor adds a statement's expressions before
  // it, children first), in every scope of the statement's chain whose name mask has the bit. A
  // hint: nothing is looked up or changed, so nothing the rounds compute depends on it.
  void prefetch_names(FileId f, const FileFacts& ff, size_t i, uint32_t& done) const;
  static constexpr size_t kNamesAhead = 1;
  // evaluate_file once the reader index is active: only the marked statements are tested.
  void evaluate_marked(FileId f, const FileFacts& ff);
  // Keeps the reads of the evaluation of `stmt` (and indexes them when they are new).
  [[gnu::always_inline]] inline void store_reads(StmtId stmt);

  void evaluate_statement(FileId f, const Stmt& s);

  void define(const Ctx& ctx, uint32_t local_scope);

  // A registration not known yet to give back its argument in the first round is bound from the
  // second (its statement reads second_round_): a binding made now would stay (sets only grow).
  void defer_to_second_round(bool& deferred);

  // A Name's variable (`str` its file-local string): after its first evaluation, the one its
  // expression slot holds (inline, without turning the string into a global name id); the first
  // evaluation walks the scopes (lookup_scopes, out of line).
  VarId lookup(const Ctx& ctx, uint32_t e, uint32_t str) {
    const uint32_t cached = expr_slot_[site_of(ctx.file, e)];
    if (cached != kNone) return VarId{cached};
    return lookup_scopes(ctx, e, gs(ctx.file, str));
  }
  [[gnu::noinline]] VarId lookup_scopes(const Ctx& ctx, uint32_t e, NameId name);

  std::optional<Builtin> builtin(NameId name) const;

  Set eval(const Ctx& ctx, uint32_t e, int depth);

  void attribute(ValueId o, NameId name, Set& out, int depth);

  // Calls a special method of an instance's class without recording an edge (implicit calls).
  Set implicit(ScopeId instance_class, NameId method, int depth);

  Set result_of(ScopeId function, int depth) {
    if ((scopes_[function].flags & kGenerator) != 0) return {values_.generator(function)};
    return returns_of(function, depth);
  }

  void iterate(ValueId v, Set& out, int depth);

  void subscript(ValueId v, Set& out, int depth);

  void enter(ValueId v, Set& out, int depth);

  void caught(ValueId v, Set& out);

  void assign(const Ctx& ctx, uint32_t target, const Set& v, int depth);

  void unpack(const Ctx& ctx, const Expr& pattern, const Set& v, int depth);

  // The literal expression at a site (containers are keyed by their site); null past the
  // expressions.
  const Expr* container_literal(SiteId site) const;

  void store_attribute(ValueId o, NameId name, const Set& v);

  void evaluate_args(const Ctx& ctx, const Expr& call_expr, int depth, Args& args);

  Set call(const Ctx& ctx, uint32_t e, const Expr& x, int depth, bool forward = false);

  void container_method(SiteId site, ValueId container, NameId method, const Args& args, Set& out,
                        int depth);

  // Parameters are bound during setup and never rebound (rounds create variables in classes
  // and modules only): the positional ones are looked up once.
  void index_params();

  void flow_arguments(ScopeId function, ValueId receiver, const Args& args);

  // A call of `function` at `site` (kNoSite: a call without a site, a direct edge).
  void record_call(const Ctx& ctx, ScopeId function, SiteId site) {
    const EntityIndex callee = entity_of(function);
    if (site == kNoSite) {
      calls_.direct(ctx.caller, callee);
      return;
    }
    calls_.record(expr_slot_[site], ctx.caller, callee);
  }

  // Calls every value in `callees`; `site` identifies the call for values it creates.
  Set call_values(const Ctx& ctx, const Set& callees, const Args& args, SiteId site, int depth);

  // The class whose method body (possibly through nested lambdas/comprehensions) holds `scope`,
  // and whether that method receives the class rather than an instance.
  struct EnclosingMethod {
    ScopeId function, cls;
    bool on_class;
  };
  std::optional<EnclosingMethod> enclosing_method(ScopeId scope) const;

  void call_builtin(const Ctx& ctx, Builtin b, const Args& args, SiteId site, Set& out, int depth);

  // ---- implicit calls and literal indexes (resolve_semantics.cpp) ----------------------------

  // `for x in obj` on an instance: edges to its class's __iter__ and the __next__ it returns.
  void record_iteration(const Ctx& ctx, ScopeId cls, SiteId site);
  // Builtins calling a callable argument, in the caller's frame.
  Set call_callback(const Ctx& ctx, const Set& callables, const Set& argument, SiteId site,
                    int depth);
  void call_key(const Ctx& ctx, const Args& args, const Set& items, SiteId site, int depth);
  void call_map(const Ctx& ctx, const Args& outer, SiteId site, Set& out, int depth);
  void call_filter_min_max(const Ctx& ctx, Builtin b, const Args& args, SiteId site, Set& out,
                           int depth);
  void sort_method(const Ctx& ctx, const Set& objects, const Args& args, SiteId site, int depth);
  LiteralIndex literal_index_of(FileId f, const Expr& subscript) const;
  struct Positions {
    VarId base;
    uint32_t count;
  };
  std::optional<Positions> positions_at(SiteId site);
  Set unpositioned(SiteId site, const Positions& p);
  void literal_subscript(SiteId site, const LiteralIndex& literal, SiteId view_site, Set& out);
  void store_literal_index(ValueId container, const LiteralIndex& literal, const Set& v);
  // A subscript's plain string key ("'k" in the facts) as a global string id, or kNoName.
  NameId literal_key_of(FileId f, const Expr& subscript) const;
  // Whether `container` is a Container value made by a dict display of key: value pairs.
  bool is_dict_display(ValueId container) const;
  void keyed_subscript(ValueId container, NameId key, Set& out);
  // Makes the display's keys variable (Heap::add_display_keys) when some key is not a plain
  // string literal.
  void create_display_keys(FileId f, const Expr& display, SiteId site);

  // ---- output -------------------------------------------------------------------------------

  // Fills base_ once the rounds are done (resolve_base.cpp).
  void export_base();
  // export_base's memo of each class's call, and the marks its ancestor walks share (one walk
  // per class: a membership test per step, whatever the depth of the chain).
  struct ClassCalls {
    std::vector<NameCall> calls;
    std::vector<uint8_t> done;
    std::vector<uint32_t> walk_mark;
    uint32_t walk = 0;
  };
  void add_call_of(ValueId v, NameCall& call, ClassCalls& class_calls);
  NameCall class_call(ScopeId cls, ClassCalls& class_calls);

  void emit_edges();
  // The file holding entity `e`.
  FileId file_of_entity(EntityIndex e) const;

  struct FromImport {
    FileId file, from_file;
    VarId var;
  };

  const ResolverInput& input_;
  std::vector<Edge>& out_;
  const ModuleIndex& modules_;
  const ImportTable& imports_;
  ResolutionBase* base_;
  size_t threads_;  // threads this resolution may use (ResolverInput::threads)
  // Faults in the reserved tables' pages on a second thread while setup and rounds fill them.
  analysis::PagePrefaulter prefault_;
  // Per file: the tick of its last first-round statement and the values made by then (for base_).
  struct FirstRoundEnd {
    uint32_t tick = 0;
    uint32_t values = 0;
  };
  IdVector<FileId, FirstRoundEnd> first_round_end_;
  // Per file: how many module names setup made (the rest were made by attribute stores).
  IdVector<FileId, uint32_t> setup_module_names_;

  IdVector<FileId, FileRec> files_;
  IdVector<ScopeId, ScopeRec> scopes_;
  uint32_t expr_count_ = 0;
  NameTable strings_;
  std::vector<NameId> gstr_;  // per file string (from its FileRec::str_base)

  Values values_;
  VarSets vars_;
  PairMap<ScopeId, NameId, VarId> scope_vars_;
  // Per scope, the name_bit of every name in scope_vars_ under it: a lookup whose bit is clear
  // finds nothing without probing the table.
  IdVector<ScopeId, uint64_t> scope_names_;
  PairMap<ValueId, NameId, VarId> object_vars_;  // instance or function value
  Heap heap_{vars_, values_};
  IdVector<ScopeId, VarId> ret_var_, yield_var_;
  // Per expression: for a Name, the variable it resolved to when first evaluated (kUnresolved
  // for none); for a Call, its index in calls_; for a Container or Tuple, its value.
  IdVector<SiteId, uint32_t> expr_slot_;
  std::unordered_map<VarId, ValueId> receiver_seed_;  // self/cls variable -> its class
  ReadLists stmt_reads_;                   // per statement: the variables its last evaluation read
  ReadLists::Snapshot reads_snapshot_;     // the lists ReaderIndex is built from
  ReaderIndex readers_;                    // per variable, its readers (the late rounds)
  bool indexing_ = false;                  // reads unlike a statement's last list go to readers_
  IdVector<StmtId, uint32_t> stmt_round_;  // per statement: tick it last ran
  ReadBuffer reads_;                       // reads of the statement being evaluated
  uint32_t stmt_count_ = 0;
  size_t evaluated_ = 0;
  uint32_t round_ = 0;  // a tick: advanced per round and per statement evaluation
  bool full_round_ = true;
  int quiet_round_ = kMaxRounds;
  // Shape pseudo-variables (see scope_shape), created when first asked for.
  IdVector<ScopeId, VarId> scope_shape_, attribute_shape_;
  IdMap<ValueId, VarId> object_shapes_;  // function value -> variable
  // Per global string id: what a name means to the resolver when it is an attribute.
  enum NameRole : uint8_t {
    kStored = 1,  // some assignment stores an attribute of this name
    kAdd = 2,     // container methods: adds its argument
    kExtend = 4,  // adds its argument's elements
    kInsert = 8,  // adds its second argument
    kGet = 16,    // returns an element
    kView = 32,   // returns the container itself (a view of it)
    kContainerMethod = kAdd | kExtend | kInsert | kGet | kView,
    kBuiltin = 64,  // one of kBuiltinNames
  };
  IdVector<NameId, uint8_t> name_roles_;
  IdVector<FileId, std::vector<NameId>> module_names_;
  // (scope, name) packed.
  std::unordered_set<uint64_t> declared_global_, declared_nonlocal_;
  // Imported names: (importing file, destination, source) variables. Each file applies its own
  // before its statements run (imported files run first), and all are applied after a round.
  struct Copy {
    FileId file;
    VarId dst, src;
    uint32_t applied = 0;  // the tick of its last application (0: none yet)
  };
  // Applies a copy unless its source is unchanged since the copy's last application: then the
  // destination holds every value of the source already, or is widened (a variable's set only
  // grows until it is widened, and a widened one takes nothing), so merge() would return having
  // done nothing; the skip saves the destination's record, a cache miss. Same tick: applied.
  void apply_copy(Copy& copy) {
    if (copy.applied != 0 && vars_.changed(copy.src) < copy.applied) return;
    copy.applied = round_;
    merge(copy.dst, vars_.get(copy.src));
  }
  std::vector<Copy> copies_;
  IdVector<FileId, std::vector<uint32_t>> copies_of_file_;  // indexes into copies_
  std::vector<FromImport> from_imports_;
  std::unordered_set<uint64_t> import_edges_;  // (file, file) packed

  ClassHierarchy classes_;
  // See defining_class: (class, name) -> what the lookup found. Valid while
  // classes_.generation() + class_vars_created_ equals class_cache_epoch_ (both only grow).
  PairMap<ScopeId, NameId, ClassLookup> defining_class_;
  // See instance_vars: (class, name) -> offset in instance_vars_pool_, for classes_.generation()
  // instance_vars_generation_.
  PairMap<ScopeId, NameId, uint32_t> instance_vars_of_;
  std::vector<VarId> instance_vars_pool_;
  uint32_t instance_vars_generation_ = 0;
  uint64_t class_vars_created_ = 0, class_cache_epoch_ = 0;
  std::vector<FileId> evaluation_order_;  // files, imported ones first

  CallSites calls_;
  struct ParamSummary {
    uint32_t positional_begin = 0, positional_count = 0;  // into positional_vars_
    bool varargs = false, varkw = false;
  };
  IdVector<ScopeId, ParamSummary> param_summary_;
  std::vector<VarId> positional_vars_;     // positional parameters' variables, in order
  IdVector<ScopeId, ScopeId> wrapper_of_;  // the wrapper closure a scope returns, or kNoScope
  // Per scope: the parameter every return gives back (kClassOfParam: its `__class__`).
  IdVector<ScopeId, uint32_t> returned_param_;
  static constexpr uint32_t kClassOfParam = 1u << 31;
  // Per scope: bit i set when parameter i (< 32), positional or *args, is never rebound and some
  // return may give it back (see find_param_returns); 0 for functions without Param returns.
  IdVector<ScopeId, uint32_t> forwardable_;
  PairMap<ScopeId, NameId, VarId> default_vars_;  // (function, parameter) -> its default's values
  // A parameter default find_param_returns found (file f's local string `name` of `function`).
  struct DefaultParam {
    FileId file;
    ScopeId function;
    uint32_t name;
  };
  std::vector<DefaultParam> default_params_;  // in statement order, until create_default_vars
  // A pseudo-variable changed when the second round starts: statements deferred to it read it.
  VarId second_round_ = kNoVar;
  bool changed_ = false;

  ArgStack args_;

  std::vector<NameId> builtin_ids_;  // per Builtin
  NameId s_init_{}, s_call_{}, s_iter_{}, s_next_{}, s_enter_{}, s_getitem_{}, s_class_{},
      s_items_{}, s_new_{}, s_init_subclass_{}, s_class_getitem_{}, s_key_{}, s_sort_{};
};

}  // namespace anchorfs::analysis::python::detail
