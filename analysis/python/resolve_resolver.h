// The resolver's state and its small operations, shared by the resolve*.cpp that implement it.
//
// resolve.cpp: the rounds and the evaluation of constraints; resolve_setup.cpp: indexing,
// binding, imports and the setup-time analyses; resolve_output.cpp: the edges and debug output.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/python/facts.h"
#include "analysis/graph.h"
#include "analysis/python/class_hierarchy.h"
#include "analysis/python/literal_index.h"
#include "analysis/python/modules.h"
#include "analysis/python/resolve_flat_map.h"
#include "analysis/python/resolve_read_lists.h"
#include "analysis/python/resolve_value_set.h"
#include "analysis/python/resolve_var_sets.h"

namespace anchorfs::analysis::python::detail {

// A call site resolving to more repository functions than this is too ambiguous to report.
inline constexpr size_t kMaxCalleesPerSite = 16;
// Expression nesting the evaluator follows (facts are bounded by the extractor already).
inline constexpr int kMaxEvalDepth = 500;
inline constexpr uint32_t kUnresolved = UINT32_MAX - 1;
// The key of a dict display's keys variable in key_vars_ (no string id is this large).
inline constexpr uint32_t kDisplayKeys = UINT32_MAX - 2;

// Wrapped(w, inner): what a wrapper-returning decorator made of `inner` (see find_wrappers).
// Property(getter): what `property(getter)` made of a function not decorated as a property.
// Param(i): in a return variable only, "the i-th positional argument of the call at hand"
// (see find_param_returns); call_result puts the call's own argument in its place.
enum class VK : uint8_t {
  Module,
  Class,
  Function,
  Instance,
  Bound,
  Super,
  Container,
  Generator,
  Builtin,
  Wrapped,
  Property,
  Param
};

enum class Builtin : uint8_t {
  Super,
  StaticMethod,
  ClassMethod,
  Property,
  Iter,
  Next,
  List,
  Tuple,
  Set,
  FrozenSet,
  Sorted,
  Reversed,
  Type,
  Map,
  Filter,
  Min,
  Max,
  kCount,
};

inline constexpr std::string_view kBuiltinNames[] = {
    "super", "staticmethod", "classmethod", "property",  "iter",   "next",
    "list",  "tuple",        "set",         "frozenset", "sorted", "reversed",
    "type",  "map",          "filter",      "min",       "max"};

struct Value {
  VK kind;
  uint32_t a;  // module / class / function scope / container site / builtin
  uint32_t b;  // Bound, Super: receiver value
};

using Set = ValueSet;

struct ScopeRec {
  uint32_t file = 0;
  uint32_t local = 0;
  uint32_t parent = kNone;  // global scope id
  ScopeKind kind = ScopeKind::Module;
  uint8_t flags = 0;
  uint32_t name = kNone;  // global string id
};

struct FileRec {
  const FileFacts* facts = nullptr;
  EntityIndex entity = kNoEntity;
  uint32_t scope_base = 0, expr_base = 0, str_base = 0;
  uint32_t module = kNone;
  uint32_t stmt_base = 0;
};

struct Ctx {
  uint32_t file;
  uint32_t scope;  // global scope id
  EntityIndex caller;
};

// `positional` lives in storage the resolver reuses per call nesting level (ArgFrame), so
// evaluating a call allocates nothing.
struct Args {
  explicit Args(std::vector<Set>& storage) : positional(storage) { positional.clear(); }
  std::vector<Set>& positional;
  bool open_positional = false;  // a *args argument: later positions are unknown
  Set starred;                   // elements of *args arguments
  Set double_starred;            // values of **kwargs arguments
  std::vector<std::pair<uint32_t, Set>> keywords;
  // A call returned by a function with forwardable parameters (see find_param_returns): for the
  // first kMaxForwarded positional arguments, the calling function's parameter the argument
  // names unchanged (kNotForwarded for none), valid when `forwarding`.
  static constexpr size_t kMaxForwarded = 8;
  static constexpr uint8_t kNotForwarded = 0xff;
  bool forwarding = false;
  uint8_t forwarded[kMaxForwarded] = {};
};

inline uint64_t key(uint32_t a, uint32_t b) {
  return (uint64_t{a} << 32) | b;
}

inline void insert(Set& s, uint32_t v) {
  s.insert(v);
}
inline void unite(Set& dst, const Set& src) {
  dst.unite(src);
}

class Resolver {
 public:
  Resolver(const ResolverInput& input, std::vector<Edge>& edges)
      : input_(input), out_(edges), modules_(input) {}

  void run();

  // What only the rounds need goes before the edges are built, so that building them does not
  // raise the peak.
  void release_evaluation_state();

  // Debug trace only: set sizes, table sizes and the largest tables' capacity in MB.
  void trace_tables() const;

 private:
  // ---- indexing -----------------------------------------------------------------------------

  uint32_t global_string(std::string_view s);

  void index_files();

  const FileFacts& facts(uint32_t f) const { return *files_[f].facts; }
  uint32_t gs(uint32_t f, uint32_t local_str) const {
    return gstr_[files_[f].str_base + local_str];
  }
  uint32_t gscope(uint32_t f, uint32_t local) const { return files_[f].scope_base + local; }
  const Expr& expr_at(uint32_t f, uint32_t e) const { return facts(f).exprs[e]; }
  uint32_t list_item(uint32_t f, uint32_t i) const { return facts(f).lists[i]; }
  EntityIndex entity_of(uint32_t g) const {
    return files_[scopes_[g].file].entity + scopes_[g].local;
  }
  uint32_t module_scope(uint32_t f) const { return files_[f].scope_base; }

  // Every read of a variable during a statement's evaluation is recorded: the statement is
  // evaluated again only when one of them changed (or the structure did).
  // A variable is listed once per evaluation (see VarSets::read_tick).
  Set read(uint32_t var) {
    note_read(var);
    return vars_.get(var);
  }
  // A read whose values do not matter (shape pseudo-variables): only the dependency counts.
  void note_read(uint32_t var) {
    uint32_t& tick = vars_.read_tick(var);
    if (tick != round_) {
      tick = round_;
      reads_.push_back(var);
    }
  }

  uint32_t new_var() { return vars_.add(); }

  uint32_t value(VK k, uint32_t a, uint32_t b = 0) {
    const uint64_t k64 = (uint64_t{static_cast<uint8_t>(k)} << 58) ^ (uint64_t{a} << 29) ^ b;
    const auto [id, inserted] = value_ids_.try_emplace(k64, static_cast<uint32_t>(values_.size()));
    if (inserted) values_.push_back({k, a, b});
    return *id;
  }

  // A variable that would hold more than kMaxSet values is widened to "unknown": it is emptied
  // and never grows again. That loses edges through it rather than reporting wrong ones, and
  // stops imprecision from spreading (and costing time) through the rest of the program.
  // Instances are looked up constantly: one cached value per class.
  uint32_t instance_of(uint32_t cls) {
    uint32_t& v = instance_value_[cls];
    if (v == kNone) v = value(VK::Instance, cls);
    return v;
  }

  bool merge(uint32_t var, const Set& src) {
    if (var == kNone || var == kUnresolved || src.empty() || vars_.poisoned(var)) return false;
    if (vars_.contains_all(var, src)) return false;
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
    return true;
  }

  uint32_t find_var(uint32_t scope, uint32_t name) const {
    const uint32_t* var = scope_vars_.find(key(scope, name));
    return var == nullptr ? kNone : *var;
  }

  // The variable is created before the entry (new variables are numbered as they always were:
  // the attribute shape first).
  uint32_t scope_var(uint32_t scope, uint32_t name) {
    if (const uint32_t* var = scope_vars_.find(key(scope, name))) return *var;
    touch(attribute_shape(scope));
    const uint32_t var = new_var();
    scope_vars_.try_emplace(key(scope, name), var);
    if (scopes_[scope].kind == ScopeKind::Class) ++class_vars_created_;
    if (scopes_[scope].kind == ScopeKind::Module) {
      module_names_[scopes_[scope].file].push_back(name);
    }
    return var;
  }

  // `name` in `scope` stands for another scope's variable (global and nonlocal declarations).
  void alias_var(uint32_t scope, uint32_t name, uint32_t var) {
    scope_vars_.set(key(scope, name), var);
    if (scopes_[scope].kind == ScopeKind::Class) ++class_vars_created_;
  }

  // The instance variables `name` along `order`, the MRO of class `c`, created as needed:
  // remembered per (class, name) until an MRO changes, instead of a hash lookup per class on
  // every attribute evaluation.
  const uint32_t* instance_vars(uint32_t c, uint32_t name, const std::vector<uint32_t>& order) {
    if (instance_vars_generation_ != classes_.generation()) {
      instance_vars_generation_ = classes_.generation();
      instance_vars_of_.clear();
      instance_vars_pool_.clear();
    }
    const auto [begin, inserted] = instance_vars_of_.try_emplace(
        key(c, name), static_cast<uint32_t>(instance_vars_pool_.size()));
    if (inserted) {
      for (uint32_t k : order) instance_vars_pool_.push_back(instance_var(instance_of(k), name));
    }
    return instance_vars_pool_.data() + *begin;
  }

  uint32_t instance_var(uint32_t instance, uint32_t name) {
    const auto [var, inserted] = object_vars_.try_emplace(key(instance, name), 0);
    if (inserted) *var = new_var();
    return *var;
  }

  uint32_t object_var(uint32_t object_value, uint32_t name) {
    if (const uint32_t* var = object_vars_.find(key(object_value, name))) return *var;
    touch(object_shape(object_value));
    const uint32_t var = new_var();
    object_vars_.try_emplace(key(object_value, name), var);
    return var;
  }

  // A pseudo-variable per class, module or object standing for the set of attributes it has:
  // looking attributes up reads it, creating one touches it (so failed lookups are retried).
  uint32_t scope_shape(uint32_t scope) { return lazy_var(scope_shape_, scope); }
  // Touched when a class or module gains an attribute after setup. Only lookups of names that
  // some attribute store in the repository spells can ever see such a change, so only those
  // read it (a store to `Printable.__module__` must not re-run every lookup on every subclass).
  uint32_t attribute_shape(uint32_t scope) { return lazy_var(attribute_shape_, scope); }
  void read_attribute_shape(uint32_t scope, uint32_t name) {
    if ((name_roles_[name] & kStored) != 0) note_read(attribute_shape(scope));
  }
  uint32_t object_shape(uint32_t object_value) {
    const auto [var, inserted] = object_shapes_.try_emplace(object_value, 0);
    if (inserted) *var = new_var();
    return *var;
  }
  void touch(uint32_t var) {
    vars_.mark_changed(var, round_);
    changed_ = true;
  }

  uint32_t lazy_var(std::vector<uint32_t>& table, uint32_t index) {
    if (table[index] == kNone) table[index] = new_var();
    return table[index];
  }

  // Containers that no literal creates get sites past the expressions: items() views, and the
  // tuple/dict a function's *args/**kwargs parameter receives.
  uint32_t items_site(uint32_t site) const { return expr_count_ + site; }
  uint32_t varargs_site(uint32_t function) const { return 2 * expr_count_ + 2 * function; }
  uint32_t varkw_site(uint32_t function) const { return 2 * expr_count_ + 2 * function + 1; }

  // The elements variable of Container value `v`, remembered per value: most lookups start
  // from a value, and finding it by site in element_vars_ showed in profiles.
  uint32_t elements_of(uint32_t v) {
    if (v >= container_elements_.size()) container_elements_.resize(values_.size(), kNone);
    uint32_t& elements = container_elements_[v];
    if (elements == kNone) elements = elements_var(values_[v].a);
    return elements;
  }

  uint32_t elements_var(uint32_t site) {
    const auto [var, inserted] = element_vars_.try_emplace(site, 0);
    if (inserted) *var = new_var();
    return *var;
  }

  // A tuple literal's elements variable is created by its first evaluation, and the variables
  // of its positions right after it: they are the next list_count variables.
  static uint32_t positions_of(uint32_t elements) { return elements + 1; }

  // ---- binding: which names each scope defines ----------------------------------------------

  void bind(uint32_t scope, uint32_t name);

  void bind_target(uint32_t f, uint32_t scope, uint32_t e, int depth = 0);

  void collect_stored_names(uint32_t f, uint32_t e, int depth);

  void bind_names();

  // Names a module exports to `from m import *`.
  std::vector<uint32_t> exports(uint32_t f);

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

  uint32_t first_positional_param(uint32_t g) {
    const ScopeRec& s = scopes_[g];
    const FileFacts& ff = facts(s.file);
    const Scope& sc = ff.scopes[s.local];
    if (sc.params_count == 0) return kNone;
    const Param& p = ff.params[sc.params_begin];
    if (p.kind != ParamKind::Positional) return kNone;
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

  // Positional parameters a function gives back unchanged in some of its returns (not all: those
  // are find_identities'), as `return p` or as the same parameter passed on to a call whose
  // callee returns it (`return self.register(name, p)`): such a return stores Param(i) instead
  // of p's values (every caller's argument), and call_result puts each call's own argument in
  // its place. So a registration method returning the function it registers on one path and a
  // decorator on another does not give every registered function to every call.
  void find_param_returns();

  // The i-th positional argument of the call at hand of `function` (`receiver` as argument 0
  // when bound): a positional argument, else, for a positional parameter, a keyword argument
  // naming it or its default. Param(j) when the call forwards its caller's argument j.
  Set argument_at(uint32_t function, uint32_t index, uint32_t receiver, const Args& args);

  // The forwardable parameter of ctx.scope of `kind` that expression `x` names, or kNone.
  uint32_t forwarded_param(const Ctx& ctx, const Expr& x, ParamKind kind) const;

  // A Return statement's value in a function with forwardable parameters.
  Set forwarding_return(const Ctx& ctx, uint32_t e);

  // result_of with Param(0) as `receiver` and other Param values dropped (implicit calls).
  Set returns_for(uint32_t function, uint32_t receiver, int depth);

  static bool expr_names(const FileFacts& ff, uint32_t e, uint32_t name, int depth);

  // The value of calling `function` with `args` (and `receiver` bound to its first parameter).
  Set call_result(uint32_t function, uint32_t receiver, const Args& args, int depth);

  // Whether some statement of scope `w` calls a plain name spelled like string `name`.
  bool calls_name(uint32_t f, uint32_t w, uint32_t name) const;

  static bool expr_calls_name(const FileFacts& ff, uint32_t e, uint32_t name, int depth);

  // ---- classes ------------------------------------------------------------------------------

  void update_bases();

  // Re-evaluates one class's bases (in its defining scope). Also run when the class statement
  // itself runs, so that in the first round the hierarchy is known before most lookups.
  void update_class_bases(uint32_t f, uint32_t local);

  // The class attribute `name` as Python finds it: in the first class of the MRO (from index
  // `skip`) whose body binds it. kNone when no repository class binds it.
  uint32_t class_attribute(uint32_t c, uint32_t name, size_t skip = 0);

  // The index of the first class in `order` from `skip` on whose body binds `name`, or
  // order.size().
  size_t first_binding(const std::vector<uint32_t>& order, uint32_t name, size_t skip) const;

  // first_binding(mro(c), name, 0), remembered: attribute lookups walk the same long MROs
  // (sympy's Basic hierarchy) over and over. The answer changes only with the MRO or when a
  // class gains a variable, and both empty the cache.
  size_t defining_class(uint32_t c, uint32_t name, const std::vector<uint32_t>& order);

  // A class attribute's values as seen through `receiver` (an instance or class value).
  void bind_method(uint32_t v, uint32_t receiver, Set& out, int depth);

  Set returns_of(uint32_t function, int /*depth*/) { return read(lazy_var(ret_var_, function)); }

  // ---- evaluation ---------------------------------------------------------------------------

  // A change since the statement last ran happened this round or the last: had it happened
  // earlier, the statement's check in the last round would have found it (every round checks
  // every statement, and a statement run in the last round ran after anything before it). So
  // only recently changed variables need their tick compared.
  bool stale(uint32_t stmt) const;

  void evaluate_file(uint32_t f);

  void evaluate_statement(uint32_t f, const Stmt& s);

  void define(const Ctx& ctx, uint32_t local_scope);

  // A registration not known yet to give back its argument in the first round is bound from the
  // second (its statement reads second_round_): a binding made now would stay (sets only grow).
  void defer_to_second_round(bool& deferred);

  uint32_t lookup(const Ctx& ctx, uint32_t e, uint32_t name);

  std::optional<Builtin> builtin(uint32_t name) const;

  Set eval(const Ctx& ctx, uint32_t e, int depth);

  void attribute(uint32_t o, uint32_t name, Set& out, int depth);

  // Calls a special method of an instance's class without recording an edge (implicit calls).
  Set implicit(uint32_t instance_class, uint32_t method, int depth);

  Set result_of(uint32_t function, int depth) {
    if ((scopes_[function].flags & kGenerator) != 0) return {value(VK::Generator, function)};
    return returns_of(function, depth);
  }

  void iterate(uint32_t v, Set& out, int depth);

  void subscript(uint32_t v, Set& out, int depth);

  void enter(uint32_t v, Set& out, int depth);

  void caught(uint32_t v, Set& out);

  void assign(const Ctx& ctx, uint32_t target, const Set& v, int depth);

  void unpack(const Ctx& ctx, const Expr& pattern, const Set& v, int depth);

  // The literal expression at a global expression id (containers are keyed by their site).
  const Expr* container_literal(uint32_t site) const;

  void store_attribute(uint32_t o, uint32_t name, const Set& v);

  // The storage of one nesting level of calls being evaluated (see Args).
  class ArgFrame {
   public:
    explicit ArgFrame(Resolver& r) : r_(r) {
      if (r_.arg_storage_.size() == r_.arg_depth_) {
        r_.arg_storage_.push_back(std::make_unique<std::vector<Set>>());
      }
      storage_ = r_.arg_storage_[r_.arg_depth_++].get();
    }
    ~ArgFrame() { --r_.arg_depth_; }
    ArgFrame(const ArgFrame&) = delete;
    ArgFrame& operator=(const ArgFrame&) = delete;
    std::vector<Set>& storage() const { return *storage_; }

   private:
    Resolver& r_;
    std::vector<Set>* storage_;
  };

  void evaluate_args(const Ctx& ctx, const Expr& call_expr, int depth, Args& args);

  Set call(const Ctx& ctx, uint32_t e, const Expr& x, int depth, bool forward = false);

  // Fills args.forwarded for a call returned by ctx.scope (see find_param_returns).
  void mark_forwarded(const Ctx& ctx, const Expr& call_expr, Args& args);

  void container_method(uint32_t site, uint32_t container, uint32_t method, const Args& args,
                        Set& out, int depth);

  // Parameters are bound during setup and never rebound (rounds create variables in classes
  // and modules only): the positional ones are looked up once.
  void index_params();

  void flow_arguments(uint32_t function, uint32_t receiver, const Args& args);

  // Edges of one call site are kept apart until the end: a site resolving to too many targets
  // is dropped as too imprecise. Calls without a site (decorators, wrappers) are direct edges.
  void record_call(const Ctx& ctx, uint32_t function, uint32_t site);

  // Calls every value in `callees`; `site` identifies the call for values it creates.
  Set call_values(const Ctx& ctx, const Set& callees, const Args& args, uint32_t site, int depth);

  // The class whose method body (possibly through nested lambdas/comprehensions) holds `scope`,
  // and whether that method receives the class rather than an instance.
  struct EnclosingMethod {
    uint32_t function, cls;
    bool on_class;
  };
  std::optional<EnclosingMethod> enclosing_method(uint32_t scope) const;

  void call_builtin(const Ctx& ctx, Builtin b, const Args& args, uint32_t site, Set& out,
                    int depth);

  // ---- implicit calls and literal indexes (resolve_semantics.cpp) ----------------------------

  // `for x in obj` on an instance: edges to its class's __iter__ and the __next__ it returns.
  void record_iteration(const Ctx& ctx, uint32_t cls, uint32_t site);
  // Builtins calling a callable argument, in the caller's frame.
  Set call_callback(const Ctx& ctx, const Set& callables, const Set& argument, uint32_t site,
                    int depth);
  void call_key(const Ctx& ctx, const Args& args, const Set& items, uint32_t site, int depth);
  void call_map(const Ctx& ctx, const Args& outer, uint32_t site, Set& out, int depth);
  void call_filter_min_max(const Ctx& ctx, Builtin b, const Args& args, uint32_t site, Set& out,
                           int depth);
  void sort_method(const Ctx& ctx, const Set& objects, const Args& args, uint32_t site, int depth);
  LiteralIndex literal_index_of(uint32_t f, const Expr& subscript) const;
  struct Positions {
    uint32_t base, count;
  };
  std::optional<Positions> positions_at(uint32_t site);
  Set unpositioned(uint32_t site, const Positions& p);
  void literal_subscript(uint32_t site, const LiteralIndex& literal, uint32_t view_site, Set& out);
  void store_literal_index(uint32_t container, const LiteralIndex& literal, const Set& v);
  // A subscript's plain string key ("'k" in the facts) as a global string id, or kNone.
  uint32_t literal_key_of(uint32_t f, const Expr& subscript) const;
  // Whether Container value `container` was made by a dict display of key: value pairs.
  bool is_dict_display(uint32_t container) const;
  // The values stored under literal key `key` of the dict display at `site`.
  uint32_t key_var(uint32_t site, uint32_t key);
  // A dict display's keys that are not plain string literals (what iterating it gives besides
  // its values), in key_vars_ under kDisplayKeys; created by the display's first evaluation, so
  // every iteration of the dict it makes reads it.
  void create_display_keys(uint32_t f, const Expr& display, uint32_t site);
  void keyed_subscript(uint32_t container, uint32_t key, Set& out);

  // ---- output -------------------------------------------------------------------------------

  void emit_edges();
  // The file (index into files_) holding entity `e`.
  uint32_t file_of_entity(EntityIndex e) const;

  struct FromImport {
    uint32_t file, from_file, var;
  };

  const ResolverInput& input_;
  std::vector<Edge>& out_;
  ModuleIndex modules_;

  std::vector<FileRec> files_;
  std::vector<ScopeRec> scopes_;
  uint32_t expr_count_ = 0;
  std::unordered_map<std::string_view, uint32_t> strings_;
  std::vector<std::string_view> strings_by_id_;
  std::vector<uint32_t> gstr_;

  std::vector<Value> values_;
  FlatMap<uint64_t> value_ids_;
  VarSets vars_;
  FlatMap<uint64_t> scope_vars_;              // (scope, name) -> variable
  FlatMap<uint64_t> object_vars_;             // (instance or function value, name) -> variable
  FlatMap<uint32_t> element_vars_;            // container site -> variable
  std::vector<uint32_t> container_elements_;  // per value: see elements_of
  FlatMap<uint64_t> key_vars_;                // (dict display site, literal key) -> variable
  std::unordered_map<uint32_t, std::vector<uint32_t>> site_key_vars_;  // site -> its key_vars_
  std::vector<uint32_t> ret_var_, yield_var_;
  // Per expression: for a Name, the variable it resolved to when first evaluated (kUnresolved
  // for none); for a Call, its index in site_calls_; for a Container or Tuple, its value.
  std::vector<uint32_t> expr_slot_;
  std::unordered_map<uint32_t, uint32_t> receiver_seed_;  // self/cls variable -> its class
  ReadLists stmt_reads_;              // per statement: the variables its last evaluation read
  std::vector<uint32_t> stmt_round_;  // per statement: tick it last ran
  std::vector<uint32_t> reads_;       // reads of the statement being evaluated
  uint32_t stmt_count_ = 0;
  size_t evaluated_ = 0;
  uint32_t round_ = 0;  // a tick: advanced per round and per statement evaluation
  bool full_round_ = true;
  // Shape pseudo-variables (see scope_shape), created when first asked for.
  std::vector<uint32_t> scope_shape_, attribute_shape_;  // per scope
  FlatMap<uint32_t> object_shapes_;                      // function value -> variable
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
  std::vector<uint8_t> name_roles_;
  std::vector<std::vector<uint32_t>> module_names_;
  std::unordered_set<uint64_t> declared_global_, declared_nonlocal_;
  // Imported names: (importing file, destination, source) variables. Each file applies its own
  // before its statements run (imported files run first), and all are applied after a round.
  struct Copy {
    uint32_t file, dst, src;
  };
  std::vector<Copy> copies_;
  std::vector<std::vector<uint32_t>> copies_of_file_;
  std::vector<FromImport> from_imports_;

  ClassHierarchy classes_;
  // See defining_class: (class, name) -> index in the class's MRO. Valid while
  // classes_.generation() + class_vars_created_ equals class_cache_epoch_ (both only grow).
  FlatMap<uint64_t> defining_class_;
  // See instance_vars: (class, name) -> offset in instance_vars_pool_, for classes_.generation()
  // instance_vars_generation_.
  FlatMap<uint64_t> instance_vars_of_;
  std::vector<uint32_t> instance_vars_pool_;
  uint32_t instance_vars_generation_ = 0;
  uint64_t class_vars_created_ = 0, class_cache_epoch_ = 0;
  std::vector<uint32_t> instance_value_;    // per class scope
  std::vector<uint32_t> evaluation_order_;  // files, imported ones first

  // Most call sites reach one callee: it is kept inline, and a second one moves the site's
  // callees to more_callees_.
  struct SiteCalls {
    EntityIndex caller = kNoEntity;
    uint32_t callee = kNone;  // the first callee (entity), while `more` is kNone
    uint32_t more = kNone;    // index into more_callees_
  };
  std::vector<SiteCalls> site_calls_;
  std::vector<std::vector<uint32_t>> more_callees_;  // entities, sorted
  std::unordered_set<uint64_t> call_edges_, import_edges_;
  struct ParamSummary {
    uint32_t positional_begin = 0, positional_count = 0;  // into positional_vars_
    bool varargs = false, varkw = false;
  };
  std::vector<ParamSummary> param_summary_;  // per scope
  std::vector<uint32_t> positional_vars_;    // positional parameters' variables, in order
  std::vector<uint32_t> wrapper_of_;         // per scope: the wrapper closure it returns, or kNone
  // Per scope: the parameter every return gives back (kClassOfParam: its `__class__`).
  std::vector<uint32_t> returned_param_;
  // Per scope: bit i set when parameter i (< 32), positional or *args, is never rebound and some
  // return may give it back (see find_param_returns); 0 for functions without Param returns.
  std::vector<uint32_t> forwardable_;
  FlatMap<uint64_t> default_vars_;  // (function, parameter name) -> its default's values
  // A pseudo-variable changed when the second round starts: statements deferred to it read it.
  uint32_t second_round_ = kNone;
  static constexpr uint32_t kClassOfParam = 1u << 31;
  bool changed_ = false;

  // Per call nesting level (see ArgFrame); the levels' storage never moves.
  std::vector<std::unique_ptr<std::vector<Set>>> arg_storage_;
  size_t arg_depth_ = 0;

  std::vector<uint32_t> builtin_ids_;
  uint32_t s_init_ = 0, s_call_ = 0, s_iter_ = 0, s_next_ = 0, s_enter_ = 0, s_getitem_ = 0,
           s_class_ = 0, s_items_ = 0, s_new_ = 0, s_init_subclass_ = 0, s_class_getitem_ = 0,
           s_key_ = 0, s_sort_ = 0;
};

}  // namespace anchorfs::analysis::python::detail
