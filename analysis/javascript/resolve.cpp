// JavaScript/TypeScript resolution: lexical scopes, ES and CommonJS module bindings, exports and
// re-exports, class members through `extends`, and receivers whose class is evident. Precision
// first: a name that does not resolve to a definition in the repository gets no edge.
#include "analysis/javascript/resolve.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "analysis/code/code_facts.h"
#include "analysis/file_edges.h"
#include "analysis/javascript/module_paths.h"
#include "analysis/plain_threads.h"

namespace anchorfs::analysis::javascript {
namespace {

using code::Call;
using code::CallForm;
using code::CodeFacts;
using code::Definition;
using code::Import;

// Re-export chains, aliases and base classes are followed this many steps at most (cycles).
constexpr int kMaxHops = 16;

// What a name denotes: a definition, a module's namespace object (`import * as ns`), or the
// value a module exports as a whole (`require("m")`, whose members may be its named exports).
struct Ref {
  enum class Kind : uint8_t { None, Definition, Module, ModuleValue };
  Kind kind = Kind::None;
  uint32_t file = 0;
  uint32_t def = 0;
  explicit operator bool() const { return kind != Kind::None; }
};

Ref definition_ref(uint32_t file, uint32_t def) {
  return {Ref::Kind::Definition, file, def};
}

struct Named {
  uint32_t owner;  // a definition (members) or a scope (locals)
  std::string_view name;
  uint32_t index;  // the member definition, or the typed name
  bool operator<(const Named& o) const {
    return owner != o.owner ? owner < o.owner : name < o.name;
  }
};

// The first entry of `sorted` for (owner, name), or nullptr.
const Named* find(const std::vector<Named>& sorted, uint32_t owner, std::string_view name) {
  const Named key{owner, name, 0};
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), key);
  if (it == sorted.end() || it->owner != owner || it->name != name) return nullptr;
  return &*it;
}

struct FileIndex {
  const CodeFacts* facts = nullptr;
  EntityIndex entity = kNoEntity;
  std::vector<std::optional<uint32_t>> import_targets;  // per import: the file it names
  std::vector<Named> members;                           // definitions by (parent, name)
  std::vector<Named> locals;                            // typed names by (scope, name)
  std::vector<Named> bindings;                          // imports by local name (owner 0)
};

bool is_lexical_scope(const Definition& d) {
  return d.kind == EntityKind::Function || d.role == "namespace";
}

// Roles of what a class (or a constructor function's prototype) holds as members.
bool is_member(const Definition& d) {
  return d.role == "method" || d.role == "getter" || d.role == "setter" || d.role == "static" ||
         d.role == "constructor" || d.role == "field";
}

bool is_instantiable(const Definition& d) {
  return d.kind == EntityKind::Class && d.role == "class";
}

// Calls f(i) for each file index i below `count` on up to `threads` plain threads (a few bundles
// or thousands of modules): this runs beside the fact records' writer, and a TBB worker joining
// late left a cold TypeScript mount's bundles on one thread (perf).
template <typename F>
void each_file(size_t count, size_t threads, const F& f) {
  std::atomic<size_t> next{0};
  run_on_threads(std::min(threads, count), [&] {
    for (size_t i = next++; i < count; i = next++) f(static_cast<uint32_t>(i));
  });
}

// Every file's index: import targets and its sorted tables, built file by file in parallel (each
// writes only its own slot; ModulePaths is read-only).
std::vector<FileIndex> index_files(const ResolverInput& input, const ProjectConfig& config) {
  std::vector<std::string_view> paths;
  paths.reserve(input.files.size());
  for (const ResolverFile& file : input.files) paths.push_back(file.path);
  const ModulePaths modules(paths, config);
  std::vector<FileIndex> files(input.files.size());
  each_file(files.size(), input.threads, [&](uint32_t i) {
    FileIndex& index = files[i];
    index.facts = static_cast<const CodeFacts*>(input.files[i].facts);
    index.entity = input.files[i].entity;
    const CodeFacts& f = *index.facts;
    index.members.reserve(f.definitions.size());
    for (uint32_t d = 1; d < f.definitions.size(); ++d) {
      index.members.push_back({f.definitions[d].parent, f.definitions[d].name, d});
    }
    index.locals.reserve(f.typed_names.size());
    for (uint32_t t = 0; t < f.typed_names.size(); ++t) {
      index.locals.push_back({f.typed_names[t].scope, f.typed_names[t].name, t});
    }
    index.import_targets.reserve(f.imports.size());
    for (uint32_t m = 0; m < f.imports.size(); ++m) {
      const Import& imp = f.imports[m];
      index.import_targets.push_back(
          imp.source.empty() ? std::nullopt : modules.resolve(paths[i], imp.source));
      if (!imp.reexport && !imp.alias.empty()) index.bindings.push_back({0, imp.alias, m});
    }
    std::stable_sort(index.members.begin(), index.members.end());
    std::stable_sort(index.locals.begin(), index.locals.end());
    std::stable_sort(index.bindings.begin(), index.bindings.end());
  });
  return files;
}

// Resolves one file's facts against every file's index. One per file, each with its own memo of
// exports: what a file resolves to depends on its facts and the indexes alone, not on which files
// were resolved before it (a memo shared across files in order would carry an answer cut short by
// kMaxHops from one file to the next), so files resolve on any thread in any order.
class Resolver {
 public:
  explicit Resolver(const std::vector<FileIndex>& files) : files_(files) {}

  // File i's inheritance, import and call edges, in that order (the order a serial pass gave).
  void run(uint32_t i, std::vector<Edge>& edges) {
    const FileIndex& index = files_[i];
    const CodeFacts& f = *index.facts;
    for (uint32_t d = 1; d < f.definitions.size(); ++d) {
      for (const std::string& base : f.definitions[d].bases) {
        if (const Ref r = class_of_type(i, f.definitions[d].parent, base, 0)) {
          edges.push_back({entity(i, d), entity(r.file, r.def), Relation::Inherits});
        }
      }
    }
    for (uint32_t m = 0; m < f.imports.size(); ++m) {
      const std::optional<uint32_t> target = index.import_targets[m];
      if (target && *target != i) {
        edges.push_back({index.entity, files_[*target].entity, Relation::Imports});
      }
    }
    for (const Call& c : f.calls) {
      if (const Ref r = callee(i, c)) {
        edges.push_back({entity(i, c.scope), entity(r.file, r.def), Relation::Calls});
      }
    }
  }

 private:
  EntityIndex entity(uint32_t file, uint32_t def) const { return files_[file].entity + def; }
  const Definition& def(uint32_t file, uint32_t d) const {
    return files_[file].facts->definitions[d];
  }
  const Definition& def(const Ref& r) const { return def(r.file, r.def); }

  Ref callee(uint32_t file, const Call& c) {
    switch (c.form) {
      case CallForm::Plain:
        return callable(value_of(lookup_name(file, c.scope, c.name, 0), 0));
      case CallForm::Construct: {
        const Ref r = c.receiver.empty() ? lookup_name(file, c.scope, c.name, 0)
                                         : member_of(resolve_path(file, c.scope, c.receiver, 0),
                                                     c.name, 0);
        return constructed(value_of(r, 0));
      }
      case CallForm::Member:
        return method_call(file, c);
      case CallForm::Path:
        return {};
    }
    return {};
  }

  // A module bound as a value (`const m = require("m")`, a default import of CommonJS) denotes
  // what it exports as a whole when that is a definition: called or constructed, it is that.
  Ref value_of(const Ref& r, int hops) {
    if (r.kind != Ref::Kind::ModuleValue) return r;
    const Ref value = export_of(r.file, "default", hops + 1);
    return value.kind == Ref::Kind::Definition ? value : Ref{};
  }

  static Ref only_functions(const Ref& r, const Resolver& self) {
    if (r.kind != Ref::Kind::Definition) return {};
    return self.def(r).kind == EntityKind::Function ? r : Ref{};
  }
  Ref callable(const Ref& r) const { return only_functions(r, *this); }

  // `new X()` and `<X />`: X's constructor, or the class when it declares none; a function
  // (a constructor function or a function component) itself.
  Ref constructed(const Ref& r) const {
    if (r.kind != Ref::Kind::Definition) return {};
    const Definition& d = def(r);
    if (d.kind == EntityKind::Function) return r;
    if (!is_instantiable(d)) return {};
    if (const Named* ctor = find(files_[r.file].members, r.def, "constructor")) {
      return definition_ref(r.file, ctor->index);
    }
    return r;
  }

  // The function assigned as `owner.name = function` on a file-level object of `file`.
  Ref property_function(uint32_t file, std::string_view owner, std::string_view name) const {
    const std::string qualified = std::string(owner) + "." + std::string(name);
    const Named* m = find(files_[file].members, 0, qualified);
    if (m == nullptr || def(file, m->index).role != "property") return {};
    return definition_ref(file, m->index);
  }

  // The object `this` denotes in a function assigned to one of its properties (through arrow
  // functions), or "".
  std::string_view this_object(uint32_t file, uint32_t scope) const {
    for (uint32_t s = scope; s != 0; s = def(file, s).parent) {
      const Definition& d = def(file, s);
      if (d.role == "arrow") continue;
      return d.role == "property" ? std::string_view(d.owner) : std::string_view();
    }
    return {};
  }

  Ref method_call(uint32_t file, const Call& c) {
    const std::string_view receiver = c.receiver;
    if (receiver == "this") {
      if (const std::string_view object = this_object(file, c.scope); !object.empty()) {
        return property_function(file, object, c.name);
      }
      const uint32_t cls = this_class(file, c.scope);
      return cls == 0 ? Ref{} : callable(find_method(file, cls, c.name, 0));
    }
    if (receiver == "super") {
      const uint32_t cls = this_class(file, c.scope);
      if (cls == 0) return {};
      for (const std::string& base : def(file, cls).bases) {
        const Ref b = class_of_type(file, def(file, cls).parent, base, 0);
        if (!b) continue;
        const Ref m = find_method(b.file, b.def, c.name, 0);
        if (m) return callable(m);
      }
      return {};
    }
    if (receiver.starts_with("this.")) {
      const std::string_view field_name = receiver;
      if (field_name.find('.', 5) != std::string_view::npos) return {};
      const uint32_t cls = this_class(file, c.scope);
      if (cls == 0) return {};
      const Named* typed = find(files_[file].locals, cls, field_name);
      if (typed == nullptr) return {};
      const std::string& type = files_[file].facts->typed_names[typed->index].type;
      const Ref t = class_of_type(file, cls, type, 0);
      return t ? callable(find_method(t.file, t.def, c.name, 0)) : Ref{};
    }
    // A local or parameter of an evident class; an untyped one says nothing.
    const std::string_view head = receiver.substr(0, receiver.find('.'));
    if (const auto [scope, typed] = typed_local(file, c.scope, head); typed != nullptr) {
      if (typed->type.empty() || head.size() != receiver.size()) return {};
      const Ref t = class_of_type(file, scope, typed->type, 0);
      return t ? callable(find_method(t.file, t.def, c.name, 0)) : Ref{};
    }
    if (head.size() == receiver.size()) {
      if (const Ref r = property_function(file, receiver, c.name)) return r;
    }
    return callable(member_of(resolve_path(file, c.scope, receiver, 0), c.name, 0));
  }

  // The innermost typed name `name` visible from `scope`, with the scope declaring it.
  std::pair<uint32_t, const code::TypedName*> typed_local(uint32_t file, uint32_t scope,
                                                          std::string_view name) const {
    const FileIndex& index = files_[file];
    for (uint32_t s = scope;; s = def(file, s).parent) {
      if (s == 0 || is_lexical_scope(def(file, s))) {
        if (const Named* n = find(index.locals, s, name)) {
          return {s, &index.facts->typed_names[n->index]};
        }
      }
      if (s == 0) break;
    }
    return {0, nullptr};
  }

  // The class `this` denotes in `scope`: the class of the method (or of a prototype method's
  // constructor function) the scope is in, through arrow functions; none in plain functions.
  uint32_t this_class(uint32_t file, uint32_t scope) const {
    for (uint32_t s = scope; s != 0; s = def(file, s).parent) {
      const Definition& d = def(file, s);
      if (d.role == "arrow") continue;
      if (is_instantiable(d)) return s;
      if (is_member(d)) return d.parent;
      return 0;
    }
    return 0;
  }

  // A member of class `cls` (or of a constructor function, through `X.prototype.m = ...`)
  // named `name`, its own or inherited through resolved bases. A function's nested functions
  // are not its members.
  Ref find_method(uint32_t file, uint32_t cls, std::string_view name, int hops) {
    if (hops > kMaxHops) return {};
    if (const Named* m = find(files_[file].members, cls, name); m && is_member(def(file, m->index))) {
      return definition_ref(file, m->index);
    }
    for (const std::string& base : def(file, cls).bases) {
      const Ref b = class_of_type(file, def(file, cls).parent, base, hops + 1);
      if (!b) continue;
      if (const Ref m = find_method(b.file, b.def, name, hops + 1)) return m;
    }
    return {};
  }

  // The class, interface or constructor function a type written in `scope` names.
  Ref class_of_type(uint32_t file, uint32_t scope, std::string_view type, int hops) {
    const Ref r = value_of(resolve_path(file, scope, type, hops), hops);
    if (r.kind != Ref::Kind::Definition) return {};
    return def(r).role != "namespace" ? r : Ref{};
  }

  // "a.b.c": a, then each member in turn.
  Ref resolve_path(uint32_t file, uint32_t scope, std::string_view dotted, int hops) {
    size_t dot = dotted.find('.');
    Ref r = lookup_name(file, scope, dotted.substr(0, dot), hops);
    while (r && dot != std::string_view::npos) {
      const size_t next = dotted.find('.', dot + 1);
      r = member_of(r, dotted.substr(dot + 1, next - dot - 1), hops);
      dot = next;
    }
    return r;
  }

  // What `name` denotes in `scope`: a local (no definition), a definition of an enclosing
  // function, namespace or the file, or an import binding. Class members are not in scope.
  Ref lookup_name(uint32_t file, uint32_t scope, std::string_view name, int hops) {
    if (hops > kMaxHops || name.empty()) return {};
    const FileIndex& index = files_[file];
    for (uint32_t s = scope;; s = def(file, s).parent) {
      if (s == 0 || is_lexical_scope(def(file, s))) {
        if (find(index.locals, s, name) != nullptr) return {};
        // A constructor function's prototype methods are its members, not names in its scope.
        const Named* m = find(index.members, s, name);
        if (m != nullptr && !is_member(def(file, m->index))) return definition_ref(file, m->index);
      }
      if (s == 0) break;
    }
    if (const Named* b = find(index.bindings, 0, name)) return import_binding(file, b->index, hops);
    return {};
  }

  Ref import_binding(uint32_t file, uint32_t m, int hops) {
    const std::optional<uint32_t> target = files_[file].import_targets[m];
    if (!target) return {};
    const Import& imp = files_[file].facts->imports[m];
    if (imp.name == "*") return {Ref::Kind::Module, *target, 0};
    if (imp.name.empty()) return {Ref::Kind::ModuleValue, *target, 0};
    if (imp.name == "default") {
      if (const Ref r = export_of(*target, "default", hops + 1)) return r;
      return {Ref::Kind::ModuleValue, *target, 0};
    }
    return export_of(*target, imp.name, hops + 1);
  }

  // What module `file` exports as `name`: a local export, an exported definition, a re-export.
  Ref export_of(uint32_t file, std::string_view name, int hops) {
    if (hops > kMaxHops) return {};
    const std::pair<uint32_t, std::string> key{file, std::string(name)};
    if (const auto it = exports_.find(key); it != exports_.end()) return it->second;
    const Ref r = find_export(file, name, hops);
    exports_.emplace(key, r);
    return r;
  }

  Ref find_export(uint32_t file, std::string_view name, int hops) {
    const FileIndex& index = files_[file];
    const CodeFacts& f = *index.facts;
    for (const Import& imp : f.imports) {
      if (imp.reexport && imp.source.empty() && imp.alias == name) {
        if (const Ref r = lookup_name(file, 0, imp.name, hops + 1)) return r;
      }
    }
    if (name != "default") {
      if (const Named* m = find(index.members, 0, name); m && def(file, m->index).exported) {
        return definition_ref(file, m->index);
      }
    }
    for (uint32_t m = 0; m < f.imports.size(); ++m) {
      const Import& imp = f.imports[m];
      const std::optional<uint32_t> target = index.import_targets[m];
      if (!imp.reexport || !target || imp.alias != name) continue;
      if (imp.name == "*") return {Ref::Kind::Module, *target, 0};
      if (const Ref r = export_of(*target, imp.name, hops + 1)) return r;
    }
    if (name == "default") return {};
    for (uint32_t m = 0; m < f.imports.size(); ++m) {
      const Import& imp = f.imports[m];
      const std::optional<uint32_t> target = index.import_targets[m];
      if (!imp.reexport || !target || imp.name != "*" || !imp.alias.empty()) continue;
      if (const Ref r = export_of(*target, name, hops + 1)) return r;
    }
    return {};
  }

  // `base.name`: a module's export, a namespace's member, a class's static method.
  Ref member_of(const Ref& base, std::string_view name, int hops) {
    switch (base.kind) {
      case Ref::Kind::None:
        return {};
      case Ref::Kind::Module:
        return export_of(base.file, name, hops + 1);
      case Ref::Kind::ModuleValue: {
        if (const Ref r = export_of(base.file, name, hops + 1)) return r;
        const Ref value = export_of(base.file, "default", hops + 1);
        return value.kind == Ref::Kind::Definition ? member_of(value, name, hops + 1) : Ref{};
      }
      case Ref::Kind::Definition: {
        const Definition& d = def(base);
        const Named* m = find(files_[base.file].members, base.def, name);
        if (d.role == "namespace") return m ? definition_ref(base.file, m->index) : Ref{};
        if (is_instantiable(d)) {
          const Ref s = find_method(base.file, base.def, name, hops + 1);
          return s && def(s).role == "static" ? s : Ref{};
        }
        // `F.m = function` on a function F: a property of the function object.
        if (d.kind == EntityKind::Function && m != nullptr &&
            def(base.file, m->index).role == "static") {
          return definition_ref(base.file, m->index);
        }
        return {};
      }
    }
    return {};
  }

  const std::vector<FileIndex>& files_;
  std::map<std::pair<uint32_t, std::string>, Ref> exports_;  // export_of, memoised
};

}  // namespace

void resolve(const ResolverInput& input, const ProjectConfig& config, std::vector<Edge>& edges) {
  const std::vector<FileIndex> files = index_files(input, config);
  std::vector<std::vector<Edge>> by_file(files.size());
  each_file(files.size(), input.threads, [&](uint32_t i) { Resolver(files).run(i, by_file[i]); });
  join_file_edges(by_file, edges);
}

}  // namespace anchorfs::analysis::javascript
