// Dense relations from per-file dense facts: configuration, environment, constants, I/O and
// registration; data and test links come from dense_data.cpp and dense_tests.cpp.
#include "analysis/python/dense_resolve.h"

#include <string>

#include "analysis/python/dense_names.h"
#include "analysis/python/dense_parts.h"
#include "analysis/python/dense_rules.h"
#include "analysis/python/dense_symbols.h"
#include "analysis/python/entry_points.h"
#include "analysis/python/imports.h"
#include "analysis/python/modules.h"
#include "analysis/resolution_input.h"

namespace anchorfs::analysis::python {
namespace {

// Settings defined by more repository settings modules than this are shown by key only.
constexpr size_t kMaxSettingDefinitions = 3;

std::string_view base_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string without_calls(std::string_view spelled) {
  std::string out;
  out.reserve(spelled.size());
  for (size_t i = 0; i < spelled.size(); ++i) {
    if (spelled[i] == '(' && i + 1 < spelled.size() && spelled[i + 1] == ')') {
      ++i;
    } else {
      out += spelled[i];
    }
  }
  return out;
}

std::string join(const std::vector<std::string_view>& parts, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) out += '.';
    out += parts[i];
  }
  return out;
}

// A settings module: settings.py, global_settings.py, *_settings.py, or a module of a
// `settings` package.
bool is_settings_path(std::string_view path) {
  std::string_view stem = base_of(path);
  if (stem.ends_with(".py")) stem.remove_suffix(3);
  const size_t slash = path.rfind('/');
  const std::string_view dir = slash == std::string_view::npos ? "" : path.substr(0, slash);
  return stem == "settings" || stem == "global_settings" || stem.ends_with("_settings") ||
         base_of(dir) == "settings";
}

// The spelling of an object that holds settings: `settings`, `global_settings`, `*_settings`,
// reached through an import (never a bare unbound name or a local variable).
bool is_settings_object(const Symbol& s) {
  if (s.builtin || s.spelled.empty() || s.spelled[0] == '.') return false;
  const std::string_view last = chain_last(s.spelled);
  return last == "settings" || last == "global_settings" || last.ends_with("_settings");
}

bool is_config_getter(std::string_view name) {
  return name == "get" || name == "getint" || name == "getfloat" || name == "getboolean";
}

class DenseResolver {
 public:
  DenseResolver(const ResolverInput& input, const ImportTable& imports, Graph& graph)
      : input_(input), graph_(graph), modules_(imports.modules()), symbols_(input, imports, graph) {
    for (uint32_t i = 0; i < input.files.size(); ++i) {
      if (is_settings_path(input.files[i].path)) settings_files_.push_back(i);
    }
  }

  void run() {
    for (uint32_t fi = 0; fi < input_.files.size(); ++fi) {
      const FileFacts& f = *input_.files[fi].facts;
      for (const DenseFact& d : f.dense) fact(fi, f, d);
    }
    entry_points();
    add_data_dependencies(input_, graph_, symbols_, edges_);
    add_test_references(input_, graph_, edges_);
    graph_.edges.insert(graph_.edges.end(), edges_.begin(), edges_.end());
    graph_.labels.insert(graph_.labels.end(), labels_.begin(), labels_.end());
  }

 private:
  void label(EntityIndex e, Relation r, std::string value) {
    labels_.push_back({e, r, std::move(value)});
  }

  // `path:NAME` of a module-level name, or `NAME` when it is in the file that uses it.
  std::string defining_id(uint32_t using_file, uint32_t defining_file, std::string_view name) {
    if (using_file == defining_file) return std::string(name);
    return std::string(input_.files[defining_file].path) + ":" + std::string(name);
  }

  void fact(uint32_t fi, const FileFacts& f, const DenseFact& d) {
    const EntityIndex entity = symbols_.entity_of(fi, d.scope);
    const std::string& path = f.strings[d.path];
    const std::string_view key = d.key == kNone ? std::string_view{} : f.strings[d.key];
    const bool in_function = f.scopes[d.scope].kind == ScopeKind::Function;
    switch (d.kind) {
      case DenseKind::Read:
        read(fi, d.scope, entity, path, in_function);
        break;
      case DenseKind::Call:
        call(fi, d.scope, entity, path, key);
        break;
      case DenseKind::Key:
        subscript(fi, d.scope, entity, path, key);
        break;
      case DenseKind::Decorator:
        // Only definitions are decorated (facts from a damaged cache entry may say otherwise).
        if (d.scope != 0) decorator(fi, f.scopes[d.scope].parent, entity, path, key);
        break;
      case DenseKind::Write:
        break;  // data dependencies
    }
  }

  void read(uint32_t fi, uint32_t scope, EntityIndex entity, const std::string& path,
            bool in_function) {
    const std::vector<std::string_view> parts = split_chain(path);
    if (parts.size() == 1) {
      if (in_function && is_constant_name(path))
        constant(fi, entity, symbols_.name(fi, scope, path));
      return;
    }
    size_t k = 1;
    while (k < parts.size() && !is_constant_name(parts[k])) ++k;
    if (k == parts.size()) return;  // a class attribute: data dependencies
    const Symbol object = symbols_.resolve(fi, scope, join(parts, k));
    if (is_settings_object(object)) {
      config(entity, setting(fi, object, parts[k]));
    } else if (in_function && object.kind == Symbol::Kind::Module) {
      constant(fi, entity, symbols_.member(object, parts[k]));
    }
  }

  void constant(uint32_t fi, EntityIndex entity, const Symbol& s) {
    if (s.kind != Symbol::Kind::Value || s.file == UINT32_MAX) return;
    if (!symbols_.is_module_variable(s.file, s.name) ||
        symbols_.is_declared_global(s.file, s.name)) {
      return;
    }
    label(entity, Relation::ConstRef, defining_id(fi, s.file, s.name));
  }

  // Where setting `name` of settings object `object` is defined: `path:NAME` per defining
  // module, or the bare name when no module (or too many) define it.
  std::vector<std::string> setting(uint32_t fi, const Symbol& object, std::string_view name) {
    std::vector<uint32_t> defined;
    if (object.kind == Symbol::Kind::Module && object.file != UINT32_MAX) {
      const Symbol s = symbols_.member(object, name);
      if (s.kind == Symbol::Kind::Value && s.file != UINT32_MAX) defined.push_back(s.file);
    }
    if (defined.empty() && is_constant_name(name)) {
      for (uint32_t f : settings_files_) {
        if (symbols_.is_module_variable(f, name)) defined.push_back(f);
      }
    }
    if (defined.empty() || defined.size() > kMaxSettingDefinitions) return {std::string(name)};
    std::vector<std::string> out;
    for (uint32_t f : defined) out.push_back(defining_id(fi, f, name));
    return out;
  }

  void config(EntityIndex entity, std::vector<std::string> values) {
    for (std::string& v : values) label(entity, Relation::ConfigUsage, std::move(v));
  }

  void call(uint32_t fi, uint32_t scope, EntityIndex entity, const std::string& path,
            std::string_view key) {
    const Symbol callee = symbols_.resolve(fi, scope, path);
    const std::string dotted = without_calls(callee.spelled);
    if (callee.kind == Symbol::Kind::External) {
      if (!key.empty() && !callee.builtin && is_env_function(dotted)) {
        label(entity, Relation::EnvVar, std::string(key));
        return;
      }
      if (std::string kind = io_kind(dotted, callee.builtin); !kind.empty()) {
        label(entity, Relation::IoDep, std::move(kind));
        return;
      }
    }
    if (callee.kind != Symbol::Kind::Entity) {
      if (std::string kind = io_kind_of_method(path); !kind.empty()) {
        label(entity, Relation::IoDep, std::move(kind));
        return;
      }
    }
    const std::vector<std::string_view> parts = split_chain(path);
    if (!key.empty() && parts.size() >= 2 && is_config_getter(parts.back()) &&
        is_config_part(parts[parts.size() - 2])) {
      config_key(fi, scope, entity, join(parts, parts.size() - 1), key);
    }
  }

  void subscript(uint32_t fi, uint32_t scope, EntityIndex entity, const std::string& path,
                 std::string_view key) {
    const Symbol container = symbols_.resolve(fi, scope, path);
    if (container.kind == Symbol::Kind::External && is_env_mapping(container.spelled)) {
      label(entity, Relation::EnvVar, std::string(key));
      return;
    }
    if (is_config_part(split_chain(path).back())) config_key(fi, scope, entity, path, key);
  }

  void config_key(uint32_t fi, uint32_t scope, EntityIndex entity, const std::string& container,
                  std::string_view key) {
    const Symbol object = symbols_.resolve(fi, scope, container);
    if (object.kind == Symbol::Kind::External && is_env_mapping(object.spelled)) return;
    config(entity, setting(fi, object, key));
  }

  void decorator(uint32_t fi, uint32_t outer_scope, EntityIndex decorated, const std::string& path,
                 std::string_view text) {
    const bool is_call =
        text.size() > path.size() && text.starts_with(path) && text[path.size()] == '(';
    if (!is_registration(path, is_call)) return;
    const Symbol registrar = symbols_.resolve(fi, outer_scope, path);
    if (registrar.kind == Symbol::Kind::Entity) {
      edges_.push_back({registrar.entity, decorated, Relation::Registers});
    } else {
      label(decorated, Relation::Registers, std::string(text));
    }
  }

  void entry_points() {
    const std::string root(input_.root);
    std::vector<EntryPoint> all;
    if (const SourceBytes cfg = read_resolution_input(root, kSetupCfg); cfg.ok) {
      all = parse_setup_cfg(cfg.bytes);
    }
    if (const SourceBytes toml = read_resolution_input(root, kPyprojectToml); toml.ok) {
      for (EntryPoint& e : parse_pyproject(toml.bytes)) all.push_back(std::move(e));
    }
    for (const EntryPoint& e : all) {
      const auto module = modules_.find(e.module);
      if (!module) continue;
      Symbol s = symbols_.module_symbol(*module);
      if (!e.attr.empty()) {
        for (std::string_view part : split_chain(e.attr)) s = symbols_.member(s, part);
      }
      EntityIndex target = kNoEntity;
      if (s.kind == Symbol::Kind::Entity) {
        target = s.entity;
      } else if (s.kind == Symbol::Kind::Module && s.file != UINT32_MAX) {
        target = input_.files[s.file].entity;
      }
      if (target != kNoEntity) label(target, Relation::Registers, "entry_point:" + e.name);
    }
  }

  const ResolverInput& input_;
  Graph& graph_;
  const ModuleIndex& modules_;
  SymbolResolver symbols_;
  std::vector<uint32_t> settings_files_;
  std::vector<Edge> edges_;
  std::vector<Label> labels_;
};

}  // namespace

void add_dense_relations(const ResolverInput& input, const ImportTable& imports, Graph& graph) {
  if (input.files.empty()) return;
  DenseResolver(input, imports, graph).run();
}

}  // namespace anchorfs::analysis::python
