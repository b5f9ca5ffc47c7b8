// Name and chain resolution for the dense view: scopes, imports, re-exports, class members.
#include "analysis/python/dense_symbols.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "analysis/python/dense_names.h"

namespace anchorfs::analysis::python {
namespace {

// Re-export chains and class hierarchies longer than this are not followed.
constexpr int kMaxDepth = 16;

uint64_t key(uint32_t scope, uint32_t string) {
  return (uint64_t{scope} << 32) | string;
}

}  // namespace

struct SymbolResolver::FileIndex {
  // How a name is bound in one scope.
  struct Binding {
    bool param = false, assign = false, define = false, global = false, nonlocal = false;
    uint32_t define_scope = kNone;
    uint32_t import_stmt = kNone;  // the first import binding the name
    bool imports_agree = true;
    uint32_t assign_value = kNone;  // the value of the only plain assignment
    uint32_t assigns = 0;
    bool bound() const { return param || assign || define || import_stmt != kNone; }
  };

  const FileFacts* facts = nullptr;
  std::unordered_map<std::string_view, uint32_t> string_id;  // the first id of each content
  std::unordered_map<uint64_t, Binding> bindings;            // by (scope, string id)
  std::vector<uint32_t> star_imports;                        // module-level ImportStar stmts
  std::unordered_set<uint32_t> declared_global;              // string ids

  explicit FileIndex(const FileFacts& f) : facts(&f) {
    for (uint32_t i = 0; i < f.strings.size(); ++i) string_id.try_emplace(f.strings[i], i);
    for (uint32_t s = 0; s < f.scopes.size(); ++s) {
      const Scope& scope = f.scopes[s];
      for (uint32_t p = 0; p < scope.params_count; ++p) {
        bindings[key(s, f.params[scope.params_begin + p].name)].param = true;
      }
    }
    for (uint32_t i = 0; i < f.stmts.size(); ++i) {
      const Stmt& st = f.stmts[i];
      switch (st.kind) {
        case StmtKind::Assign:
          if (f.exprs[st.a].kind == ExprKind::Name) {
            Binding& b = bindings[key(st.scope, f.exprs[st.a].str)];
            b.assign = true;
            b.assign_value = st.b;
            ++b.assigns;
          } else {
            bind_targets(st.scope, st.a, 0);
          }
          break;
        case StmtKind::Define: {
          Binding& b = bindings[key(st.scope, f.scopes[st.a].name)];
          b.define = true;
          if (b.define_scope == kNone) b.define_scope = st.a;
          break;
        }
        case StmtKind::ImportModule:
        case StmtKind::ImportFrom: {
          Binding& b = bindings[key(st.scope, st.str)];
          if (b.import_stmt == kNone) {
            b.import_stmt = i;
          } else {
            const Stmt& first = f.stmts[b.import_stmt];
            b.imports_agree = b.imports_agree && first.kind == st.kind &&
                              f.strings[first.a] == f.strings[st.a] && first.b == st.b;
          }
          break;
        }
        case StmtKind::ImportStar:
          if (st.scope == 0) star_imports.push_back(i);
          break;
        case StmtKind::Global:
          bindings[key(st.scope, st.str)].global = true;
          declared_global.insert(st.str);
          break;
        case StmtKind::Nonlocal:
          bindings[key(st.scope, st.str)].nonlocal = true;
          break;
        default:
          break;
      }
    }
  }

  // Names bound by an unpacking target; such bindings never count as a single assignment.
  void bind_targets(uint32_t scope, uint32_t e, int depth) {
    if (depth > kMaxDepth * 4) return;
    const Expr& x = facts->exprs[e];
    if (x.kind == ExprKind::Name) {
      Binding& b = bindings[key(scope, x.str)];
      b.assign = true;
      b.assigns += 2;
    } else if (x.kind == ExprKind::Tuple || x.kind == ExprKind::Container) {
      for (uint32_t i = 0; i < x.list_count; ++i) {
        bind_targets(scope, facts->lists[x.list_begin + i], depth + 1);
      }
    } else if (x.kind == ExprKind::Star && x.a != kNone) {
      bind_targets(scope, x.a, depth + 1);
    }
  }

  std::optional<uint32_t> id(std::string_view s) const {
    const auto it = string_id.find(s);
    if (it == string_id.end()) return std::nullopt;
    return it->second;
  }

  const Binding* find(uint32_t scope, std::string_view name) const {
    const auto s = id(name);
    if (!s) return nullptr;
    const auto it = bindings.find(key(scope, *s));
    return it == bindings.end() ? nullptr : &it->second;
  }

  // "a.b()" for a Name/Attribute/Call expression of the IR.
  std::optional<std::string> chain(uint32_t e, int depth) const {
    if (depth > kMaxDepth) return std::nullopt;
    const Expr& x = facts->exprs[e];
    switch (x.kind) {
      case ExprKind::Name:
        return facts->strings[x.str];
      case ExprKind::Attribute: {
        auto object = chain(x.a, depth + 1);
        if (object) *object += "." + facts->strings[x.str];
        return object;
      }
      case ExprKind::Call: {
        auto callee = chain(x.a, depth + 1);
        if (callee) *callee += "()";
        return callee;
      }
      default:
        return std::nullopt;
    }
  }
};

SymbolResolver::SymbolResolver(const ResolverInput& input, const ImportTable& imports,
                               const Graph& graph)
    : input_(input),
      imports_(imports),
      modules_(imports.modules()),
      graph_(graph),
      files_(input.files.size()) {
  for (uint32_t i = 0; i < input.files.size(); ++i) file_by_entity_[input.files[i].entity] = i;
}

SymbolResolver::~SymbolResolver() = default;

SymbolResolver::FileIndex& SymbolResolver::index(uint32_t file) {
  if (!files_[file]) files_[file] = std::make_unique<FileIndex>(*input_.files[file].facts);
  return *files_[file];
}

uint32_t SymbolResolver::file_of_entity(EntityIndex e) const {
  const auto it = file_by_entity_.find(graph_.entities[e].file);
  return it == file_by_entity_.end() ? UINT32_MAX : it->second;
}

std::vector<EntityIndex> SymbolResolver::bases(EntityIndex cls) const {
  std::vector<EntityIndex> out;
  auto before = [](const Edge& e, std::pair<Relation, EntityIndex> k) {
    return e.relation != k.first ? e.relation < k.first : e.from < k.second;
  };
  auto it = std::lower_bound(graph_.edges.begin(), graph_.edges.end(),
                             std::pair{Relation::Inherits, cls}, before);
  for (; it != graph_.edges.end() && it->relation == Relation::Inherits && it->from == cls; ++it) {
    out.push_back(it->to);
  }
  return out;
}

uint32_t SymbolResolver::binding_scope(uint32_t file, uint32_t scope, std::string_view name) {
  const FileIndex& fi = index(file);
  const std::vector<Scope>& scopes = fi.facts->scopes;
  uint32_t s = scope;
  for (int guard = 0; guard < 4 * kMaxDepth + 256 && s < scopes.size(); ++guard) {
    const FileIndex::Binding* b = fi.find(s, name);
    if (b != nullptr && b->global && s != 0) {
      s = 0;
      continue;
    }
    if (b != nullptr && b->nonlocal && s != 0) {
      s = scopes[s].parent;
      while (s != 0 && scopes[s].kind == ScopeKind::Class) s = scopes[s].parent;
      continue;
    }
    if (b != nullptr && b->bound()) return s;
    if (s == 0) return kNone;
    s = scopes[s].parent;
    while (s != 0 && scopes[s].kind == ScopeKind::Class) s = scopes[s].parent;
  }
  return kNone;
}

bool SymbolResolver::is_module_variable(uint32_t file, std::string_view name) {
  const FileIndex::Binding* b = index(file).find(0, name);
  return b != nullptr && b->assign && !b->define && b->import_stmt == kNone && !b->param;
}

bool SymbolResolver::is_declared_global(uint32_t file, std::string_view name) {
  const FileIndex& fi = index(file);
  const auto s = fi.id(name);
  return s && fi.declared_global.contains(*s);
}

Symbol SymbolResolver::module_symbol(uint32_t module) const {
  Symbol s;
  s.kind = Symbol::Kind::Module;
  s.module = module;
  s.file = modules_.modules()[module].file;
  s.spelled = modules_.modules()[module].name;
  return s;
}

Symbol SymbolResolver::name(uint32_t file, uint32_t scope, std::string_view name) {
  return resolve_name(file, scope, name, 0);
}

Symbol SymbolResolver::resolve_name(uint32_t file, uint32_t scope, std::string_view name,
                                    int depth) {
  Symbol out;
  if (depth > kMaxDepth) return out;
  const uint32_t s = binding_scope(file, scope, name);
  if (s == kNone) {
    out.kind = Symbol::Kind::External;
    out.builtin = true;
    out.spelled = name;
    return out;
  }
  std::string memo;
  if (s == 0) {
    memo = std::to_string(file) + '\0' + std::string(name);
    if (const auto it = module_level_.find(memo); it != module_level_.end()) return it->second;
    module_level_.emplace(memo, Symbol{});  // a cycle of re-exports resolves to Unknown
  }
  FileIndex& fi = index(file);
  const FileIndex::Binding& b = *fi.find(s, name);
  const std::string& module_name = modules_.modules()[modules_.module_of_file(file)].name;
  const std::string qualified =
      s == 0 && !module_name.empty() ? module_name + "." + std::string(name) : std::string(name);
  if (b.param) {
    // A parameter: unknown.
  } else if (b.import_stmt != kNone) {
    if (!b.define && b.imports_agree) out = import_of(file, b.import_stmt, depth + 1);
  } else if (b.define && !b.assign) {
    out.kind = Symbol::Kind::Entity;
    out.entity = entity_of(file, b.define_scope);
    out.spelled = qualified;
  } else if (b.assign && !b.define && s == 0) {
    out.kind = Symbol::Kind::Value;
    out.file = file;
    out.name = name;
    out.spelled = qualified;
    const Expr& value = fi.facts->exprs[b.assign_value];
    if (b.assigns == 1 && value.kind == ExprKind::Call) {
      // `registry = Registry()`: an instance of a repository class.
      if (auto callee = fi.chain(value.a, 0)) {
        const Symbol cls = resolve_chain(file, 0, *callee, depth + 1);
        if (cls.kind == Symbol::Kind::Entity &&
            graph_.entities[cls.entity].kind == EntityKind::Class) {
          out.entity = cls.entity;
        }
      }
    } else if (b.assigns == 1 &&
               (value.kind == ExprKind::Name || value.kind == ExprKind::Attribute)) {
      // `register = registry.register`: an alias of a repository class or function.
      if (auto aliased = fi.chain(b.assign_value, 0)) {
        const Symbol target = resolve_chain(file, 0, *aliased, depth + 1);
        if (target.kind == Symbol::Kind::Entity) {
          out.kind = Symbol::Kind::Entity;
          out.entity = target.entity;
        }
      }
    }
  }
  if (!memo.empty()) module_level_[memo] = out;
  return out;
}

Symbol SymbolResolver::import_of(uint32_t file, uint32_t stmt, int depth) {
  const FileFacts& f = *index(file).facts;
  const Stmt& st = f.stmts[stmt];
  const ResolvedImport& import = *imports_.statement(file, stmt);
  Symbol out;
  if (import.bound != kNone) return module_symbol(import.bound);
  if (st.kind == StmtKind::ImportModule) {
    // Spelled as the name it binds: `import os.path` binds `os`.
    out.kind = Symbol::Kind::External;
    out.spelled = st.b == 1 ? f.strings[st.str] : f.strings[st.a];
    return out;
  }
  const std::string& spec = f.strings[st.a];
  const std::string& imported = f.strings[st.b];
  if (import.module != kNone) {
    out = attribute(module_symbol(import.module), imported, depth + 1);
    out.spelled = modules_.modules()[import.module].name + "." + imported;
    return out;
  }
  if (!spec.empty() && spec[0] != '.') {
    out.kind = Symbol::Kind::External;
    out.spelled = spec + "." + imported;
  }
  return out;
}

Symbol SymbolResolver::module_member(uint32_t file, std::string_view name, int depth) {
  Symbol s = resolve_name(file, 0, name, depth + 1);
  if (!s.builtin) return s;
  const FileIndex& fi = index(file);
  for (uint32_t stmt : fi.star_imports) {
    const uint32_t from = imports_.statement(file, stmt)->from_file;
    if (from == kNone || !imports_.star_exports(from, name)) continue;
    Symbol r = module_member(from, name, depth + 1);
    if (r.kind != Symbol::Kind::Unknown) return r;
  }
  return {};
}

Symbol SymbolResolver::class_member(EntityIndex cls, std::string_view name, int depth) {
  if (depth > kMaxDepth) return {};
  const uint32_t file = file_of_entity(cls);
  if (file == UINT32_MAX) return {};
  const uint32_t scope = cls - input_.files[file].entity;
  if (const FileIndex::Binding* b = index(file).find(scope, name); b != nullptr && b->bound()) {
    Symbol out;
    if (b->define && !b->assign && b->import_stmt == kNone) {
      out.kind = Symbol::Kind::Entity;
      out.entity = entity_of(file, b->define_scope);
    }
    return out;
  }
  for (EntityIndex base : bases(cls)) {
    Symbol r = class_member(base, name, depth + 1);
    if (r.kind != Symbol::Kind::Unknown) return r;
  }
  return {};
}

Symbol SymbolResolver::attribute(const Symbol& of, std::string_view name, int depth) {
  Symbol out;
  if (depth > kMaxDepth) return out;
  switch (of.kind) {
    case Symbol::Kind::External:
      out.kind = Symbol::Kind::External;
      break;
    case Symbol::Kind::Module:
      if (const auto sub = modules_.submodule(of.module, name)) return module_symbol(*sub);
      if (of.file != UINT32_MAX) out = module_member(of.file, name, depth + 1);
      break;
    case Symbol::Kind::Entity:
      if (graph_.entities[of.entity].kind == EntityKind::Class) {
        out = class_member(of.entity, name, depth + 1);
      }
      break;
    case Symbol::Kind::Instance:
    case Symbol::Kind::Value:
      if (of.entity != kNoEntity) out = class_member(of.entity, name, depth + 1);
      break;
    case Symbol::Kind::Unknown:
      break;
  }
  out.builtin = false;
  out.spelled = of.spelled + "." + std::string(name);
  return out;
}

Symbol SymbolResolver::member(const Symbol& of, std::string_view part) {
  return member(of, part, 0);
}

Symbol SymbolResolver::member(const Symbol& of, std::string_view part, int depth) {
  Symbol out = attribute(of, without_call(part), depth);
  if (!part.ends_with("()")) return out;
  std::string spelled = out.spelled + "()";
  if (out.kind == Symbol::Kind::Entity && graph_.entities[out.entity].kind == EntityKind::Class) {
    out.kind = Symbol::Kind::Instance;
  } else if (out.kind != Symbol::Kind::External) {
    out = Symbol{};
  }
  out.spelled = std::move(spelled);
  return out;
}

Symbol SymbolResolver::resolve(uint32_t file, uint32_t scope, std::string_view chain) {
  return resolve_chain(file, scope, chain, 0);
}

Symbol SymbolResolver::resolve_chain(uint32_t file, uint32_t scope, std::string_view chain,
                                     int depth) {
  const std::vector<std::string_view> parts = split_chain(chain);
  const std::string_view root = parts[0];
  Symbol s = resolve_name(file, scope, without_call(root), depth);
  if (root.ends_with("()")) {
    std::string spelled = s.spelled + "()";
    if (s.kind == Symbol::Kind::Entity && graph_.entities[s.entity].kind == EntityKind::Class) {
      s.kind = Symbol::Kind::Instance;
    } else if (s.kind != Symbol::Kind::External) {
      s = Symbol{};
    }
    s.builtin = false;
    s.spelled = std::move(spelled);
  }
  for (size_t i = 1; i < parts.size(); ++i) s = member(s, parts[i], depth);
  return s;
}

}  // namespace anchorfs::analysis::python
