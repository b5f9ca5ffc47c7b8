// The crates and module tree of a repository's Rust files: which file each `mod name;` declares,
// each module's parent and crate root, and which crate a name like `regex` denotes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/code/code_facts.h"
#include "analysis/language.h"

namespace anchorfs::analysis::rust {

// A repository's Rust files and their facts, with entity arithmetic: definition d of file f is
// entity files[f].entity + d.
class RustFiles {
 public:
  explicit RustFiles(std::span<const ResolverFile> files);
  size_t size() const { return files_.size(); }
  std::string_view path(uint32_t f) const { return files_[f].path; }
  EntityIndex entity(uint32_t f) const { return files_[f].entity; }
  const code::CodeFacts& facts(uint32_t f) const { return *facts_[f]; }
  // The file holding entity e (a file's or one of its definitions').
  uint32_t file_of(EntityIndex e) const;
  const code::Definition& definition(EntityIndex e) const;
  bool is_file(EntityIndex e) const;
  // A module: a file or an inline `mod name { ... }`.
  bool is_module(EntityIndex e) const;
  // The entity containing e (a file contains nothing's parent: kNoEntity).
  EntityIndex parent(EntityIndex e) const;
  // The module e is in (itself for a module).
  EntityIndex module_of(EntityIndex e) const;
  // The file with this repository-relative path, or -1.
  int find(std::string_view path) const;

 private:
  std::span<const ResolverFile> files_;
  std::vector<const code::CodeFacts*> facts_;
  std::unordered_map<std::string_view, uint32_t> by_path_;
};

class ModuleTree {
 public:
  // Reads the Cargo.toml of every directory holding a crate (under `root`).
  ModuleTree(std::string_view root, const RustFiles& files);

  // The module a module is declared in; kNoEntity for a crate root.
  EntityIndex parent_module(EntityIndex module) const;
  // The root file of the crate a module belongs to.
  EntityIndex crate_root(EntityIndex module) const;
  // The library root of the repository's crate called `name` as seen from `from`: its own
  // package's library, else the only library by that name; kNoEntity when none or ambiguous.
  EntityIndex extern_crate(std::string_view name, EntityIndex from) const;
  // Whether `use` paths in this module's crate are crate-relative (edition 2015).
  bool edition_2015(EntityIndex module) const;
  // (declaring file, declared file) of every `mod name;` that names a file of the repository.
  const std::vector<std::pair<EntityIndex, EntityIndex>>& declarations() const {
    return declarations_;
  }
  // The file module a `mod name;` in namespace `module` declares (kNoEntity when none).
  EntityIndex declared(EntityIndex module, std::string_view name) const;

 private:
  struct Package {
    std::string dir;  // "" for the repository root, else "a/b/"
    std::string lib_name;
    bool edition_2015 = true;
    EntityIndex lib_root = kNoEntity;
  };
  void read_packages(std::string_view root);
  void declare_modules();
  void find_roots();
  int package_of_file(uint32_t f) const { return package_of_file_[f]; }

  const RustFiles& files_;
  std::vector<Package> packages_;
  std::vector<int> package_of_file_;             // -1: no Cargo.toml above it
  std::unordered_map<EntityIndex, EntityIndex> parent_;  // file module -> declaring module
  std::vector<EntityIndex> root_of_file_;
  std::vector<std::pair<EntityIndex, EntityIndex>> declarations_;
  std::unordered_map<std::string, EntityIndex> declared_;  // "<module entity>/<name>"
};

}  // namespace anchorfs::analysis::rust
