// C and C++ resolution. Definitions are indexed by qualified name ("ns::A::f"); a call resolves
// through the rules of docs/languages/c.md: the enclosing class (and its bases), then for each
// enclosing namespace outwards the same file, the headers it includes (transitively), and a
// function defined in exactly one file whose declaration the caller can see.
#include "analysis/cfamily/resolve.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "analysis/cfamily/includes.h"
#include "analysis/code/code_facts.h"
#include "analysis/code/definition_index.h"
#include "analysis/file_edges.h"

namespace anchorfs::analysis::cfamily {
namespace {

using code::DefId;

// "a.b" (a nested namespace's or an out-of-line owner's id form) -> "a::b".
std::string qualified(std::string_view dotted) {
  std::string out;
  for (const char c : dotted) {
    if (c == '.') {
      out += "::";
    } else {
      out += c;
    }
  }
  return out;
}

std::string join(std::string_view prefix, std::string_view name) {
  if (prefix.empty()) return std::string(name);
  return std::string(prefix) + "::" + std::string(name);
}

bool is_function(const code::Definition& def) {
  return def.kind == EntityKind::Function;
}

bool is_class(const code::Definition& def) {
  return def.kind == EntityKind::Class &&
         (def.role == "class" || def.role == "struct" || def.role == "union");
}

bool accepts(const code::Definition& def, uint32_t arity) {
  return def.arity == arity || (def.variadic && arity >= def.arity);
}

// The qualified name of the scope a definition opens ("ns::A" for class A in namespace ns,
// "ns::A" for an out-of-line `ns::A::f`'s enclosing class too).
std::string scope_name(const code::CodeFacts& facts, uint32_t d) {
  std::string name;
  std::vector<uint32_t> chain;
  for (uint32_t at = d; at != 0 && chain.size() < 64; at = facts.definitions[at].parent) {
    chain.push_back(at);
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const code::Definition& x = facts.definitions[*it];
    if (is_function(x) && x.role != "macro") {
      if (!x.owner.empty()) name = join(name, x.owner);  // the class an out-of-line method joins
      break;  // names inside a function body are the function's own
    }
    name = join(name, qualified(x.name));
  }
  return name;
}

std::string_view simple_name(const code::Definition& x) {
  if (x.owner.empty()) return x.name;
  const size_t dot = x.name.rfind('.');
  return dot == std::string::npos ? std::string_view(x.name)
                                  : std::string_view(x.name).substr(dot + 1);
}

std::string full_name(const code::CodeFacts& facts, uint32_t d) {
  const code::Definition& x = facts.definitions[d];
  const std::string parent = scope_name(facts, x.parent);
  if (!x.owner.empty()) return join(join(parent, x.owner), simple_name(x));
  return join(parent, qualified(x.name));
}

// Enclosing scope names of a scope, innermost first, ending with "" (the global namespace).
std::vector<std::string> prefixes(const code::CodeFacts& facts, uint32_t scope) {
  std::string name = scope_name(facts, scope);
  std::vector<std::string> out;
  while (!name.empty()) {
    out.push_back(name);
    const size_t sep = name.rfind("::");
    name = sep == std::string::npos ? std::string() : name.substr(0, sep);
  }
  out.emplace_back();
  return out;
}

// One resolution's view of the tables: the files' facts under their ids, for the threads that
// resolve files side by side (read-only while they do).
struct Indexes {
  Indexes(const ResolverInput& in, const Tables& tables) : input(in), t(tables), defs(in.files) {}

  EntityIndex entity(uint32_t f, uint32_t d) const { return input.files[f].entity + d; }
  const code::CodeFacts& facts(uint32_t f) const { return defs.facts(f); }
  uint32_t file_count() const { return defs.file_count(); }

  const ResolverInput& input;
  const Tables& t;
  code::DefinitionIndex defs;
};

// The files an `#include` of each file names, and those a header leaves ambiguous (decided per
// translation unit). Each file's entry depends on its own imports only.
void resolve_includes(const ResolverInput& input, Tables& t) {
  const auto n = static_cast<uint32_t>(input.files.size());
  t.path_text.reserve(n);
  for (const ResolverFile& file : input.files) t.path_text.emplace_back(file.path);
  t.paths.assign(t.path_text.begin(), t.path_text.end());
  t.includes_resolver.emplace(input.root, t.paths);
  t.includes.resize(n);
  t.ambiguous.resize(n);
  tbb::parallel_for(uint32_t{0}, n, [&](uint32_t f) {
    const auto& facts = *static_cast<const code::CodeFacts*>(input.files[f].facts);
    for (const code::Import& import : facts.imports) {
      const bool system = import.name == "<>";
      const auto found = t.includes_resolver->resolve(f, import.source, system);
      if (found.file && *found.file != f) t.includes[f].push_back(*found.file);
      if (found.tie) t.ambiguous[f].push_back({import.source, system});
    }
    std::sort(t.includes[f].begin(), t.includes[f].end());
    t.includes[f].erase(std::unique(t.includes[f].begin(), t.includes[f].end()),
                        t.includes[f].end());
  });
}

// The entries file f's free functions and macros make: `function(qualified name, simple name,
// id, whether a C++ free function)`, in order.
template <typename Function>
void free_functions(const code::CodeFacts& facts, uint32_t f, Function&& function) {
  for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
    const code::Definition& x = facts.definitions[d];
    if (is_function(x) && (x.role == "function" || x.role == "macro")) {
      function(full_name(facts, d), x.name, code::DefinitionIndex::id(f, d),
               facts.package == "c++" && x.role == "function");
    }
  }
}

// The entries file f's free declarations make: `declared(qualified name)`, in order.
template <typename Declared>
void free_declarations(const code::CodeFacts& facts, Declared&& declared) {
  for (const code::Declaration& decl : facts.declarations) {
    if (!decl.owner.empty()) continue;
    if (decl.scope != 0 && !is_function(facts.definitions[decl.scope]) &&
        facts.definitions[decl.scope].role != "namespace") {
      continue;  // a method's declaration in its class
    }
    declared(join(scope_name(facts, decl.scope), decl.name));
  }
}

template <typename Function, typename Declared>
void free_entries(const code::CodeFacts& facts, uint32_t f, Function&& function,
                  Declared&& declared) {
  free_functions(facts, f, function);
  free_declarations(facts, declared);
}

// Two threads, each filling its own tables from every file in file order, so every table gets
// its entries in the order one thread would give them (on the kernel, 2 s of CPU on one core).
void index_names(const Indexes& ix, Tables& t) {
  const auto functions = [&] {
    for (uint32_t f = 0; f < ix.file_count(); ++f) {
      free_functions(ix.facts(f), f,
                     [&](std::string name, const std::string& simple, DefId id, bool cpp) {
                       t.functions[std::move(name)].push_back(id);
                       ++t.simple_counts[simple];
                       if (cpp) t.by_simple[simple].push_back(id);
                     });
    }
  };
  const auto types_and_declarations = [&] {
    for (uint32_t f = 0; f < ix.file_count(); ++f) {
      const code::CodeFacts& facts = ix.facts(f);
      for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
        const code::Definition& x = facts.definitions[d];
        if (is_class(x)) {
          t.classes[full_name(facts, d)].push_back(ix.defs.id(f, d));
        } else if (x.kind == EntityKind::Class && x.role.ends_with(" specialization")) {
          t.specialized.insert(full_name(facts, d));
        } else if (is_function(x) && x.role != "function" && x.role != "macro" &&
                   is_class(facts.definitions[x.parent]) && x.owner.empty()) {
          t.methods[code::DefinitionIndex::raw(ix.defs.id(f, x.parent))].push_back(
              ix.defs.id(f, d));
        }
      }
      free_declarations(facts, [&](std::string name) { t.declared[std::move(name)].push_back(f); });
    }
  };
  tbb::parallel_invoke(functions, types_and_declarations);
}

// One thread's resolution of whole files against the shared indexes: the closure marks of the
// translation unit at hand, memos and scratch. Its answers depend on the indexes only, never on
// which files it resolved before, so files may be spread over threads in any way.
class FileResolver {
 public:
  explicit FileResolver(const Indexes& ix) : ix_(ix), stamp_(ix.file_count(), 0) {}

  // The out-of-line methods (`A::f`) of file f with the class each joins: the one class named A
  // its file can see.
  void out_of_line(uint32_t f, std::vector<std::pair<DefId, DefId>>& out) {
    const code::CodeFacts& facts = ix_.facts(f);
    bool any = false;
    for (uint32_t d = 1; d < facts.definitions.size() && !any; ++d) {
      any = !facts.definitions[d].owner.empty();
    }
    if (!any) return;
    close_over(f);
    for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
      const code::Definition& x = facts.definitions[d];
      if (x.owner.empty() || !is_function(x)) continue;
      if (const auto cls = find_class(f, x.parent, x.owner)) {
        out.emplace_back(*cls, ix_.defs.id(f, d));
      }
    }
  }

  // File f's IMPORTS, INHERITS and CALLS edges.
  void resolve_file(uint32_t f, std::vector<Edge>& out) {
    close_over(f);
    for (const uint32_t target : ix_.t.includes[f]) {
      out.push_back({ix_.entity(f, 0), ix_.entity(target, 0), Relation::Imports});
    }
    inheritance(f, out);
    calls(f, out);
  }

 private:
  const code::Definition& def(DefId r) const { return ix_.defs.definition(r); }
  static uint64_t key(DefId r) { return code::DefinitionIndex::raw(r); }

  bool overloaded(const std::string& name) const {
    const auto it = ix_.t.simple_counts.find(name);
    return it != ix_.t.simple_counts.end() && it->second > 1;
  }

  // Marks the files `f` includes, directly or not, with a stamp of their own: a closure is
  // always computed whole, whatever closures this resolver computed before. An include a header
  // leaves ambiguous (`<asm/io.h>` in include/linux/io.h) is decided by f's own path, as the
  // build of f decides it by its include directories.
  void close_over(uint32_t f) {
    if (closed_ == f) return;
    const uint32_t mark = ++mark_;
    std::vector<uint32_t>& stack = stack_;
    stack.assign(1, f);
    stamp_[f] = mark;
    auto reach = [&](uint32_t next) {
      if (stamp_[next] == mark) return;
      stamp_[next] = mark;
      stack.push_back(next);
    };
    while (!stack.empty()) {
      const uint32_t at = stack.back();
      stack.pop_back();
      for (const uint32_t next : ix_.t.includes[at]) reach(next);
      if (at == f) continue;
      for (const Tables::Ambiguous& include : ix_.t.ambiguous[at]) {
        const auto found =
            ix_.t.includes_resolver->resolve(at, include.source, include.system, ix_.t.paths[f]);
        if (found.file) reach(*found.file);
      }
    }
    closed_ = f;
  }

  bool visible(uint32_t file) const { return stamp_[file] == mark_; }

  // The class `written` names from scope `scope` of file `f` (closure computed for f): the one
  // class of that qualified name, innermost enclosing scope first, defined in f or a file it
  // includes.
  std::optional<DefId> find_class(uint32_t f, uint32_t scope, std::string_view written) const {
    for (const std::string& prefix : prefixes(ix_.facts(f), scope)) {
      const auto it = ix_.t.classes.find(join(prefix, written));
      if (it == ix_.t.classes.end()) continue;
      std::optional<DefId> found;
      for (const DefId r : it->second) {
        if (!visible(ix_.defs.file_of(r))) continue;
        if (found) return std::nullopt;  // two classes of one name in sight: no guess
        found = r;
      }
      if (found) return found;
    }
    return std::nullopt;
  }

  // The class a class's base names, looked up from the class's own file.
  std::vector<DefId> bases(DefId cls) {
    std::vector<DefId> out;
    for (const std::string& base : def(cls).bases) {
      if (const auto r = find_class_from(ix_.defs.file_of(cls), def(cls).parent, base)) {
        out.push_back(*r);
      }
    }
    return out;
  }

  // find_class from another file than the one whose closure is marked (memoized).
  std::optional<DefId> find_class_from(uint32_t f, uint32_t scope, const std::string& written) {
    const std::string key = std::to_string(f) + ":" + std::to_string(scope) + ":" + written;
    if (const auto it = class_memo_.find(key); it != class_memo_.end()) return it->second;
    const uint32_t saved = closed_;
    std::optional<DefId> r;
    if (saved == f) {
      r = find_class(f, scope, written);
    } else {
      close_over(f);
      r = find_class(f, scope, written);
      close_over(saved);
    }
    class_memo_.emplace(key, r);
    return r;
  }

  // --- Edges ----------------------------------------------------------------------------------

  void inheritance(uint32_t f, std::vector<Edge>& out) {
    const code::CodeFacts& facts = ix_.facts(f);
    for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
      if (!is_class(facts.definitions[d]) || facts.definitions[d].bases.empty()) continue;
      for (const std::string& base : facts.definitions[d].bases) {
        if (const auto r = find_class(f, facts.definitions[d].parent, base)) {
          out.push_back({ix_.entity(f, d), ix_.defs.entity(*r), Relation::Inherits});
        }
      }
    }
  }

  // The method `name` taking `arity` arguments of class `cls` or, when it declares none of that
  // name, of its bases (breadth first, bounded); nullopt when none or several fit.
  std::optional<DefId> method(DefId cls, std::string_view name, uint32_t arity, bool constructor) {
    const std::vector<DefId> named = ix_.defs.search_bases(
        cls, 16, [&](DefId c) { return bases(c); },
        [&](DefId c, std::vector<DefId>& out) {
          const auto it = ix_.t.methods.find(key(c));
          if (it == ix_.t.methods.end()) return;
          for (const DefId m : it->second) {
            const code::Definition& x = def(m);
            if (simple_name(x) == name && constructor == (x.role == "constructor"))
              out.push_back(m);
          }
        },
        constructor);  // constructors are not inherited
    if (named.empty()) return std::nullopt;
    return pick(named, arity);
  }

  // The one candidate accepting `arity` arguments; an overload set split by arity picks by it.
  std::optional<DefId> pick(std::span<const DefId> candidates, uint32_t arity) const {
    std::optional<DefId> found;
    for (const DefId r : candidates) {
      if (!accepts(def(r), arity)) continue;
      if (found && !(*found == r)) return std::nullopt;
      found = r;
    }
    return found;
  }

  // The class whose method a function is (in its class or out of line), or nullopt.
  std::optional<DefId> enclosing_class(uint32_t f, uint32_t scope) {
    const auto at = ix_.defs.enclosing(ix_.defs.id(f, scope), [](const code::Definition& x) {
      return is_class(x) || (is_function(x) && !x.owner.empty());
    });
    if (!at || is_class(def(*at))) return at;
    return find_class(f, def(*at).parent, def(*at).owner);
  }

  // A free function (or function-like macro) `name` from scope `scope`: tried in each enclosing
  // namespace outwards; at the first that knows the name, the same file's definition, else the
  // one in an included header, else the one non-static definition of the repository when its
  // declaration is in sight. In C++ the same file's and the included headers' definitions are
  // one overload set, picked from together.
  enum class Found { None, Edge, Stop };
  Found free_function(uint32_t f, uint32_t scope, std::string_view name, uint32_t arity,
                      std::optional<DefId>& out) {
    const std::vector<std::string> scopes = prefixes(ix_.facts(f), scope);
    for (const std::string& prefix : scopes) {
      const std::string key = join(prefix, name);
      const auto it = ix_.t.functions.find(key);
      if (it == ix_.t.functions.end()) continue;
      // C++: a function a project defines in namespace std is one more overload of a standard
      // one, for the project's own types; a `std::` call from outside std reaches the standard
      // library's overloads (outside the tree) as readily, so which one is not evident.
      if (cpp_caller_ && key.starts_with("std::") && !inside_std(scopes)) return Found::Stop;
      // Candidates are in id order, so a file's own are one run of them: found by bisection,
      // and when there are any C reads nothing else (a common static name such as `probe` has
      // thousands of definitions).
      const std::vector<DefId>& candidates = it->second;
      const auto first = std::lower_bound(candidates.begin(), candidates.end(), ix_.defs.id(f, 0));
      const auto last = std::lower_bound(
          first, candidates.end(),
          ix_.defs.id(f, static_cast<uint32_t>(ix_.defs.facts(f).definitions.size())));
      std::vector<DefId>& included = included_;
      std::vector<DefId>& global = global_;
      included.clear();
      global.clear();
      // Functions without parameters cannot overload each other: same-named ones in one
      // namespace are alternatives of a configuration (a per-platform file's `tick_factor()`),
      // and the file's own is the one its build compiles.
      if (first != last && (!cpp_caller_ || arity == 0)) {
        out = pick({first, last}, arity);
        return out ? Found::Edge : Found::Stop;
      }
      // C++: an overload in the same file beside one of equal arity in an included header
      // (`add_edge(u, v, g)` for one graph type beside the other graph types' ones) is told
      // apart by argument types only: no edge. An overload of another arity there is the callee
      // the arguments select.
      if (first != last) {
        for (const DefId r : candidates) {
          if (visible(ix_.defs.file_of(r))) included.push_back(r);
        }
        out = pick(included, arity);
        return out ? Found::Edge : Found::Stop;
      }
      for (const DefId r : candidates) {
        if (visible(ix_.defs.file_of(r))) {
          included.push_back(r);
        } else if (included.empty() && global.size() < 2 && def(r).exported &&
                   def(r).role == "function") {
          global.push_back(r);
        }
      }
      // A header's `static inline` stub (or macro) beside a prototype of the same name is one
      // branch of a configuration switch (`#ifdef CONFIG_X` prototype, `#else` stub; C allows
      // no other way to have both): which one a build sees is not evident, and the real
      // definition may be elsewhere or outside the tree, so the stub gets no edge.
      if (!included.empty()) {
        out = declared_in_sight(key) ? std::nullopt : pick(included, arity);
        return out ? Found::Edge : Found::Stop;
      }
      // Several files defining it (per architecture, per program) leave the choice to the
      // build: no edge. In C++, a function of that simple name defined in sight in another
      // namespace is as likely meant (a namespace the parse lost, a using-declaration, ADL):
      // the one out of sight is then no evident callee.
      if (global.size() == 1 && declared_in_sight(key) &&
          !(cpp_caller_ && defined_in_sight(simple_of(name)))) {
        out = pick(global, arity);
        return out ? Found::Edge : Found::Stop;
      }
      return Found::Stop;
    }
    return Found::None;
  }

  // Whether a scope's outermost namespace is std (prefixes() lists it last before "").
  static bool inside_std(const std::vector<std::string>& scopes) {
    return scopes.size() >= 2 && scopes[scopes.size() - 2] == "std";
  }

  static std::string_view simple_of(std::string_view name) {
    const size_t sep = name.rfind("::");
    return sep == std::string_view::npos ? name : name.substr(sep + 2);
  }

  // Whether the file whose closure is marked, or a header it includes, defines a C++ free
  // function of this simple name.
  bool defined_in_sight(std::string_view simple) const {
    const auto it = ix_.t.by_simple.find(std::string(simple));
    if (it == ix_.t.by_simple.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](DefId r) { return visible(ix_.defs.file_of(r)); });
  }

  // Whether file f's class `cls` is a template whose specializations decide, by the arguments
  // of each use, which definition a call through it reaches.
  bool specialized(DefId cls) {
    if (ix_.t.specialized.empty()) return false;
    const uint32_t file = ix_.defs.file_of(cls);
    return ix_.t.specialized.contains(full_name(ix_.facts(file), ix_.defs.local_of(cls)));
  }

  // A one-argument construction of `cls` from a value of `cls` itself (or of a class derived
  // from it): a copy or a move, which the implicit constructors take, so no declared one is
  // evidently meant.
  bool copies(uint32_t f, const code::Call& c, DefId cls) {
    if (c.arity != 1 || c.argument_types.empty() || c.argument_types[0].empty()) return false;
    const std::string& arg = c.argument_types[0];
    if (arg == "this") return false;
    const std::optional<DefId> from =
        arg == "*this" ? enclosing_class(f, c.scope) : type_of_name(f, c.scope, arg);
    if (!from) return false;
    const std::vector<DefId> found = ix_.defs.search_bases(
        *from, 16, [&](DefId x) { return bases(x); },
        [&](DefId x, std::vector<DefId>& out) {
          if (x == cls) out.push_back(x);
        });
    return !found.empty();
  }

  // A constructor of `cls` taking `c`'s arguments.
  std::optional<DefId> constructor(uint32_t f, const code::Call& c, DefId cls,
                                   std::string_view own) {
    if (specialized(cls) || copies(f, c, cls)) return std::nullopt;
    return method(cls, own, c.arity, true);
  }

  // Whether the file whose closure is marked, or a header it includes, declares `key`.
  bool declared_in_sight(const std::string& key) const {
    const auto it = ix_.t.declared.find(key);
    if (it == ix_.t.declared.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](uint32_t d) { return visible(d); });
  }

  // The class of a name's declared type from `scope`: locals and parameters of the function,
  // fields of its class and bases, file-level names.
  std::optional<DefId> type_of_name(uint32_t f, uint32_t scope, std::string_view name) {
    const code::CodeFacts& facts = ix_.facts(f);
    for (uint32_t at = scope;; at = facts.definitions[at].parent) {
      if (is_class(facts.definitions[at]) && at != 0) break;
      for (const code::TypedName& t : facts.typed_names) {
        if (t.scope == at && t.name == name) return find_class(f, at, t.type);
      }
      if (at == 0) break;
    }
    if (const auto cls = enclosing_class(f, scope)) return field_type(*cls, name);
    return std::nullopt;
  }

  // The class of field `name` of `cls` or, when it declares none, of its nearest base that does.
  std::optional<DefId> field_type(DefId cls, std::string_view name) {
    const code::TypedName* field = nullptr;
    const std::vector<DefId> declaring = ix_.defs.search_bases(
        cls, 16, [&](DefId c) { return bases(c); },
        [&](DefId c, std::vector<DefId>& out) {
          if (!out.empty()) return;
          for (const code::TypedName& t : ix_.defs.facts(ix_.defs.file_of(c)).typed_names) {
            if (t.scope == ix_.defs.local_of(c) && t.name == name) {
              field = &t;
              out.push_back(c);
              return;
            }
          }
        });
    if (declaring.empty()) return std::nullopt;
    const DefId c = declaring.front();
    return find_class_from(ix_.defs.file_of(c), ix_.defs.local_of(c), field->type);
  }

  std::optional<DefId> receiver_class(uint32_t f, uint32_t scope, std::string_view receiver) {
    const size_t dot = receiver.find('.');
    const std::string_view head = receiver.substr(0, dot);
    std::optional<DefId> cls =
        head == "this" ? enclosing_class(f, scope) : type_of_name(f, scope, head);
    if (!cls || dot == std::string_view::npos) return cls;
    return field_type(*cls, receiver.substr(dot + 1));
  }

  std::optional<DefId> callee(uint32_t f, const code::Call& c) {
    switch (c.form) {
      case code::CallForm::Plain: {
        if (const auto cls = enclosing_class(f, c.scope)) {
          if (const auto m = method(*cls, c.name, c.arity, false)) return m;
        }
        if (cpp_caller_ && overloaded(c.name)) return std::nullopt;
        std::optional<DefId> out;
        const Found found = free_function(f, c.scope, c.name, c.arity, out);
        if (found != Found::None) return out;
        if (const auto cls = find_class(f, c.scope, c.name)) return constructor(f, c, *cls, c.name);
        return std::nullopt;
      }
      case code::CallForm::Path: {
        if (const auto cls = find_class(f, c.scope, c.receiver)) {
          const std::string_view own =
              std::string_view(c.receiver)
                  .substr(c.receiver.rfind("::") == std::string::npos ? 0
                                                                      : c.receiver.rfind("::") + 2);
          if (c.name == own) return constructor(f, c, *cls, own);
          // `X<U>::f()` of a template with specializations: which one U selects is not evident.
          if (specialized(*cls)) return std::nullopt;
          return method(*cls, c.name, c.arity, false);
        }
        std::optional<DefId> out;
        free_function(f, c.scope, c.receiver + "::" + c.name, c.arity, out);
        return out;
      }
      case code::CallForm::Member: {
        const auto cls = receiver_class(f, c.scope, c.receiver);
        if (!cls) return std::nullopt;
        // `this->f()` stays in the caller's own definition; a variable of a template type
        // with specializations may be any of them.
        if (c.receiver != "this" && specialized(*cls)) return std::nullopt;
        return method(*cls, c.name, c.arity, false);
      }
      case code::CallForm::Construct: {
        const auto cls = find_class(f, c.scope, c.name);
        if (!cls) return std::nullopt;
        const size_t sep = c.name.rfind("::");
        const std::string own = sep == std::string::npos ? c.name : c.name.substr(sep + 2);
        return constructor(f, c, *cls, own);
      }
    }
    return std::nullopt;
  }

  void calls(uint32_t f, std::vector<Edge>& out) {
    const bool cpp = ix_.facts(f).package == "c++";
    cpp_caller_ = cpp;
    for (const code::Call& c : ix_.facts(f).calls) {
      // C++: a free function named without a qualifier is found by argument-dependent lookup
      // and `using` declarations too (`using std::sin; sin(x)`), so the name must name one
      // function in the whole tree; a call of a function from itself is more often another
      // overload of the same arity (forwarding) than recursion.
      if (const auto target = callee(f, c)) {
        if (cpp && *target == ix_.defs.id(f, c.scope)) continue;
        out.push_back({ix_.entity(f, c.scope), ix_.defs.entity(*target), Relation::Calls});
      }
    }
  }

  const Indexes& ix_;
  std::vector<uint32_t> stamp_;  // by file: mark_ when in the closure at hand
  uint32_t mark_ = 0;
  uint32_t closed_ = UINT32_MAX;  // the file whose closure is marked
  std::vector<uint32_t> stack_;   // close_over's scratch
  std::vector<DefId> included_;   // free_function's scratch, reused across calls
  std::vector<DefId> global_;
  bool cpp_caller_ = false;  // the file whose calls are being resolved is C++
  std::unordered_map<std::string, std::optional<DefId>> class_memo_;
};

// Inserts `value` into a vector kept in order, after any equal ones.
template <typename T>
void insert_sorted(std::vector<T>& values, T value) {
  values.insert(std::upper_bound(values.begin(), values.end(), value), value);
}

// Removes every value `remove` takes; the key goes with its last value.
template <typename Map, typename Remove>
void erase_from(Map& map, const std::string& key, Remove&& remove) {
  const auto it = map.find(key);
  if (it == map.end()) return;
  std::erase_if(it->second, remove);
  if (it->second.empty()) map.erase(it);
}

}  // namespace

// Includes per file in parallel, names in file order, out-of-line methods found per file in
// parallel and attached in file order.
std::unique_ptr<Tables> make_tables(const ResolverInput& input) {
  auto tables = std::make_unique<Tables>();
  Tables& t = *tables;
  resolve_includes(input, t);
  const Indexes ix(input, t);
  index_names(ix, t);
  const uint32_t n = ix.file_count();
  tbb::enumerable_thread_specific<FileResolver> resolvers([&] { return FileResolver(ix); });
  std::vector<std::vector<std::pair<DefId, DefId>>> attached(n);
  tbb::parallel_for(uint32_t{0}, n,
                    [&](uint32_t f) { resolvers.local().out_of_line(f, attached[f]); });
  for (const auto& file : attached) {
    for (const auto& [cls, method] : file) {
      t.methods[code::DefinitionIndex::raw(cls)].push_back(method);
    }
  }
  return tables;
}

void update_tables(Tables& t, uint32_t f, const code::CodeFacts& before,
                   const code::CodeFacts& after) {
  const auto of_f = [f](DefId id) { return code::DefinitionIndex::file_of(id) == f; };
  free_entries(
      before, f,
      [&](const std::string& name, const std::string& simple, DefId, bool cpp) {
        erase_from(t.functions, name, of_f);
        if (const auto it = t.simple_counts.find(simple); it != t.simple_counts.end()) {
          if (--it->second == 0) t.simple_counts.erase(it);
        }
        if (cpp) erase_from(t.by_simple, simple, of_f);
      },
      [&](const std::string& name) {
        erase_from(t.declared, name, [f](uint32_t file) { return file == f; });
      });
  free_entries(
      after, f,
      [&](std::string name, const std::string& simple, DefId id, bool cpp) {
        insert_sorted(t.functions[std::move(name)], id);
        ++t.simple_counts[simple];
        if (cpp) insert_sorted(t.by_simple[simple], id);
      },
      [&](std::string name) { insert_sorted(t.declared[std::move(name)], f); });
}

// Every selected file resolves on whichever thread takes it; its edges land in its own slot and
// are joined in file order, so the output is the same whatever the thread count. A file's edges
// leave its own entities and read only the tables, so they do not depend on which other files
// are resolved (incremental.cpp relies on it).
void resolve(const ResolverInput& input, const Tables& tables, std::vector<Edge>& edges,
             const FileSelection& selection) {
  const Indexes ix(input, tables);
  const uint32_t n = ix.file_count();
  tbb::enumerable_thread_specific<FileResolver> resolvers([&] { return FileResolver(ix); });
  std::vector<std::vector<Edge>> by_file(n);
  const auto selected = [&](uint32_t f) { return selection.only.empty() || selection.only[f]; };
  tbb::parallel_for(uint32_t{0}, n, [&](uint32_t f) {
    if (selected(f)) resolvers.local().resolve_file(f, by_file[f]);
  });
  join_file_edges(by_file, edges, [&](uint32_t f, size_t end) {
    if (selection.ends != nullptr && selected(f)) selection.ends->push_back({f, end});
  });
}

void resolve(const ResolverInput& input, std::vector<Edge>& edges) {
  resolve(input, *make_tables(input), edges);
}

}  // namespace anchorfs::analysis::cfamily
