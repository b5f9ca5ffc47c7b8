// What a name or access chain denotes, from scopes and imports alone (the dense view's resolver).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/graph.h"
#include "analysis/python/facts.h"
#include "analysis/python/imports.h"
#include "analysis/python/modules.h"

namespace anchorfs::analysis::python {

// What a chain denotes. `spelled` is the import-qualified name whatever the kind ("os.environ",
// "django.conf.settings", "pathlib.Path().read_text"), so rules can match on spelling too.
struct Symbol {
  enum class Kind : uint8_t {
    Unknown,   // a local variable, a parameter, an ambiguous binding, anything not followed
    External,  // outside the repository (or a builtin when `builtin`)
    Module,    // a repository module (`file` is kNone for a namespace package)
    Entity,    // a repository class or function
    Instance,  // an instance of repository class `entity`
    Value,     // a module-level variable `name` of repository file `file` (assigned, not defined)
  };
  Kind kind = Kind::Unknown;
  bool builtin = false;
  std::string spelled;
  uint32_t file = UINT32_MAX;      // index into ResolverInput::files (Module, Value)
  uint32_t module = UINT32_MAX;    // Module: its ModuleIndex id
  EntityIndex entity = kNoEntity;  // Entity; Instance: its class; Value: its class when an instance
  std::string name;                // Value: the variable
};

// Flow-insensitive, precision first: a name bound by both an import and a definition, or only
// by assignments inside a function, is Unknown. What an import statement names, and which names a
// star import brings in, it takes from the ImportTable the call graph reads too. Not thread-safe
// (memoizes).
class SymbolResolver {
 public:
  SymbolResolver(const ResolverInput& input, const ImportTable& imports, const Graph& graph);
  ~SymbolResolver();

  // The symbol `chain` ("a.b().c") denotes when written in `scope` of `file`.
  Symbol resolve(uint32_t file, uint32_t scope, std::string_view chain);
  Symbol name(uint32_t file, uint32_t scope, std::string_view name);
  Symbol member(const Symbol& of, std::string_view part);
  Symbol module_symbol(uint32_t module) const;

  // Where `name` binds, looking outward from `scope` as Python does (class bodies are not
  // enclosing scopes of their methods); kNone when nothing in the file binds it.
  uint32_t binding_scope(uint32_t file, uint32_t scope, std::string_view name);
  // Module-level names of `file` bound only by assignment (constants and variables).
  bool is_module_variable(uint32_t file, std::string_view name);
  // Names of `file` that some function declares `global`.
  bool is_declared_global(uint32_t file, std::string_view name);

  EntityIndex entity_of(uint32_t file, uint32_t scope) const {
    return input_.files[file].entity + scope;
  }
  // Base classes of a class entity (resolved Inherits edges).
  std::vector<EntityIndex> bases(EntityIndex cls) const;

 private:
  struct FileIndex;
  FileIndex& index(uint32_t file);
  Symbol resolve_chain(uint32_t file, uint32_t scope, std::string_view chain, int depth);
  Symbol resolve_name(uint32_t file, uint32_t scope, std::string_view name, int depth);
  Symbol module_member(uint32_t file, std::string_view name, int depth);
  Symbol member(const Symbol& of, std::string_view part, int depth);
  Symbol attribute(const Symbol& of, std::string_view name, int depth);
  Symbol class_member(EntityIndex cls, std::string_view name, int depth);
  Symbol import_of(uint32_t file, uint32_t stmt, int depth);
  uint32_t file_of_entity(EntityIndex e) const;

  const ResolverInput& input_;
  const ImportTable& imports_;
  const ModuleIndex& modules_;
  const Graph& graph_;
  std::vector<std::unique_ptr<FileIndex>> files_;
  std::unordered_map<EntityIndex, uint32_t> file_by_entity_;
  std::unordered_map<std::string, Symbol> module_level_;  // memo: (file, name) at module scope
};

}  // namespace anchorfs::analysis::python
