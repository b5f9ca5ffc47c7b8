// Type evaluation over the package index: written types, receiver chains, fields and methods.
#include "analysis/go/types.h"

#include <string>

#include "analysis/go/extract.h"

namespace anchorfs::analysis::go {
namespace {

// Chains and embeddings deeper than this are not followed (they also guard against cycles:
// `x := y.f(); y := x.g()`, a struct embedding itself through a pointer).
constexpr int kMaxDepth = 6;

uint64_t key(uint32_t high, uint32_t low) {
  return (uint64_t{high} << 32) | low;
}

// The first segment of a chain, whether it is a call, and the rest after its '.'.
struct Segment {
  std::string_view name;
  bool call = false;
  std::string_view rest;
  bool last = true;
};

Segment first_segment(std::string_view chain) {
  Segment s;
  const size_t dot = chain.find('.');
  std::string_view head = chain.substr(0, dot);
  if (dot != std::string_view::npos) {
    s.rest = chain.substr(dot + 1);
    s.last = false;
  }
  if (head.ends_with("()")) {
    s.call = true;
    head.remove_suffix(2);
  }
  s.name = head;
  return s;
}

}  // namespace

TypeMembers type_members(const PackageIndex& index) {
  TypeMembers members;
  for (uint32_t f = 0; f < index.files.size(); ++f) {
    const code::CodeFacts& facts = *index.files[f].facts;
    for (const code::TypedName& name : facts.typed_names) {
      if (name.scope == 0 || name.scope >= facts.definitions.size()) continue;
      if (facts.definitions[name.scope].kind == EntityKind::Class || name.name == "return") {
        members[key(f, name.scope)].push_back(&name);
      }
    }
  }
  return members;
}

Types::Types(const PackageIndex& index, const TypeMembers& members)
    : index_(index), members_(members) {}

void Types::enter_file(uint32_t file) {
  file_ = file;
  locals_.clear();
  const code::CodeFacts& facts = *index_.files[file].facts;
  for (const code::TypedName& name : facts.typed_names) {
    if (name.scope == 0 || name.scope >= facts.definitions.size() || name.name == "return" ||
        facts.definitions[name.scope].kind == EntityKind::Class) {
      continue;
    }
    auto& scope = locals_[name.scope];
    const auto [it, added] = scope.emplace(name.name, name.type);
    if (!added && it->second != name.type) it->second = {};
  }
}

std::optional<std::string_view> Types::local(uint32_t scope, std::string_view name) const {
  return local_in(file_, scope, name);
}

std::optional<std::string_view> Types::local_in(uint32_t file, uint32_t scope,
                                                std::string_view name) const {
  if (file != file_ || scope == 0) return std::nullopt;
  const auto it = locals_.find(scope);
  if (it == locals_.end()) return std::nullopt;
  const auto found = it->second.find(name);
  if (found == it->second.end()) return std::nullopt;
  return found->second;
}

std::optional<TypeRef> Types::named(uint32_t file, std::string_view type) const {
  const size_t dot = type.find('.');
  uint32_t package = index_.files[file].package;
  std::string_view name = type;
  if (dot != std::string_view::npos) {
    const FileImport* import = index_.import_named(file, type.substr(0, dot));
    if (import == nullptr || !import->package) return std::nullopt;
    package = *import->package;
    name = type.substr(dot + 1);
  }
  const auto it = index_.packages[package].types.find(name);
  if (it == index_.packages[package].types.end()) return std::nullopt;
  for (const DefRef& def : it->second) {
    if (index_.visible(def, file)) return TypeRef{package, def};
  }
  return std::nullopt;
}

std::optional<TypeRef> Types::of_written(uint32_t file, uint32_t scope, std::string_view type,
                                         int depth) const {
  if (type.empty() || type.starts_with(kElementsOf)) return std::nullopt;
  if (type.starts_with(kRangeOf)) {
    return element_of(file, scope, type.substr(kRangeOf.size()), depth + 1);
  }
  if (type.find("()") != std::string_view::npos) return of_chain_in(file, scope, type, depth + 1);
  if (const std::optional<TypeRef> written = named(file, type)) return written;
  // A local assigned a field or a package var (`b := v.Block`): the chain's type.
  if (scope != 0 && type.find('.') != std::string_view::npos) {
    return of_chain_in(file, scope, type, depth + 1);
  }
  return std::nullopt;
}

std::optional<TypeRef> Types::of_chain(uint32_t scope, std::string_view chain) const {
  return of_chain_in(file_, scope, chain, 0);
}

std::optional<TypeRef> Types::element_of(uint32_t file, uint32_t scope, std::string_view chain,
                                         int depth) const {
  if (depth > kMaxDepth) return std::nullopt;
  // The declared type of the chain's last step, as written in `at`'s file and scope: a local or
  // package var, a field, or a function's or method's first result.
  struct Written {
    uint32_t file = 0;
    uint32_t scope = 0;
    std::string_view type;
  };
  std::optional<Written> written;
  auto result = [&](const std::vector<DefRef>& callees) {
    for (const DefRef& callee : callees) {
      const auto it = members_.find(key(callee.file, callee.def));
      if (it == members_.end()) return;
      std::optional<Written> own;
      for (const code::TypedName* name : it->second) {
        if (name->name == "return") own = Written{callee.file, 0, name->type};
      }
      if (!own || (written && written->type != own->type)) {
        written.reset();
        return;
      }
      written = own;
    }
  };
  const Package& own = index_.packages[index_.files[file].package];
  const size_t dot = chain.rfind('.');
  const std::string_view prefix = dot == std::string_view::npos ? "" : chain.substr(0, dot);
  std::string_view last = dot == std::string_view::npos ? chain : chain.substr(dot + 1);
  const bool call = last.ends_with("()");
  if (call) last.remove_suffix(2);
  const FileImport* import =
      prefix.empty() || prefix.find_first_of(".(") != std::string_view::npos ||
              local_in(file, scope, prefix)
          ? nullptr
          : index_.import_named(file, prefix);
  if (prefix.empty() || import != nullptr) {
    const Package* package = &own;
    if (import != nullptr) {
      if (!import->package) return std::nullopt;
      package = &index_.packages[*import->package];
    }
    if (call) {
      if (import == nullptr && local_in(file, scope, last)) return std::nullopt;  // a func value
      if (const auto f = package->functions.find(last); f != package->functions.end()) {
        result(f->second);
      }
    } else if (const auto declared = import == nullptr ? local_in(file, scope, last)
                                                       : std::nullopt) {
      written = Written{file, scope, *declared};
    } else if (const auto v = package->vars.find(last);
               v != package->vars.end() && v->second.size() == 1) {
      written = Written{v->second[0].file, 0, v->second[0].type};
    }
  } else if (const std::optional<TypeRef> type = of_chain_in(file, scope, prefix, depth + 1)) {
    if (call) {
      result(methods_at(*type, last, depth + 1));
    } else if (const auto it = members_.find(key(type->def.file, type->def.def));
               it != members_.end()) {
      for (const code::TypedName* member : it->second) {
        if (member->name == last) written = Written{type->def.file, 0, member->type};
      }
    }
  }
  if (!written || !written->type.starts_with(kElementsOf)) return std::nullopt;
  return of_written(written->file, written->scope, written->type.substr(kElementsOf.size()),
                    depth + 1);
}

std::optional<TypeRef> Types::result_of(const std::vector<DefRef>& callees, int depth) const {
  // Build variants of one function agree on their result or are not evident.
  std::optional<TypeRef> result;
  for (const DefRef& callee : callees) {
    const auto it = members_.find(key(callee.file, callee.def));
    if (it == members_.end()) return std::nullopt;
    std::optional<TypeRef> type;
    for (const code::TypedName* name : it->second) {
      if (name->name == "return") type = of_written(callee.file, 0, name->type, depth + 1);
    }
    if (!type || (result && !(result->def == type->def))) return std::nullopt;
    result = type;
  }
  return result;
}

std::optional<TypeRef> Types::of_chain_in(uint32_t file, uint32_t scope, std::string_view chain,
                                          int depth) const {
  if (depth > kMaxDepth || chain.empty()) return std::nullopt;
  Segment head = first_segment(chain);
  const Package& own = index_.packages[index_.files[file].package];
  std::optional<TypeRef> type;
  if (head.call) {
    if (local_in(file, scope, head.name)) return std::nullopt;  // a func value
    if (const auto f = own.functions.find(head.name); f != own.functions.end()) {
      type = result_of(f->second, depth);
    } else {
      type = named(file, head.name);  // a conversion T(x)
    }
  } else if (const auto declared = local_in(file, scope, head.name)) {
    type = of_written(file, scope, *declared, depth);
  } else if (const FileImport* import = index_.import_named(file, head.name)) {
    // pkg.F() or pkg.V: one more segment names a member of the imported package.
    if (!import->package || head.last) return std::nullopt;
    const Package& package = index_.packages[*import->package];
    const Segment member = first_segment(head.rest);
    if (member.call) {
      const auto f = package.functions.find(member.name);
      if (f != package.functions.end()) {
        type = result_of(f->second, depth);
      } else if (index_.packages[*import->package].types.count(member.name) > 0) {
        type = named(file, std::string(head.name) + "." + std::string(member.name));
      }
    } else if (const auto v = package.vars.find(member.name); v != package.vars.end()) {
      if (v->second.size() == 1) type = of_written(v->second[0].file, 0, v->second[0].type, depth);
    }
    head = member;
  } else if (const auto v = own.vars.find(head.name); v != own.vars.end()) {
    if (v->second.size() == 1) type = of_written(v->second[0].file, 0, v->second[0].type, depth);
  }
  // Then fields and method results, one segment at a time.
  while (type && !head.last) {
    head = first_segment(head.rest);
    if (head.call) {
      type = result_of(methods_at(*type, head.name, depth), depth);
    } else {
      type = field(*type, head.name, depth);
    }
  }
  return type;
}

std::optional<TypeRef> Types::field(const TypeRef& type, std::string_view name, int depth) const {
  if (depth > kMaxDepth) return std::nullopt;
  const auto it = members_.find(key(type.def.file, type.def.def));
  if (it != members_.end()) {
    for (const code::TypedName* member : it->second) {
      if (member->name == name) return of_written(type.def.file, 0, member->type, depth + 1);
    }
  }
  return std::nullopt;
}

std::vector<DefRef> Types::methods(const TypeRef& type, std::string_view name) const {
  return methods_at(type, name, 0);
}

std::vector<DefRef> Types::methods_at(const TypeRef& type, std::string_view name,
                                      int depth) const {
  if (depth > kMaxDepth) return {};
  const code::Definition& def = index_.definition(type.def);
  if (def.role == "interface") return {};
  const Package& package = index_.packages[type.package];
  const auto it = package.methods.find(def.name + "." + std::string(name));
  if (it != package.methods.end()) return it->second;
  // Promoted from exactly one embedded type (two at the same depth would be ambiguous in Go).
  std::vector<DefRef> promoted;
  for (const std::string& base : def.bases) {
    const std::optional<TypeRef> embedded = named(type.def.file, base);
    if (!embedded) continue;
    std::vector<DefRef> found = methods_at(*embedded, name, depth + 1);
    if (found.empty()) continue;
    if (!promoted.empty()) return {};
    promoted = std::move(found);
  }
  return promoted;
}

}  // namespace anchorfs::analysis::go
