// Flow-insensitive points-to resolution over a whole repository's Python facts (PyCG-like).
//
// Abstract values are modules, classes, functions, instances of classes, bound methods, super()
// proxies, container literals and generators. Every name, attribute, parameter, return value and
// container element is a variable holding a set of values; each round evaluates every
// constraint of every file once, until nothing changes or kMaxRounds is reached. Call edges are
// recorded whenever a call's callee set contains a repository function.
#include "analysis/python/resolve.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analysis/python/modules.h"
#include "analysis/python/resolve_flat_map.h"
#include "analysis/python/resolve_read_lists.h"
#include "analysis/python/resolve_value_set.h"
#include "analysis/python/resolve_var_sets.h"

namespace anchorfs::analysis::python {
namespace {

// A call site resolving to more repository functions than this is too ambiguous to report.
constexpr size_t kMaxCalleesPerSite = 16;
// Expression nesting the evaluator follows (facts are bounded by the extractor already).
constexpr int kMaxEvalDepth = 500;
constexpr uint32_t kUnresolved = UINT32_MAX - 1;

// Wrapped(w, inner): what a wrapper-returning decorator made of `inner` (see find_wrappers).
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
  Wrapped
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
  kCount,
};

constexpr std::string_view kBuiltinNames[] = {
    "super", "staticmethod", "classmethod", "property", "iter",     "next", "list",
    "tuple", "set",          "frozenset",   "sorted",   "reversed", "type"};

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
};

// Debug output only: the resident set size as /proc reports it.
std::string current_rss() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return "?";
  unsigned long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? std::to_string(resident * 4096 / (1024 * 1024)) + " MB" : "?";
}

uint64_t key(uint32_t a, uint32_t b) {
  return (uint64_t{a} << 32) | b;
}

void insert(Set& s, uint32_t v) {
  s.insert(v);
}
void unite(Set& dst, const Set& src) {
  dst.unite(src);
}

class Resolver {
 public:
  Resolver(const ResolverInput& input, std::vector<Edge>& edges)
      : input_(input), out_(edges), modules_(input) {}

  void run() {
    if (std::getenv("ANCHORFS_DEBUG_ROUNDS") != nullptr) {
      timespec cpu{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
      std::fprintf(stderr, "resolve start cpu %.2f rss %s\n",
                   static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) * 1e-9,
                   current_rss().c_str());
    }
    index_files();
    // Sympy ends with ~0.3 variables per expression; the reserve is address space only.
    vars_.reserve(expr_count_ + 4 * scopes_.size(), expr_count_);
    bind_names();
    expand_star_imports();
    bind_imports();
    seed_receivers();
    seed_variadic_params();
    order_files();
    find_wrappers();
    index_params();
    if (std::getenv("ANCHORFS_DEBUG_ROUNDS") != nullptr) {
      timespec cpu{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
      std::fprintf(stderr, "setup done rss %s exprs %u stmts %u scopes %zu cpu %.2f\n",
                   current_rss().c_str(), expr_count_, stmt_count_, scopes_.size(),
                   static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) * 1e-9);
    }
    // Sympy's statements read ~8 variables each (~14 bytes); moves need some slack.
    stmt_reads_ = ReadLists(stmt_count_, size_t{32} * stmt_count_);
    stmt_round_.assign(stmt_count_, 0);
    for (int round = 0; round < kMaxRounds; ++round) {
      ++round_;
      vars_.start_round();
      changed_ = false;
      full_round_ = round == 0;
      update_bases();
      for (uint32_t f : evaluation_order_) evaluate_file(f);
      for (const auto& [file, dst, src] : copies_) merge(dst, vars_.get(src));
      stmt_reads_.compact();
      if (std::getenv("ANCHORFS_DEBUG_ROUNDS") != nullptr) {
        timespec cpu{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        std::fprintf(stderr, "round %d full %d evaluated %zu values %zu vars %zu cpu %.2f\n", round,
                     full_round_ ? 1 : 0, evaluated_, values_.size(), vars_.size(),
                     static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) * 1e-9);
        evaluated_ = 0;
      }
      if (!changed_) break;
    }
    if (std::getenv("ANCHORFS_DEBUG_ROUNDS") != nullptr) {
      size_t big = 0, mid = 0, total = 0;
      for (uint32_t v = 0; v < vars_.size(); ++v) {
        const size_t n = vars_.count(v);
        total += n;
        big += n >= kMaxSet ? 1 : 0;
        mid += n >= 16 ? 1 : 0;
      }
      std::fprintf(stderr, "sets: full %zu, >=16 %zu, total size %zu rss %s\n", big, mid, total,
                   current_rss().c_str());
      std::fprintf(stderr,
                   "tables: call sites %zu scope vars %zu object vars %zu element vars %zu values "
                   "%zu\n",
                   site_calls_.size(), scope_vars_.size(), object_vars_.size(),
                   element_vars_.size(), values_.size());
    }
    if (std::getenv("ANCHORFS_DEBUG_ROUNDS") != nullptr) print_memory();
    release_evaluation_state();
    emit_edges();
  }

  // What only the rounds need goes before the edges are built, so that building them does not
  // raise the peak.
  void release_evaluation_state() {
    stmt_reads_ = ReadLists();
    std::vector<uint32_t>().swap(stmt_round_);
    std::vector<uint32_t>().swap(reads_);
    std::vector<uint32_t>().swap(expr_slot_);
    scope_vars_ = {};
    object_vars_ = {};
    element_vars_ = {};
    object_shapes_ = {};
    value_ids_ = {};
    defining_class_ = {};
    instance_vars_of_ = {};
    std::vector<uint32_t>().swap(instance_vars_pool_);
    arg_storage_.clear();
    std::vector<std::vector<uint32_t>>().swap(mro_);
  }

  // Debug output only: the resolver's largest tables, in MB of capacity.
  void print_memory() const {
    const auto mb = [](size_t bytes) { return static_cast<double>(bytes) / (1 << 20); };
    const auto vec = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    size_t more = 0;
    for (const auto& m : more_callees_) more += vec(m);
    std::fprintf(
        stderr,
        "memory MB: vars %.1f reads %.1f stmt ticks %.1f expr slots %.1f call sites %.1f+%.1f "
        "scope vars %.1f object vars %.1f element vars %.1f values %.1f+%.1f "
        "class cache %.1f+%.1f strings %.1f\n",
        mb(vars_.bytes()), mb(stmt_reads_.bytes()), mb(vec(stmt_round_)), mb(vec(expr_slot_)),
        mb(vec(site_calls_)), mb(more), mb(scope_vars_.bytes()), mb(object_vars_.bytes()),
        mb(element_vars_.bytes()), mb(vec(values_)), mb(value_ids_.bytes()),
        mb(defining_class_.bytes()), mb(instance_vars_of_.bytes() + vec(instance_vars_pool_)),
        mb(vec(gstr_) + vec(strings_by_id_)));
  }

 private:
  // ---- indexing -----------------------------------------------------------------------------

  uint32_t global_string(std::string_view s) {
    const auto [it, inserted] = strings_.try_emplace(s, static_cast<uint32_t>(strings_.size()));
    if (inserted) strings_by_id_.push_back(s);
    return it->second;
  }

  void index_files() {
    files_.resize(input_.files.size());
    size_t call_count = 0;
    for (uint32_t f = 0; f < files_.size(); ++f) {
      const FileFacts& facts = *input_.files[f].facts;
      FileRec& rec = files_[f];
      rec.facts = &facts;
      rec.entity = input_.files[f].entity;
      rec.scope_base = static_cast<uint32_t>(scopes_.size());
      rec.expr_base = expr_count_;
      rec.str_base = static_cast<uint32_t>(gstr_.size());
      rec.module = modules_.module_of_file(f);
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
        r.parent = scope.parent == kNone ? kNone : rec.scope_base + scope.parent;
        r.kind = scope.kind;
        r.flags = scope.flags;
        r.name = scope.name == kNone ? kNone : gstr_[rec.str_base + scope.name];
        scopes_.push_back(r);
      }
    }
    expr_slot_.assign(expr_count_, kNone);
    site_calls_.reserve(call_count);  // most call sites resolve to something
    ret_var_.assign(scopes_.size(), kNone);
    yield_var_.assign(scopes_.size(), kNone);
    bases_.assign(scopes_.size(), {});
    mro_.assign(scopes_.size(), {});
    mro_state_.assign(scopes_.size(), 0);
    mro_built_.assign(scopes_.size(), 0);
    instance_value_.assign(scopes_.size(), kNone);
    scope_shape_.assign(scopes_.size(), kNone);
    attribute_shape_.assign(scopes_.size(), kNone);
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
    const std::pair<uint8_t, std::vector<std::string_view>> roles[] = {
        {kAdd, {"append", "add", "appendleft", "put", "put_nowait"}},
        {kExtend, {"extend", "update", "extendleft"}},
        {kInsert, {"insert", "setdefault"}},
        {kGet, {"get", "pop", "popitem", "popleft", "setdefault", "get_nowait"}},
        {kView, {"values", "keys", "items", "copy"}},
    };
    std::vector<std::pair<uint32_t, uint8_t>> named;
    for (const auto& [role, names] : roles) {
      for (std::string_view m : names) named.emplace_back(global_string(m), role);
    }
    name_roles_.assign(strings_.size(), 0);
    for (const auto& [name, role] : named) name_roles_[name] |= role;
    // Every name is interned by now; strings_by_id_ is the table from here on.
    std::unordered_map<std::string_view, uint32_t>().swap(strings_);
  }

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
    if (instance_vars_generation_ != mro_generation_) {
      instance_vars_generation_ = mro_generation_;
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

  void bind(uint32_t scope, uint32_t name) {
    if (declared_global_.contains(key(scope, name))) {
      const uint32_t module = module_scope(scopes_[scope].file);
      alias_var(scope, name, scope_var(module, name));
      return;
    }
    if (declared_nonlocal_.contains(key(scope, name))) return;
    scope_var(scope, name);
  }

  void bind_target(uint32_t f, uint32_t scope, uint32_t e, int depth = 0) {
    if (depth > kMaxEvalDepth) return;
    const Expr& x = expr_at(f, e);
    switch (x.kind) {
      case ExprKind::Name:
        bind(scope, gs(f, x.str));
        break;
      case ExprKind::ScopedName:
        bind(gscope(f, x.a), gs(f, x.str));
        break;
      case ExprKind::Tuple:
      case ExprKind::Container:
        for (uint32_t i = 0; i < x.list_count; ++i) {
          bind_target(f, scope, list_item(f, x.list_begin + i), depth + 1);
        }
        break;
      case ExprKind::Star:
        bind_target(f, scope, x.a, depth + 1);
        break;
      default:
        break;
    }
  }

  void collect_stored_names(uint32_t f, uint32_t e, int depth) {
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

  void bind_names() {
    module_names_.assign(files_.size(), {});
    for (uint32_t f = 0; f < files_.size(); ++f) {
      for (const Stmt& s : facts(f).stmts) {
        if (s.kind == StmtKind::Global)
          declared_global_.insert(key(gscope(f, s.scope), gs(f, s.str)));
        if (s.kind == StmtKind::Nonlocal) {
          declared_nonlocal_.insert(key(gscope(f, s.scope), gs(f, s.str)));
        }
      }
    }
    for (uint32_t f = 0; f < files_.size(); ++f) {
      const FileFacts& ff = facts(f);
      for (const Stmt& s : ff.stmts) {
        if (s.kind == StmtKind::Assign) collect_stored_names(f, s.a, 0);
      }
      for (uint32_t s = 1; s < ff.scopes.size(); ++s) {
        const Scope& sc = ff.scopes[s];
        for (uint32_t p = 0; p < sc.params_count; ++p) {
          bind(gscope(f, s), gs(f, ff.params[sc.params_begin + p].name));
        }
      }
      for (const Stmt& s : ff.stmts) {
        const uint32_t scope = gscope(f, s.scope);
        switch (s.kind) {
          case StmtKind::Assign:
            bind_target(f, scope, s.a);
            break;
          case StmtKind::Define:
            bind(scope, gs(f, ff.scopes[s.a].name));
            break;
          case StmtKind::ImportModule:
          case StmtKind::ImportFrom:
            bind(scope, gs(f, s.str));
            break;
          default:
            break;
        }
      }
    }
    // nonlocal names alias the nearest enclosing function's binding.
    for (uint64_t k : declared_nonlocal_) {
      const auto scope = static_cast<uint32_t>(k >> 32);
      const auto name = static_cast<uint32_t>(k);
      for (uint32_t p = scopes_[scope].parent; p != kNone; p = scopes_[p].parent) {
        if (scopes_[p].kind == ScopeKind::Module) break;
        if (scopes_[p].kind == ScopeKind::Class) continue;
        const uint32_t v = find_var(p, name);
        if (v != kNone) {
          alias_var(static_cast<uint32_t>(k >> 32), static_cast<uint32_t>(k), v);
          break;
        }
      }
    }
  }

  // Names a module exports to `from m import *`.
  std::vector<uint32_t> exports(uint32_t f) {
    const FileFacts& ff = facts(f);
    std::vector<uint32_t> out;
    if (ff.has_all) {
      for (uint32_t s : ff.all_names) out.push_back(gs(f, s));
    } else {
      for (uint32_t name : module_names_[f]) {
        if (!strings_by_id_[name].starts_with('_')) out.push_back(name);
      }
    }
    return out;
  }

  void expand_star_imports() {
    struct Star {
      uint32_t file, scope, from_file;
    };
    std::vector<Star> stars;
    for (uint32_t f = 0; f < files_.size(); ++f) {
      for (const Stmt& s : facts(f).stmts) {
        if (s.kind != StmtKind::ImportStar) continue;
        const auto m = modules_.resolve(f, facts(f).strings[s.a]);
        if (!m) continue;
        const uint32_t target = modules_.modules()[*m].file;
        if (target != kNone && target != f) stars.push_back({f, gscope(f, s.scope), target});
        if (target != kNone) import_edges_.insert(key(f, target));
      }
    }
    // Star imports chain (a re-exports b's names): repeat until no module gains names.
    std::unordered_set<uint64_t> copied;
    for (int pass = 0; pass < 16; ++pass) {
      bool grew = false;
      for (const Star& st : stars) {
        for (uint32_t name : exports(st.from_file)) {
          const uint32_t src = find_var(module_scope(st.from_file), name);
          if (src == kNone) continue;
          const bool fresh = find_var(st.scope, name) == kNone;
          const uint32_t dst = scope_var(st.scope, name);
          if (copied.insert(key(dst, src)).second) copies_.push_back({st.file, dst, src});
          grew = grew || fresh;
        }
      }
      if (!grew) break;
    }
  }

  void bind_imports() {
    for (uint32_t f = 0; f < files_.size(); ++f) {
      const FileFacts& ff = facts(f);
      for (const Stmt& s : ff.stmts) {
        const uint32_t scope = gscope(f, s.scope);
        if (s.kind == StmtKind::ImportModule) {
          std::optional<uint32_t> top;
          const auto m = modules_.resolve(f, ff.strings[s.a], &top);
          if (!m) continue;
          const uint32_t target_file = modules_.modules()[*m].file;
          if (target_file != kNone && target_file != f) import_edges_.insert(key(f, target_file));
          const auto bound = s.b == 1 ? top : m;
          if (bound) merge(find_var(scope, gs(f, s.str)), {value(VK::Module, *bound)});
        } else if (s.kind == StmtKind::ImportFrom) {
          const auto m = modules_.resolve(f, ff.strings[s.a]);
          if (!m) continue;
          const uint32_t dst = find_var(scope, gs(f, s.str));
          const uint32_t name = gs(f, s.b);
          if (const auto sub = modules_.submodule(*m, ff.strings[s.b])) {
            merge(dst, {value(VK::Module, *sub)});
            const uint32_t sub_file = modules_.modules()[*sub].file;
            if (sub_file != kNone && sub_file != f) import_edges_.insert(key(f, sub_file));
            continue;
          }
          const uint32_t from_file = modules_.modules()[*m].file;
          if (from_file == kNone) continue;
          const uint32_t src = find_var(module_scope(from_file), name);
          if (src != kNone && src != dst) copies_.push_back({f, dst, src});
          from_imports_.push_back({f, from_file, dst});
        }
      }
    }
  }

  // Files are evaluated imported-first (a depth-first post-order over import edges, from files
  // in path order): definitions are mostly known before their users run, so the fixed point
  // needs fewer re-evaluations. Deterministic, and any order gives the same fixed point.
  void order_files() {
    copies_of_file_.assign(files_.size(), {});
    for (uint32_t c = 0; c < copies_.size(); ++c) {
      copies_of_file_[copies_[c].file].push_back(c);
    }
    std::vector<std::vector<uint32_t>> imports(files_.size());
    std::vector<uint64_t> sorted(import_edges_.begin(), import_edges_.end());
    std::sort(sorted.begin(), sorted.end());
    for (uint64_t k : sorted) imports[k >> 32].push_back(static_cast<uint32_t>(k));
    std::vector<uint8_t> state(files_.size(), 0);
    std::vector<std::pair<uint32_t, size_t>> stack;
    evaluation_order_.clear();
    for (uint32_t root = 0; root < files_.size(); ++root) {
      if (state[root] != 0) continue;
      state[root] = 1;
      stack.push_back({root, 0});
      while (!stack.empty()) {
        auto& [file, next] = stack.back();
        if (next < imports[file].size()) {
          const uint32_t dep = imports[file][next++];
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

  // *args and **kwargs parameters hold a tuple and a dict that calls fill.
  void seed_variadic_params() {
    for (uint32_t g = 0; g < scopes_.size(); ++g) {
      const ScopeRec& s = scopes_[g];
      if (s.kind != ScopeKind::Function && s.kind != ScopeKind::Lambda) continue;
      const FileFacts& ff = facts(s.file);
      const Scope& sc = ff.scopes[s.local];
      for (uint32_t p = 0; p < sc.params_count; ++p) {
        const Param& param = ff.params[sc.params_begin + p];
        if (param.kind == ParamKind::VarPositional) {
          merge(find_var(g, gs(s.file, param.name)), {value(VK::Container, varargs_site(g))});
        } else if (param.kind == ParamKind::VarKeyword) {
          merge(find_var(g, gs(s.file, param.name)), {value(VK::Container, varkw_site(g))});
        }
      }
    }
  }

  // A method's first parameter is an instance of its class (the class itself for classmethods),
  // even when no call in the repository reaches it.
  void seed_receivers() {
    for (uint32_t g = 0; g < scopes_.size(); ++g) {
      const ScopeRec& s = scopes_[g];
      if (s.kind != ScopeKind::Function || s.parent == kNone) continue;
      if (scopes_[s.parent].kind != ScopeKind::Class || (s.flags & kStaticMethod) != 0) continue;
      const uint32_t first = first_positional_param(g);
      if (first == kNone) continue;
      const bool on_class = (s.flags & kClassMethod) != 0 || s.name == s_new_ ||
                            s.name == s_init_subclass_ || s.name == s_class_getitem_;
      const uint32_t receiver = on_class ? value(VK::Class, s.parent) : instance_of(s.parent);
      merge(first, {receiver});
      receiver_seed_.emplace(first, receiver);
    }
  }

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
  void find_wrappers() {
    find_identities();
    wrapper_of_.assign(scopes_.size(), kNone);
    for (uint32_t f = 0; f < files_.size(); ++f) {
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

  // Functions whose every return gives back one of their positional parameters unchanged
  // (`def public(obj): ...; return obj`, `return self`): a call's value is that argument of the
  // call itself, so such helpers do not merge what all their callers pass.
  void find_identities() {
    returned_param_.assign(scopes_.size(), kNone);
    std::vector<uint8_t> spoiled(scopes_.size(), 0);
    for (uint32_t f = 0; f < files_.size(); ++f) {
      const FileFacts& ff = facts(f);
      for (const Stmt& s : ff.stmts) {
        if (s.scope == 0) continue;
        const uint32_t g = gscope(f, s.scope);
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
        const Expr& r = ff.exprs[s.b];
        uint32_t index = kNone;
        if (r.kind == ExprKind::Name) {
          for (uint32_t p = 0; p < sc.params_count; ++p) {
            const Param& param = ff.params[sc.params_begin + p];
            if (param.kind == ParamKind::Positional && param.name == r.str) index = p;
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
    for (uint32_t f = 0; f < files_.size(); ++f) {
      const FileFacts& ff = facts(f);
      for (const Stmt& s : ff.stmts) {
        const uint32_t g = gscope(f, s.scope);
        if (returned_param_[g] == kNone || spoiled[g] == 1) continue;
        if (s.kind != StmtKind::Assign && s.kind != StmtKind::Global &&
            s.kind != StmtKind::Nonlocal) {
          continue;
        }
        const Scope& sc = ff.scopes[s.scope];
        const uint32_t param = ff.params[sc.params_begin + returned_param_[g]].name;
        if (s.kind != StmtKind::Assign ? s.str == param
                                       : (spoiled[g] == 2 || expr_names(ff, s.a, param, 0))) {
          spoiled[g] = 1;
        }
      }
    }
    for (uint32_t g = 0; g < scopes_.size(); ++g) {
      if (spoiled[g] == 1) returned_param_[g] = kNone;
    }
  }

  static bool expr_names(const FileFacts& ff, uint32_t e, uint32_t name, int depth) {
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

  // The value of calling `function` with `args` (and `receiver` bound to its first parameter).
  Set call_result(uint32_t function, uint32_t receiver, const Args& args, int depth) {
    const uint32_t index = returned_param_[function];
    if (index == kNone) return result_of(function, depth);
    if (receiver != kNone) {
      if (index == 0) return {receiver};
      return index - 1 < args.positional.size() ? args.positional[index - 1] : Set{};
    }
    return index < args.positional.size() ? args.positional[index] : Set{};
  }

  // Whether some statement of scope `w` calls a plain name spelled like string `name`.
  bool calls_name(uint32_t f, uint32_t w, uint32_t name) const {
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

  static bool expr_calls_name(const FileFacts& ff, uint32_t e, uint32_t name, int depth) {
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

  // ---- classes ------------------------------------------------------------------------------

  void update_bases() {
    for (uint32_t f = 0; f < files_.size(); ++f) {
      const FileFacts& ff = facts(f);
      for (uint32_t s = 1; s < ff.scopes.size(); ++s) {
        if (ff.scopes[s].kind == ScopeKind::Class) update_class_bases(f, s);
      }
    }
  }

  // Re-evaluates one class's bases (in its defining scope). Also run when the class statement
  // itself runs, so that in the first round the hierarchy is known before most lookups.
  void update_class_bases(uint32_t f, uint32_t local) {
    const Scope& sc = facts(f).scopes[local];
    if (sc.bases_count == 0) return;
    const uint32_t g = gscope(f, local);
    const Ctx ctx{f, gscope(f, sc.parent), entity_of(gscope(f, sc.parent))};
    std::vector<uint32_t> bases;
    for (uint32_t i = 0; i < sc.bases_count; ++i) {
      const Set values = eval(ctx, list_item(f, sc.bases_begin + i), 0);
      for (uint32_t v : values) {
        if (values_[v].kind != VK::Class || values_[v].a == g) continue;
        if (std::find(bases.begin(), bases.end(), values_[v].a) == bases.end()) {
          bases.push_back(values_[v].a);
        }
      }
    }
    if (bases != bases_[g]) {
      bases_[g] = std::move(bases);
      touch(scope_shape(g));
      ++mro_generation_;  // every cached MRO is recomputed when next asked for
    }
  }

  // C3 linearization; a class whose bases cannot be linearized (or form a cycle) falls back to
  // a depth-first order without repeats.
  const std::vector<uint32_t>& mro(uint32_t c, int depth = 0) {
    if (mro_state_[c] == 2 && mro_built_[c] == mro_generation_) return mro_[c];
    if (mro_state_[c] == 1 || depth > 100) {
      static const std::vector<uint32_t> kEmpty;
      return kEmpty;
    }
    mro_state_[c] = 1;
    mro_built_[c] = mro_generation_;
    std::vector<std::vector<uint32_t>> seqs;
    for (uint32_t b : bases_[c]) seqs.push_back(mro(b, depth + 1));
    seqs.push_back(bases_[c]);
    std::vector<uint32_t> result{c};
    bool failed = false;
    while (true) {
      std::erase_if(seqs, [](const std::vector<uint32_t>& s) { return s.empty(); });
      if (seqs.empty()) break;
      uint32_t pick = kNone;
      for (const auto& s : seqs) {
        const uint32_t head = s.front();
        bool in_tail = false;
        for (const auto& t : seqs) {
          if (std::find(t.begin() + 1, t.end(), head) != t.end()) in_tail = true;
        }
        if (!in_tail) {
          pick = head;
          break;
        }
      }
      if (pick == kNone) {
        failed = true;
        break;
      }
      result.push_back(pick);
      for (auto& s : seqs) {
        if (!s.empty() && s.front() == pick) s.erase(s.begin());
      }
    }
    if (failed) {
      result.assign(1, c);
      for (uint32_t b : bases_[c]) {
        for (uint32_t k : mro(b, depth + 1)) {
          if (std::find(result.begin(), result.end(), k) == result.end()) result.push_back(k);
        }
      }
    }
    mro_[c] = std::move(result);
    mro_state_[c] = 2;
    return mro_[c];
  }

  // The class attribute `name` as Python finds it: in the first class of the MRO (from index
  // `skip`) whose body binds it. kNone when no repository class binds it.
  uint32_t class_attribute(uint32_t c, uint32_t name, size_t skip = 0) {
    const std::vector<uint32_t>& order = mro(c);
    for (size_t i = 0; i < skip && i < order.size(); ++i) note_read(scope_shape(order[i]));
    for (size_t i = 0; i < order.size(); ++i) read_attribute_shape(order[i], name);
    const size_t at = skip == 0 ? defining_class(c, name, order) : first_binding(order, name, skip);
    for (size_t i = skip; i < order.size() && i <= at; ++i) note_read(scope_shape(order[i]));
    return at < order.size() ? find_var(order[at], name) : kNone;
  }

  // The index of the first class in `order` from `skip` on whose body binds `name`, or
  // order.size().
  size_t first_binding(const std::vector<uint32_t>& order, uint32_t name, size_t skip) const {
    for (size_t i = skip; i < order.size(); ++i) {
      if (find_var(order[i], name) != kNone) return i;
    }
    return order.size();
  }

  // first_binding(mro(c), name, 0), remembered: attribute lookups walk the same long MROs
  // (sympy's Basic hierarchy) over and over. The answer changes only with the MRO or when a
  // class gains a variable, and both empty the cache.
  size_t defining_class(uint32_t c, uint32_t name, const std::vector<uint32_t>& order) {
    if (class_cache_epoch_ != mro_generation_ + class_vars_created_) {
      class_cache_epoch_ = mro_generation_ + class_vars_created_;
      defining_class_.clear();
    }
    const auto [index, inserted] = defining_class_.try_emplace(key(c, name), 0);
    if (inserted) *index = static_cast<uint32_t>(first_binding(order, name, 0));
    return *index;
  }

  // A class attribute's values as seen through `receiver` (an instance or class value).
  void bind_method(uint32_t v, uint32_t receiver, Set& out, int depth) {
    const Value val = values_[v];
    if (val.kind == VK::Wrapped && depth < kMaxEvalDepth) {
      const Value inner = values_[val.b];
      if (inner.kind == VK::Function && (scopes_[inner.a].flags & kProperty) != 0) {
        bind_method(val.b, receiver, out, depth + 1);
        return;
      }
      Set bound;
      bind_method(val.b, receiver, bound, depth + 1);
      for (uint32_t b : bound) insert(out, value(VK::Wrapped, val.a, b));
      return;
    }
    if (val.kind != VK::Function) {
      insert(out, v);
      return;
    }
    const uint8_t flags = scopes_[val.a].flags;
    const Value recv = values_[receiver];
    if ((flags & kStaticMethod) != 0) {
      insert(out, v);
    } else if ((flags & kClassMethod) != 0) {
      const uint32_t cls = recv.kind == VK::Instance ? value(VK::Class, recv.a) : receiver;
      insert(out, value(VK::Bound, val.a, cls));
    } else if (recv.kind == VK::Instance && (flags & kProperty) != 0) {
      unite(out, returns_of(val.a, depth));
    } else if (recv.kind == VK::Instance) {
      insert(out, value(VK::Bound, val.a, receiver));
    } else {
      insert(out, v);
    }
  }

  Set returns_of(uint32_t function, int /*depth*/) { return read(lazy_var(ret_var_, function)); }

  // ---- evaluation ---------------------------------------------------------------------------

  // A change since the statement last ran happened this round or the last: had it happened
  // earlier, the statement's check in the last round would have found it (every round checks
  // every statement, and a statement run in the last round ran after anything before it). So
  // only recently changed variables need their tick compared.
  bool stale(uint32_t stmt) const {
    if (full_round_) return true;
    const uint32_t since = stmt_round_[stmt];
    return stmt_reads_.any_of(stmt, [&](uint32_t var) {
      return vars_.recently_changed(var) && vars_.changed(var) >= since;
    });
  }

  void evaluate_file(uint32_t f) {
    for (uint32_t c : copies_of_file_[f]) merge(copies_[c].dst, vars_.get(copies_[c].src));
    const FileFacts& ff = facts(f);
    for (uint32_t i = 0; i < ff.stmts.size(); ++i) {
      const uint32_t stmt = files_[f].stmt_base + i;
      if (!stale(stmt)) continue;
      ++evaluated_;
      reads_.clear();
      // Each evaluation gets a fresh tick: changes stamped before it were already seen.
      stmt_round_[stmt] = ++round_;
      evaluate_statement(f, ff.stmts[i]);
      stmt_reads_.store(stmt, reads_);
    }
  }

  void evaluate_statement(uint32_t f, const Stmt& s) {
    {
      const uint32_t scope = gscope(f, s.scope);
      const Ctx ctx{f, scope, entity_of(scope)};
      switch (s.kind) {
        case StmtKind::Assign: {
          const Set v = eval(ctx, s.b, 0);
          assign(ctx, s.a, v, 0);
          break;
        }
        case StmtKind::Return:
        case StmtKind::Yield: {
          const Set v = eval(ctx, s.b, 0);
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

  void define(const Ctx& ctx, uint32_t local_scope) {
    const uint32_t f = ctx.file;
    const Scope& sc = facts(f).scopes[local_scope];
    const uint32_t g = gscope(f, local_scope);
    Set current{value(sc.kind == ScopeKind::Class ? VK::Class : VK::Function, g)};
    // Decorators apply bottom-up; an unresolvable decorator (or one whose result is unknown)
    // leaves the definition itself in place.
    for (uint32_t i = sc.decorators_count; i-- > 0;) {
      const Set decorator = eval(ctx, list_item(f, sc.decorators_begin + i), 0);
      if (decorator.empty()) continue;
      Set result;
      Set general;
      for (uint32_t d : decorator) {
        const Value dv = values_[d];
        const uint32_t wrapper = dv.kind == VK::Function ? wrapper_of_[dv.a] : kNone;
        if (wrapper == kNone) {
          general.insert(d);
          continue;
        }
        // A closure-returning decorator: each decorated definition gets its own wrapper value,
        // so the wrapper's call of the wrapped function stays specific to it.
        call_edges_.insert(key(ctx.caller, entity_of(dv.a)));
        for (uint32_t v : current) insert(result, value(VK::Wrapped, wrapper, v));
      }
      if (!general.empty()) {
        const ArgFrame frame(*this);
        Args args(frame.storage());
        args.positional.push_back(current);
        unite(result, call_values(ctx, general, args, kNone, 0));
      }
      if (!result.empty()) current = std::move(result);
    }
    merge(find_var(ctx.scope, scopes_[g].name), current);
    if (sc.kind == ScopeKind::Class) update_class_bases(f, local_scope);
  }

  uint32_t lookup(const Ctx& ctx, uint32_t e, uint32_t name) {
    uint32_t& cached = expr_slot_[files_[ctx.file].expr_base + e];
    if (cached != kNone) return cached;
    uint32_t found = find_var(ctx.scope, name);
    for (uint32_t p = scopes_[ctx.scope].parent; found == kNone && p != kNone;
         p = scopes_[p].parent) {
      if (scopes_[p].kind == ScopeKind::Class) continue;
      found = find_var(p, name);
    }
    cached = found == kNone ? kUnresolved : found;
    return cached;
  }

  std::optional<Builtin> builtin(uint32_t name) const {
    for (size_t b = 0; b < builtin_ids_.size(); ++b) {
      if (builtin_ids_[b] == name) return static_cast<Builtin>(b);
    }
    return std::nullopt;
  }

  Set eval(const Ctx& ctx, uint32_t e, int depth) {
    if (e == kNone || depth > kMaxEvalDepth) return {};
    const uint32_t f = ctx.file;
    const Expr x = expr_at(f, e);
    Set out;
    switch (x.kind) {
      case ExprKind::Opaque:
        for (uint32_t i = 0; i < x.list_count; ++i)
          eval(ctx, list_item(f, x.list_begin + i), depth + 1);
        break;
      case ExprKind::Name: {
        const uint32_t name = gs(f, x.str);
        const uint32_t var = lookup(ctx, e, name);
        if (var != kUnresolved) return read(var);
        if (const auto b = builtin(name)) out.insert(value(VK::Builtin, static_cast<uint32_t>(*b)));
        break;
      }
      case ExprKind::ScopedName: {
        const uint32_t var = find_var(gscope(f, x.a), gs(f, x.str));
        if (var != kNone) return read(var);
        break;
      }
      case ExprKind::Attribute: {
        const Set objects = eval(ctx, x.a, depth + 1);
        const uint32_t name = gs(f, x.str);
        for (uint32_t o : objects) attribute(o, name, out, depth);
        break;
      }
      case ExprKind::Call:
        return call(ctx, e, x, depth);
      case ExprKind::Subscript: {
        const Set objects = eval(ctx, x.a, depth + 1);
        for (uint32_t i = 0; i < x.list_count; ++i)
          eval(ctx, list_item(f, x.list_begin + i), depth + 1);
        for (uint32_t o : objects) subscript(o, out, depth);
        break;
      }
      case ExprKind::Container:
      case ExprKind::Tuple: {
        const uint32_t site = files_[f].expr_base + e;
        // The literal's value, once its first evaluation has made it.
        uint32_t& made = expr_slot_[site];
        const uint32_t elements = made == kNone ? elements_var(site) : elements_of(made);
        uint32_t positions = kNone;
        if (x.kind == ExprKind::Tuple) {
          positions = positions_of(elements);
          if (made == kNone) {
            for (uint32_t i = 0; i < x.list_count; ++i) new_var();
          }
        }
        for (uint32_t i = 0; i < x.list_count; ++i) {
          const uint32_t item = list_item(f, x.list_begin + i);
          const Set v = eval(ctx, item, depth + 1);
          if (v.empty()) continue;
          merge(elements, v);
          if (positions != kNone) merge(positions + i, v);
        }
        if (made == kNone) made = value(VK::Container, site);
        out.insert(made);
        break;
      }
      case ExprKind::Alternatives:
        eval(ctx, x.a, depth + 1);
        for (uint32_t i = 0; i < x.list_count; ++i) {
          unite(out, eval(ctx, list_item(f, x.list_begin + i), depth + 1));
        }
        break;
      case ExprKind::Definition:
        out.insert(value(VK::Function, gscope(f, x.a)));
        break;
      case ExprKind::Keyword:
        return eval(ctx, x.a, depth + 1);
      case ExprKind::Star:
      case ExprKind::Iterate:
        for (uint32_t v : eval(ctx, x.a, depth + 1)) iterate(v, out, depth);
        break;
      case ExprKind::DoubleStar:
        for (uint32_t v : eval(ctx, x.a, depth + 1)) subscript(v, out, depth);
        break;
      case ExprKind::Enter:
        for (uint32_t v : eval(ctx, x.a, depth + 1)) enter(v, out, depth);
        break;
      case ExprKind::Caught:
        for (uint32_t v : eval(ctx, x.a, depth + 1)) caught(v, out);
        break;
    }
    return out;
  }

  void attribute(uint32_t o, uint32_t name, Set& out, int depth) {
    const Value obj = values_[o];
    switch (obj.kind) {
      case VK::Module: {
        const Module& m = modules_.modules()[obj.a];
        if (m.file != kNone) {
          read_attribute_shape(module_scope(m.file), name);
          const uint32_t var = find_var(module_scope(m.file), name);
          if (var != kNone) unite(out, read(var));
        }
        if (const auto sub = modules_.submodule(obj.a, strings_by_id_[name])) {
          insert(out, value(VK::Module, *sub));
        }
        break;
      }
      case VK::Class: {
        if (name == s_class_) break;
        const uint32_t var = class_attribute(obj.a, name);
        if (var == kNone) break;
        const Set found = read(var);
        for (uint32_t v : found) bind_method(v, o, out, depth);
        break;
      }
      case VK::Instance: {
        if (name == s_class_) {
          insert(out, value(VK::Class, obj.a));
          break;
        }
        // Instance attributes of every class on the MRO add up (no shadowing), so a missing
        // one is created empty and read: a later store changes exactly that variable.
        const std::vector<uint32_t>& order = mro(obj.a);
        const uint32_t* const vars = instance_vars(obj.a, name, order);
        for (size_t i = 0; i < order.size(); ++i) unite(out, read(vars[i]));
        const uint32_t var = class_attribute(obj.a, name);
        if (var == kNone) break;
        const Set found = read(var);
        for (uint32_t v : found) bind_method(v, o, out, depth);
        break;
      }
      case VK::Super: {
        uint32_t var = kNone;
        const Value recv = values_[obj.b];
        if (recv.kind == VK::Instance || recv.kind == VK::Class) {
          const std::vector<uint32_t>& order = mro(recv.a);
          const auto at = std::find(order.begin(), order.end(), obj.a);
          if (at != order.end()) {
            var = class_attribute(recv.a, name, static_cast<size_t>(at - order.begin()) + 1);
          }
        }
        if (var == kNone) var = class_attribute(obj.a, name, 1);
        if (var == kNone) break;
        const Set found = read(var);
        for (uint32_t v : found) bind_method(v, obj.b, out, depth);
        break;
      }
      case VK::Function: {
        note_read(object_shape(o));
        if (const uint32_t* var = object_vars_.find(key(o, name))) unite(out, read(*var));
        break;
      }
      default:
        break;
    }
  }

  // Calls a special method of an instance's class without recording an edge (implicit calls).
  Set implicit(uint32_t instance_class, uint32_t method, int depth) {
    Set out;
    const uint32_t var = class_attribute(instance_class, method);
    if (var == kNone) return out;
    const Set found = read(var);
    for (uint32_t v : found) {
      if (values_[v].kind == VK::Function) unite(out, result_of(values_[v].a, depth));
    }
    return out;
  }

  Set result_of(uint32_t function, int depth) {
    if ((scopes_[function].flags & kGenerator) != 0) return {value(VK::Generator, function)};
    return returns_of(function, depth);
  }

  void iterate(uint32_t v, Set& out, int depth) {
    const Value val = values_[v];
    switch (val.kind) {
      case VK::Container:
        unite(out, read(elements_of(v)));
        break;
      case VK::Generator:
        unite(out, read(lazy_var(yield_var_, val.a)));
        break;
      case VK::Instance:
        if (depth > 2) break;
        for (uint32_t it : implicit(val.a, s_iter_, depth)) {
          const Value iv = values_[it];
          if (iv.kind == VK::Instance) {
            unite(out, implicit(iv.a, s_next_, depth));
          } else {
            iterate(it, out, depth + 1);
          }
        }
        break;
      default:
        break;
    }
  }

  void subscript(uint32_t v, Set& out, int depth) {
    const Value val = values_[v];
    if (val.kind == VK::Container) {
      unite(out, read(elements_of(v)));
    } else if (val.kind == VK::Instance) {
      unite(out, implicit(val.a, s_getitem_, depth));
    } else if (val.kind == VK::Class) {
      insert(out, v);  // Generic[...] aliases stand for the class
    }
  }

  void enter(uint32_t v, Set& out, int depth) {
    const Value val = values_[v];
    if (val.kind == VK::Instance) {
      unite(out, implicit(val.a, s_enter_, depth));
    } else if (val.kind == VK::Generator) {
      unite(out, read(lazy_var(yield_var_, val.a)));  // a @contextmanager generator
    }
  }

  void caught(uint32_t v, Set& out) {
    const Value val = values_[v];
    if (val.kind == VK::Class) {
      insert(out, instance_of(val.a));
    } else if (val.kind == VK::Container) {
      const Set elements = read(elements_of(v));
      for (uint32_t c : elements) {
        if (values_[c].kind == VK::Class) insert(out, instance_of(values_[c].a));
      }
    }
  }

  void assign(const Ctx& ctx, uint32_t target, const Set& v, int depth) {
    if (depth > kMaxEvalDepth) return;
    const uint32_t f = ctx.file;
    const Expr x = expr_at(f, target);
    switch (x.kind) {
      case ExprKind::Name: {
        const uint32_t var = lookup(ctx, target, gs(f, x.str));
        if (var != kUnresolved) merge(var, v);
        break;
      }
      case ExprKind::ScopedName: {
        const uint32_t var = find_var(gscope(f, x.a), gs(f, x.str));
        if (var != kNone) merge(var, v);
        break;
      }
      case ExprKind::Attribute: {
        const Set objects = eval(ctx, x.a, depth + 1);
        const uint32_t name = gs(f, x.str);
        for (uint32_t o : objects) store_attribute(o, name, v);
        break;
      }
      case ExprKind::Subscript: {
        const Set objects = eval(ctx, x.a, depth + 1);
        for (uint32_t i = 0; i < x.list_count; ++i)
          eval(ctx, list_item(f, x.list_begin + i), depth + 1);
        for (uint32_t o : objects) {
          if (values_[o].kind == VK::Container) merge(elements_of(o), v);
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

  void unpack(const Ctx& ctx, const Expr& pattern, const Set& v, int depth) {
    const uint32_t f = ctx.file;
    bool starred = false;
    for (uint32_t i = 0; i < pattern.list_count; ++i) {
      if (expr_at(f, list_item(f, pattern.list_begin + i)).kind == ExprKind::Star) starred = true;
    }
    // Element-wise for a literal of the same length; otherwise every target may get any element.
    std::vector<Set> per_target(pattern.list_count);
    for (uint32_t c : v) {
      const Value val = values_[c];
      bool matched = false;
      if (val.kind == VK::Container && !starred) {
        const Expr* literal = container_literal(val.a);
        if (literal != nullptr && literal->kind == ExprKind::Tuple &&
            literal->list_count == pattern.list_count) {
          const uint32_t positions = positions_of(elements_of(c));
          for (uint32_t i = 0; i < pattern.list_count; ++i) {
            unite(per_target[i], read(positions + i));
          }
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

  // The literal expression at a global expression id (containers are keyed by their site).
  const Expr* container_literal(uint32_t site) const {
    const auto it = std::upper_bound(files_.begin(), files_.end(), site,
                                     [](uint32_t s, const FileRec& r) { return s < r.expr_base; });
    if (it == files_.begin()) return nullptr;
    const FileRec& rec = *(it - 1);
    const uint32_t local = site - rec.expr_base;
    if (local >= rec.facts->exprs.size()) return nullptr;
    return &rec.facts->exprs[local];
  }

  void store_attribute(uint32_t o, uint32_t name, const Set& v) {
    const Value obj = values_[o];
    switch (obj.kind) {
      case VK::Module: {
        const uint32_t file = modules_.modules()[obj.a].file;
        if (file != kNone) merge(scope_var(module_scope(file), name), v);
        break;
      }
      case VK::Class:
        merge(scope_var(obj.a, name), v);
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

  void evaluate_args(const Ctx& ctx, const Expr& call_expr, int depth, Args& args) {
    const uint32_t f = ctx.file;
    for (uint32_t i = 0; i < call_expr.list_count; ++i) {
      const uint32_t a = list_item(f, call_expr.list_begin + i);
      const Expr& ax = expr_at(f, a);
      if (ax.kind == ExprKind::Keyword) {
        args.keywords.emplace_back(gs(f, ax.str), eval(ctx, ax.a, depth + 1));
      } else if (ax.kind == ExprKind::Star || ax.kind == ExprKind::DoubleStar) {
        const Set v = eval(ctx, ax.a, depth + 1);
        for (uint32_t c : v) {
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

  Set call(const Ctx& ctx, uint32_t e, const Expr& x, int depth) {
    const uint32_t f = ctx.file;
    const Set callees = eval(ctx, x.a, depth + 1);
    const ArgFrame frame(*this);
    Args args(frame.storage());
    evaluate_args(ctx, x, depth, args);
    Set out = call_values(ctx, callees, args, files_[f].expr_base + e, depth);
    // Methods of container literals move values in and out of their elements.
    const Expr& callee = expr_at(f, x.a);
    if (callee.kind == ExprKind::Attribute) {
      const uint32_t method = gs(f, callee.str);
      if ((name_roles_[method] & kContainerMethod) != 0) {
        const Set objects = eval(ctx, callee.a, depth + 1);
        for (uint32_t o : objects) {
          if (values_[o].kind != VK::Container) continue;
          container_method(values_[o].a, o, method, args, out, depth);
        }
      }
    }
    return out;
  }

  void container_method(uint32_t site, uint32_t container, uint32_t method, const Args& args,
                        Set& out, int depth) {
    const uint32_t elements = elements_of(container);
    const auto& pos = args.positional;
    const uint8_t roles = name_roles_[method];
    if ((roles & kAdd) != 0 && !pos.empty()) merge(elements, pos[0]);
    if ((roles & kInsert) != 0 && pos.size() >= 2) merge(elements, pos[1]);
    if ((roles & kExtend) != 0 && !pos.empty()) {
      Set items;
      for (uint32_t v : pos[0]) iterate(v, items, depth);
      merge(elements, items);
    }
    if ((roles & kGet) != 0) unite(out, read(elements));
    if ((roles & kView) != 0 && method != s_items_) insert(out, container);
    if (method == s_items_) {
      // items() iterates as pairs: a view whose elements are the dict itself, so unpacking an
      // element (`for k, v in d.items()`) gives any key or value.
      const uint32_t view = items_site(site);
      merge(elements_var(view), {container});
      insert(out, value(VK::Container, view));
    }
  }

  // Parameters are bound during setup and never rebound (rounds create variables in classes
  // and modules only): the positional ones are looked up once.
  void index_params() {
    param_summary_.assign(scopes_.size(), {});
    for (uint32_t f = 0; f < files_.size(); ++f) {
      const FileFacts& ff = facts(f);
      for (uint32_t s = 0; s < ff.scopes.size(); ++s) {
        const Scope& sc = ff.scopes[s];
        const uint32_t g = gscope(f, s);
        ParamSummary& summary = param_summary_[g];
        summary.positional_begin = static_cast<uint32_t>(positional_vars_.size());
        for (uint32_t p = 0; p < sc.params_count; ++p) {
          const Param& param = ff.params[sc.params_begin + p];
          const uint32_t var = find_var(g, gs(f, param.name));
          if (param.kind == ParamKind::Positional) positional_vars_.push_back(var);
          summary.varargs = summary.varargs || param.kind == ParamKind::VarPositional;
          summary.varkw = summary.varkw || param.kind == ParamKind::VarKeyword;
        }
        summary.positional_count =
            static_cast<uint32_t>(positional_vars_.size()) - summary.positional_begin;
      }
    }
  }

  void flow_arguments(uint32_t function, uint32_t receiver, const Args& args) {
    const ScopeRec& s = scopes_[function];
    const FileFacts& ff = facts(s.file);
    const Scope& sc = ff.scopes[s.local];
    const ParamSummary& summary = param_summary_[function];
    const uint32_t* const positional_params = positional_vars_.data() + summary.positional_begin;
    const size_t positional_count = summary.positional_count;
    const bool has_varargs = summary.varargs, has_varkw = summary.varkw;
    size_t next_positional = 0;
    // The receiver flows into `self` (so `self.m()` reaches the overrides of the instances that
    // really get there); `self` keeps its seed when that widens it (see merge).
    if (receiver != kNone) {
      if (positional_count == 0) return;
      merge(positional_params[0], {receiver});
      next_positional = 1;
    }
    for (const Set& a : args.positional) {
      if (next_positional < positional_count) {
        merge(positional_params[next_positional++], a);
      } else if (has_varargs) {
        merge(elements_var(varargs_site(function)), a);
      }
    }
    if (has_varargs && !args.starred.empty()) {
      merge(elements_var(varargs_site(function)), args.starred);
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
      if (!matched && has_varkw) merge(elements_var(varkw_site(function)), values);
    }
    if (!args.double_starred.empty()) {
      // `f(**d)`: any value of d may bind any parameter that a keyword could name.
      for (uint32_t p = 0; p < sc.params_count; ++p) {
        const Param& param = ff.params[sc.params_begin + p];
        const bool nameable = param.kind == ParamKind::KeywordOnly ||
                              (param.kind == ParamKind::Positional && p >= next_positional);
        if (nameable) merge(find_var(function, gs(s.file, param.name)), args.double_starred);
      }
      if (has_varkw) merge(elements_var(varkw_site(function)), args.double_starred);
    }
  }

  // Edges of one call site are kept apart until the end: a site resolving to too many targets
  // is dropped as too imprecise. Calls without a site (decorators, wrappers) are direct edges.
  void record_call(const Ctx& ctx, uint32_t function, uint32_t site) {
    const EntityIndex callee = entity_of(function);
    if (site == kNone) {
      call_edges_.insert(key(ctx.caller, callee));
      return;
    }
    uint32_t& slot = expr_slot_[site];
    if (slot == kNone) {
      slot = static_cast<uint32_t>(site_calls_.size());
      site_calls_.push_back({ctx.caller, callee, kNone});
      return;
    }
    SiteCalls& calls = site_calls_[slot];
    if (calls.more == kNone) {
      if (calls.callee == callee) return;
      calls.more = static_cast<uint32_t>(more_callees_.size());
      more_callees_.push_back({std::min(calls.callee, callee), std::max(calls.callee, callee)});
      return;
    }
    std::vector<uint32_t>& callees = more_callees_[calls.more];
    const auto it = std::lower_bound(callees.begin(), callees.end(), callee);
    if (it == callees.end() || *it != callee) callees.insert(it, callee);
  }

  // Calls every value in `callees`; `site` identifies the call for values it creates.
  Set call_values(const Ctx& ctx, const Set& callees, const Args& args, uint32_t site, int depth) {
    Set out;
    for (uint32_t c : callees) {
      const Value v = values_[c];
      switch (v.kind) {
        case VK::Function:
          record_call(ctx, v.a, site);
          flow_arguments(v.a, kNone, args);
          unite(out, call_result(v.a, kNone, args, depth));
          break;
        case VK::Bound:
          record_call(ctx, v.a, site);
          flow_arguments(v.a, v.b, args);
          unite(out, call_result(v.a, v.b, args, depth));
          break;
        case VK::Class: {
          const uint32_t instance = instance_of(v.a);
          const uint32_t init = class_attribute(v.a, s_init_);
          bool called_init = false;
          if (init != kNone) {
            const Set found = read(init);
            for (uint32_t m : found) {
              if (values_[m].kind != VK::Function) continue;
              record_call(ctx, values_[m].a, site);
              flow_arguments(values_[m].a, instance, args);
              called_init = true;
            }
          }
          if (!called_init) record_call(ctx, v.a, site);
          insert(out, instance);
          break;
        }
        case VK::Instance: {
          const uint32_t var = class_attribute(v.a, s_call_);
          if (var == kNone) break;
          const Set found = read(var);
          for (uint32_t m : found) {
            if (values_[m].kind != VK::Function) continue;
            record_call(ctx, values_[m].a, site);
            flow_arguments(values_[m].a, c, args);
            unite(out, call_result(values_[m].a, c, args, depth));
          }
          break;
        }
        case VK::Wrapped: {
          record_call(ctx, v.a, site);
          if (depth > kMaxEvalDepth) break;
          const Ctx inner{scopes_[v.a].file, v.a, entity_of(v.a)};
          unite(out, call_values(inner, {v.b}, args, kNone, depth + 1));
          break;
        }
        case VK::Builtin:
          call_builtin(ctx, static_cast<Builtin>(v.a), args, site, out, depth);
          break;
        default:
          break;
      }
    }
    return out;
  }

  // The class whose method body (possibly through nested lambdas/comprehensions) holds `scope`,
  // and whether that method receives the class rather than an instance.
  struct EnclosingMethod {
    uint32_t function, cls;
    bool on_class;
  };
  std::optional<EnclosingMethod> enclosing_method(uint32_t scope) const {
    for (uint32_t s = scope; s != kNone; s = scopes_[s].parent) {
      const uint32_t p = scopes_[s].parent;
      if (scopes_[s].kind == ScopeKind::Function && p != kNone &&
          scopes_[p].kind == ScopeKind::Class) {
        const bool on_class = (scopes_[s].flags & kClassMethod) != 0 || scopes_[s].name == s_new_;
        return EnclosingMethod{s, p, on_class};
      }
    }
    return std::nullopt;
  }

  void call_builtin(const Ctx& ctx, Builtin b, const Args& args, uint32_t site, Set& out,
                    int depth) {
    const auto& pos = args.positional;
    switch (b) {
      case Builtin::Super: {
        if (!pos.empty()) {
          for (uint32_t c : pos[0]) {
            if (values_[c].kind != VK::Class) continue;
            uint32_t receiver = instance_of(values_[c].a);
            if (pos.size() > 1) {
              for (uint32_t r : pos[1]) {
                if (values_[r].kind == VK::Class) receiver = r;
              }
            }
            insert(out, value(VK::Super, values_[c].a, receiver));
          }
        } else if (const auto m = enclosing_method(ctx.scope)) {
          // super() continues the MRO of the receiver's class after the defining class.
          const uint32_t self = first_positional_param(m->function);
          if (self != kNone) {
            for (uint32_t r : read(self)) {
              const VK k = values_[r].kind;
              if (k == VK::Instance || k == VK::Class) insert(out, value(VK::Super, m->cls, r));
            }
          }
          if (out.empty()) {
            const uint32_t receiver = m->on_class ? value(VK::Class, m->cls) : instance_of(m->cls);
            insert(out, value(VK::Super, m->cls, receiver));
          }
        }
        break;
      }
      case Builtin::StaticMethod:
      case Builtin::ClassMethod:
      case Builtin::Property:
        if (!pos.empty()) unite(out, pos[0]);
        break;
      case Builtin::Next:
        if (!pos.empty()) {
          for (uint32_t v : pos[0]) iterate(v, out, depth);
        }
        break;
      case Builtin::Iter:
      case Builtin::List:
      case Builtin::Tuple:
      case Builtin::Set:
      case Builtin::FrozenSet:
      case Builtin::Sorted:
      case Builtin::Reversed: {
        if (pos.empty() || site == kNone) break;
        Set items;
        for (uint32_t v : pos[0]) iterate(v, items, depth);
        merge(elements_var(site), items);
        insert(out, value(VK::Container, site));
        break;
      }
      case Builtin::Type:
        if (pos.size() == 1) {
          for (uint32_t v : pos[0]) {
            if (values_[v].kind == VK::Instance) insert(out, value(VK::Class, values_[v].a));
          }
        }
        break;
      case Builtin::kCount:
        break;
    }
  }

  // ---- output -------------------------------------------------------------------------------

  void emit_edges() {
    for (uint32_t g = 0; g < scopes_.size(); ++g) {
      const ScopeRec& s = scopes_[g];
      if (s.parent != kNone)
        out_.push_back({entity_of(s.parent), entity_of(g), Relation::Contains});
      for (uint32_t b : bases_[g]) out_.push_back({entity_of(g), entity_of(b), Relation::Inherits});
    }
    // `from m import name`: the import reaches the file defining what `name` turned out to be.
    for (const FromImport& fi : from_imports_) {
      bool found = false;
      for (uint32_t v : vars_.get(fi.var)) {
        const Value val = values_[v];
        uint32_t target = kNone;
        if (val.kind == VK::Class || val.kind == VK::Function) target = scopes_[val.a].file;
        if (val.kind == VK::Module) target = modules_.modules()[val.a].file;
        if (target == kNone) continue;
        found = true;
        if (target != fi.file) import_edges_.insert(key(fi.file, target));
      }
      if (!found && fi.from_file != fi.file) import_edges_.insert(key(fi.file, fi.from_file));
    }
    for (uint64_t k : import_edges_) {
      out_.push_back({files_[k >> 32].entity, files_[k & 0xffffffffu].entity, Relation::Imports});
    }
    std::vector<uint64_t> calls(call_edges_.begin(), call_edges_.end());
    for (const SiteCalls& site : site_calls_) {
      if (site.more == kNone) {
        calls.push_back(key(site.caller, site.callee));
        continue;
      }
      const std::vector<uint32_t>& callees = more_callees_[site.more];
      if (callees.size() > kMaxCalleesPerSite) continue;
      for (uint32_t callee : callees) calls.push_back(key(site.caller, callee));
    }
    std::vector<SiteCalls>().swap(site_calls_);
    std::sort(calls.begin(), calls.end());
    calls.erase(std::unique(calls.begin(), calls.end()), calls.end());
    for (uint64_t k : calls) {
      out_.push_back(
          {static_cast<EntityIndex>(k >> 32), static_cast<EntityIndex>(k), Relation::Calls});
    }
  }

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

  std::vector<std::vector<uint32_t>> bases_, mro_;
  std::vector<uint8_t> mro_state_;
  std::vector<uint32_t> mro_built_;  // per class: the generation its cached MRO belongs to
  uint32_t mro_generation_ = 1;
  // See defining_class: (class, name) -> index in the class's MRO. Valid while
  // mro_generation_ + class_vars_created_ equals class_cache_epoch_ (both only grow).
  FlatMap<uint64_t> defining_class_;
  // See instance_vars: (class, name) -> offset in instance_vars_pool_, for mro_generation_
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
  std::vector<uint32_t> returned_param_;     // per scope: the parameter every return gives back
  bool changed_ = false;

  // Per call nesting level (see ArgFrame); the levels' storage never moves.
  std::vector<std::unique_ptr<std::vector<Set>>> arg_storage_;
  size_t arg_depth_ = 0;

  std::vector<uint32_t> builtin_ids_;
  uint32_t s_init_ = 0, s_call_ = 0, s_iter_ = 0, s_next_ = 0, s_enter_ = 0, s_getitem_ = 0,
           s_class_ = 0, s_items_ = 0, s_new_ = 0, s_init_subclass_ = 0, s_class_getitem_ = 0;
};

}  // namespace

void resolve(const ResolverInput& input, std::vector<Edge>& edges) {
  Resolver(input, edges).run();
}

}  // namespace anchorfs::analysis::python
