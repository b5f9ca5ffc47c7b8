// Rust name resolution: namespaces of modules and functions, `use` bindings and globs, paths,
// associated items through impl blocks, and the evident types of call receivers.
#include "analysis/rust/names.h"

#include <algorithm>

#include "analysis/rust/facts_layout.h"

namespace anchorfs::analysis::rust {
namespace {

// Re-export chains, nested uses and type lookups deeper than this are given up (and cycles the
// guards miss end here). A step from a receiver chain to a shorter part of it (`a.b().c()` to
// `a.b()`) does not count: the text shrinks, so chains of any length resolve.
constexpr int kMaxDepth = 12;
// A call reaching more candidates than this is not evident (cfg variants give two or three).
constexpr size_t kMaxCallees = 3;

std::string_view first_segment(std::string_view path, std::string_view& rest) {
  const size_t colon = path.find("::");
  if (colon == std::string_view::npos) {
    rest = {};
    return path;
  }
  rest = path.substr(colon + 2);
  return path.substr(0, colon);
}

void append_unique(Targets& out, const Targets& more) {
  for (EntityIndex e : more) {
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  }
}

}  // namespace

Names::Names(const RustFiles& files, const ModuleTree& tree) : files_(files), tree_(tree) {
  for (uint32_t f = 0; f < files_.size(); ++f) {
    const code::CodeFacts& facts = files_.facts(f);
    const EntityIndex base = files_.entity(f);
    for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
      const code::Definition& def = facts.definitions[d];
      if (def.role == kRoleImpl) {
        all_impls_.push_back(base + d);
        continue;
      }
      if (def.role == kRoleMacro) macros_[def.name].push_back(base + d);
      items_.emplace(Key{base + def.parent, def.name}, base + d);
    }
    for (const code::Import& import : facts.imports) {
      if (import.source == kModDeclaration) continue;
      if (import.name == "*") {
        globs_[base + import.scope].push_back({f, &import});
        continue;
      }
      const std::string_view bound = import.alias.empty() ? import.name : import.alias;
      if (bound != "_") uses_.emplace(Key{base + import.scope, bound}, Use{f, &import});
    }
    for (const code::TypedName& typed : facts.typed_names) {
      typed_.emplace(Key{base + typed.scope, typed.name}, &typed);
    }
  }
}

bool Names::is_type(EntityIndex e) const {
  if (files_.is_file(e)) return false;
  const std::string_view role = files_.definition(e).role;
  return role == kRoleStruct || role == kRoleEnum || role == kRoleUnion || role == kRoleTrait;
}

bool Names::is_function(EntityIndex e) const {
  if (files_.is_file(e)) return false;
  const std::string_view role = files_.definition(e).role;
  return role == kRoleFn || role == kRoleMethod || role == kRoleExternFn;
}

// One namespace (a module, or a function body's items): its definitions, then its `use`
// bindings, then its globs. Impl blocks are not names.
Targets Names::in_namespace(EntityIndex ns, std::string_view name, int depth) {
  Targets out;
  if (depth > kMaxDepth) return out;
  const auto [begin, end] = items_.equal_range(Key{ns, name});
  for (auto it = begin; it != end; ++it) out.push_back(it->second);
  if (files_.is_module(ns)) {
    const EntityIndex declared = tree_.declared(ns, name);
    if (declared != kNoEntity) out.push_back(declared);
  }
  if (!out.empty()) return out;
  const auto [ubegin, uend] = uses_.equal_range(Key{ns, name});
  for (auto it = ubegin; it != uend; ++it) append_unique(out, use_targets(it->second, depth + 1));
  if (!out.empty()) return out;
  const auto globs = globs_.find(ns);
  if (globs == globs_.end()) return out;
  // What a namespace's globs give a name is computed once: modules glob each other in cycles
  // and diamonds (`use super::*` in children of a module that globs them), and a search per
  // path through them would grow exponentially. A search reaching a namespace whose globs are
  // still being searched for the name finds nothing there that the outer search will not.
  std::string key = std::to_string(ns);
  key += '/';
  key += name;
  const auto [memo, fresh] = glob_memo_.try_emplace(std::move(key));
  if (!fresh) return memo->second;  // done, or in progress (empty so far)
  for (const Use& glob : globs->second) {
    for (EntityIndex module : use_targets(glob, depth + 1)) {
      if (files_.is_module(module)) append_unique(out, in_namespace(module, name, depth + 1));
    }
  }
  glob_memo_[std::to_string(ns) + "/" + std::string(name)] = out;
  return out;
}

// A name where it is written: the enclosing function bodies' items and uses, then the module's.
Targets Names::scoped(std::string_view name, EntityIndex scope, int depth) {
  for (EntityIndex s = scope; s != kNoEntity; s = files_.parent(s)) {
    const bool module = files_.is_module(s);
    if (module || is_function(s)) {
      Targets found = in_namespace(s, name, depth);
      if (!found.empty() || module) return found;
    }
  }
  return {};
}

Targets Names::use_targets(const Use& use, int depth) {
  const auto memo = use_memo_.find(use.import);
  if (memo != use_memo_.end()) return memo->second;
  if (depth > kMaxDepth || !use_busy_.insert(use.import).second) return {};
  const EntityIndex scope = files_.entity(use.file) + use.import->scope;
  Targets out = path(use.import->source, scope, true, depth + 1);
  use_busy_.erase(use.import);
  use_memo_.emplace(use.import, out);
  return out;
}

Targets Names::path(std::string_view text, EntityIndex scope, bool use_path, int depth) {
  if (depth > kMaxDepth || text.empty()) return {};
  std::string_view rest;
  std::string_view head = first_segment(text, rest);
  const EntityIndex module = files_.module_of(scope);
  Targets current;
  if (head.empty()) {  // `::name`: an extern crate
    head = first_segment(rest, rest);
    const EntityIndex root = tree_.extern_crate(head, module);
    if (root != kNoEntity) current.push_back(root);
  } else if (head == "crate") {
    current.push_back(tree_.crate_root(module));
  } else if (head == "self") {
    current.push_back(module);
  } else if (head == "super") {
    const EntityIndex parent = tree_.parent_module(module);
    if (parent != kNoEntity) current.push_back(parent);
  } else if (head == "Self") {
    current = self_types(scope, depth + 1);
  } else {
    if (use_path && tree_.edition_2015(module)) {
      current = in_namespace(tree_.crate_root(module), head, depth + 1);
    } else {
      current = scoped(head, scope, depth + 1);
    }
    if (current.empty()) {
      const EntityIndex root = tree_.extern_crate(head, module);
      if (root != kNoEntity) current.push_back(root);
    }
  }
  while (!rest.empty() && !current.empty()) {
    const std::string_view segment = first_segment(rest, rest);
    Targets next;
    for (EntityIndex t : current) {
      if (segment == "super" && files_.is_module(t)) {
        const EntityIndex parent = tree_.parent_module(t);
        if (parent != kNoEntity) next.push_back(parent);
      } else if (files_.is_module(t)) {
        append_unique(next, in_namespace(t, segment, depth + 1));
      } else if (is_type(t)) {
        append_unique(next, associated(t, segment, depth + 1));
      }
    }
    current = std::move(next);
  }
  return current;
}

const std::vector<EntityIndex>& Names::impls_of(EntityIndex type) {
  if (!impls_ready_) {
    impls_ready_ = true;
    for (EntityIndex impl : all_impls_) {
      for (EntityIndex t : impl_types_at(impl, 0)) impls_[t].push_back(impl);
    }
  }
  static const std::vector<EntityIndex> kNone;
  const auto it = impls_.find(type);
  return it == impls_.end() ? kNone : it->second;
}

Targets Names::impl_types(EntityIndex impl) {
  return impl_types_at(impl, 0);
}

Targets Names::impl_types_at(EntityIndex impl, int depth) {
  const auto memo = impl_type_memo_.find(impl);
  if (memo != impl_type_memo_.end()) return memo->second;
  Targets out;
  for (EntityIndex t : path(files_.definition(impl).owner, files_.parent(impl), false, depth + 1)) {
    if (is_type(t)) out.push_back(t);
  }
  impl_type_memo_.emplace(impl, out);
  return out;
}

Targets Names::bases(EntityIndex definition) {
  Targets out;
  for (const std::string& base : files_.definition(definition).bases) {
    for (EntityIndex t : path(base, files_.parent(definition), false, 0)) {
      if (!files_.is_file(t) && files_.definition(t).role == kRoleTrait) out.push_back(t);
    }
  }
  return out;
}

// A trait's own method, else its supertraits'.
Targets Names::trait_methods(EntityIndex trait, std::string_view name, int depth) {
  Targets out;
  if (depth > kMaxDepth) return out;
  const auto [begin, end] = items_.equal_range(Key{trait, name});
  for (auto it = begin; it != end; ++it) {
    if (is_function(it->second)) out.push_back(it->second);
  }
  if (!out.empty()) return out;
  for (const std::string& base : files_.definition(trait).bases) {
    for (EntityIndex t : path(base, files_.parent(trait), false, depth + 1)) {
      if (t != trait && is_type(t)) append_unique(out, trait_methods(t, name, depth + 1));
    }
  }
  return out;
}

// `Type::name` or a method on a value of the type: an inherent impl's item wins; else the one
// trait impl defining it (several traits doing so is ambiguous: nothing); else a default method
// of a trait the type implements. For a trait (`dyn Trait`, a bound `T: Trait`): its declaration.
Targets Names::associated(EntityIndex type, std::string_view name, int depth) {
  if (depth > kMaxDepth) return {};
  if (files_.definition(type).role == kRoleTrait) return trait_methods(type, name, depth + 1);
  Targets inherent;
  Targets from_traits;
  size_t trait_impls_defining = 0;
  Targets traits;
  for (EntityIndex impl : impls_of(type)) {
    const bool trait_impl = !files_.definition(impl).bases.empty();
    Targets found;
    const auto [begin, end] = items_.equal_range(Key{impl, name});
    for (auto it = begin; it != end; ++it) found.push_back(it->second);
    if (trait_impl) {
      trait_impls_defining += !found.empty();
      append_unique(from_traits, found);
      append_unique(traits, bases(impl));
    } else {
      append_unique(inherent, found);
    }
  }
  if (!inherent.empty()) return inherent;
  if (trait_impls_defining == 1) return from_traits;
  if (trait_impls_defining > 1) return {};
  Targets defaults;
  for (EntityIndex trait : traits) append_unique(defaults, trait_methods(trait, name, depth + 1));
  return defaults.size() == 1 ? defaults : Targets{};
}

// The type `Self` denotes: the enclosing impl's type, or the enclosing trait.
Targets Names::self_types(EntityIndex scope, int depth) {
  for (EntityIndex s = scope; s != kNoEntity && !files_.is_file(s); s = files_.parent(s)) {
    const std::string_view role = files_.definition(s).role;
    if (role == kRoleImpl) return impl_types_at(s, depth + 1);
    if (role == kRoleTrait) return {s};
    if (role == kRoleMod) break;
  }
  return {};
}

// The types a type as the facts write it (facts_layout.h) denotes at `scope`.
Targets Names::type_targets(std::string_view type, EntityIndex scope, int depth) {
  if (type.empty() || depth > kMaxDepth) return {};
  if (type.front() == kElementOf) return element_types(type.substr(1), scope, depth + 1);
  if (type.ends_with(kCallResult)) {
    const bool unwrap = type.front() == kFallible;
    if (unwrap) type.remove_prefix(1);
    type.remove_suffix(kCallResult.size());
    return call_result(type, scope, unwrap, depth);
  }
  // An Option or Result, or a collection: not the type itself.
  if (type.front() == kFallible || type.front() == kElementsOf) return {};
  if (type == "Self") return self_types(scope, depth + 1);
  if (type.find("::") == std::string_view::npos) {
    // A generic parameter: its bounds, from the innermost scope declaring any.
    const std::string bound = kBoundOpen + std::string(type) + ">";
    for (EntityIndex s = scope; s != kNoEntity; s = files_.parent(s)) {
      const auto [begin, end] = typed_.equal_range(Key{s, bound});
      if (begin == end) continue;
      Targets out;
      for (auto it = begin; it != end; ++it) {
        for (EntityIndex t : path(it->second->type, s, false, depth + 1)) {
          if (is_type(t)) out.push_back(t);
        }
      }
      return out;
    }
  }
  Targets out;
  for (EntityIndex t : path(type, scope, false, depth + 1)) {
    if (is_type(t)) out.push_back(t);
  }
  return out;
}

// The functions a callee path (`f`, `Foo::new`, `crate::a::f`) names.
Targets Names::callable(std::string_view text, EntityIndex scope, int depth) {
  Targets out;
  const Targets found = text.find("::") == std::string_view::npos
                            ? scoped(text, scope, depth + 1)
                            : path(text, scope, false, depth + 1);
  for (EntityIndex t : found) {
    if (is_function(t)) out.push_back(t);
  }
  return out;
}

// What calling `callee` (a path, or a method on a receiver) returns: its declared return type,
// read at the function's own scope.
Targets Names::call_result(std::string_view callee, EntityIndex scope, bool unwrap, int depth) {
  Targets functions;
  const size_t dot = callee.rfind('.');
  if (dot == std::string_view::npos) {
    functions = callable(callee, scope, depth + 1);
  } else {  // a method on a receiver: "x.m", "self.a.m", "Foo::new().m"
    for (EntityIndex type : receiver_types(callee.substr(0, dot), scope, depth)) {
      for (EntityIndex t : associated(type, callee.substr(dot + 1), depth + 1)) {
        if (is_function(t)) functions.push_back(t);
      }
    }
  }
  Targets out;
  for (EntityIndex function : functions) {
    const auto [begin, end] = typed_.equal_range(Key{function, kReturnType});
    for (auto it = begin; it != end; ++it) {
      std::string_view returns = it->second->type;
      if (returns.empty() || (returns.front() == kFallible) != unwrap) continue;
      if (unwrap) returns.remove_prefix(1);
      append_unique(out, type_targets(returns, function, depth + 1));
    }
  }
  return out;
}

// The types of a receiver: `self`, a call's result, a field of a receiver (`self.field`, `x.0`,
// `self.a.b`), or a name typed in the innermost enclosing function declaring it (conflicting
// types there: nothing).
Targets Names::receiver_types(std::string_view receiver, EntityIndex scope, int depth) {
  if (depth > kMaxDepth) return {};
  if (receiver == "self") return self_types(scope, depth + 1);
  if (receiver.ends_with(kCallResult)) return type_targets(receiver, scope, depth);
  const size_t dot = receiver.rfind('.');
  if (dot != std::string_view::npos) {  // a field of a receiver
    const std::string_view name = receiver.substr(dot + 1);
    Targets out;
    for (EntityIndex type : receiver_types(receiver.substr(0, dot), scope, depth)) {
      const auto [begin, end] = typed_.equal_range(Key{type, name});
      for (auto it = begin; it != end; ++it) {
        append_unique(out, type_targets(it->second->type, type, depth + 1));
      }
    }
    return out;
  }
  for (EntityIndex s = scope; s != kNoEntity && !files_.is_module(s); s = files_.parent(s)) {
    const auto [begin, end] = typed_.equal_range(Key{s, receiver});
    if (begin == end) continue;
    const std::string_view type = begin->second->type;
    for (auto it = begin; it != end; ++it) {
      if (it->second->type != type) return {};
    }
    return type_targets(type, s, depth + 1);
  }
  return {};
}

// The element types of a typed name declared a collection ("[T"), read where it is declared.
Targets Names::elements(const code::TypedName& typed, EntityIndex scope, int depth) {
  const std::string_view type = typed.type;
  if (type.empty() || type.front() != kElementsOf) return {};
  return type_targets(type.substr(1), scope, depth + 1);
}

// The types of the elements of a receiver (what `for x in &receiver` binds x to): a name, a
// field or a call result declared a collection of a repository type.
Targets Names::element_types(std::string_view receiver, EntityIndex scope, int depth) {
  if (depth > kMaxDepth || receiver.empty()) return {};
  Targets out;
  if (receiver.ends_with(kCallResult)) {
    if (receiver.front() == kFallible) return {};
    const std::string_view callee = receiver.substr(0, receiver.size() - kCallResult.size());
    const size_t dot = callee.rfind('.');
    Targets functions;
    if (dot == std::string_view::npos) {
      functions = callable(callee, scope, depth + 1);
    } else {
      for (EntityIndex type : receiver_types(callee.substr(0, dot), scope, depth + 1)) {
        for (EntityIndex t : associated(type, callee.substr(dot + 1), depth + 1)) {
          if (is_function(t)) functions.push_back(t);
        }
      }
    }
    for (EntityIndex function : functions) {
      const auto [begin, end] = typed_.equal_range(Key{function, kReturnType});
      for (auto it = begin; it != end; ++it) {
        append_unique(out, elements(*it->second, function, depth + 1));
      }
    }
    return out;
  }
  const size_t dot = receiver.rfind('.');
  if (dot != std::string_view::npos) {
    for (EntityIndex type : receiver_types(receiver.substr(0, dot), scope, depth + 1)) {
      const auto [begin, end] = typed_.equal_range(Key{type, receiver.substr(dot + 1)});
      for (auto it = begin; it != end; ++it) append_unique(out, elements(*it->second, type, depth));
    }
    return out;
  }
  for (EntityIndex s = scope; s != kNoEntity && !files_.is_module(s); s = files_.parent(s)) {
    const auto [begin, end] = typed_.equal_range(Key{s, receiver});
    if (begin == end) continue;
    for (auto it = begin; it != end; ++it) {
      if (it->second->type != begin->second->type) return {};
    }
    return elements(*begin->second, s, depth);
  }
  return {};
}

// A macro invoked by name: the file's own macro_rules! of that name (textual scope), else the
// only one of the crate (#[macro_use] modules, #[macro_export]); several: nothing.
Targets Names::macros(uint32_t f, std::string_view name) const {
  const auto found = macros_.find(name);
  if (found == macros_.end()) return {};
  Targets same_file;
  Targets same_crate;
  const EntityIndex crate = tree_.crate_root(files_.entity(f));
  for (EntityIndex macro : found->second) {
    if (files_.file_of(macro) == f) same_file.push_back(macro);
    if (tree_.crate_root(macro) == crate) same_crate.push_back(macro);
  }
  if (!same_file.empty()) return same_file;
  return same_crate.size() == 1 ? same_crate : Targets{};
}

Targets Names::imported(uint32_t f, const code::Import& import) {
  return use_targets({f, &import}, 0);
}

Targets Names::callees(uint32_t f, const code::Call& call) {
  const EntityIndex scope = files_.entity(f) + call.scope;
  Targets out;
  switch (call.form) {
    case code::CallForm::Plain:
      out = call.name.ends_with('!') ? macros(f, call.name) : callable(call.name, scope, 0);
      break;
    case code::CallForm::Path:
      for (EntityIndex q : path(call.receiver, scope, false, 0)) {
        const Targets found =
            files_.is_module(q) ? in_namespace(q, call.name, 1)
                                : is_type(q) ? associated(q, call.name, 1) : Targets{};
        for (EntityIndex t : found) {
          if (is_function(t)) out.push_back(t);
        }
      }
      break;
    case code::CallForm::Member:
      for (EntityIndex type : receiver_types(call.receiver, scope, 0)) {
        for (EntityIndex t : associated(type, call.name, 1)) {
          if (is_function(t) && files_.definition(t).role == kRoleMethod) out.push_back(t);
        }
      }
      break;
    case code::CallForm::Construct:
      break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.size() > kMaxCallees) out.clear();
  return out;
}

}  // namespace anchorfs::analysis::rust
