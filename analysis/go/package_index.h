// The Go files of a repository grouped into packages, with what each package declares and what
// each file imports: the tables resolution looks names up in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/code/code_facts.h"
#include "analysis/go/modules.h"
#include "analysis/go/platforms.h"
#include "analysis/language.h"

namespace anchorfs::analysis::go {

// A definition: file index (into PackageIndex::files) and definition index within its facts.
struct DefRef {
  uint32_t file = 0;
  uint32_t def = 0;
  friend bool operator==(const DefRef&, const DefRef&) = default;
};

// A package-level var or const: the file declaring it and its type as written there.
struct VarRef {
  uint32_t file = 0;
  std::string_view type;
};

struct Package {
  std::string dir;
  std::string_view name;
  std::vector<uint32_t> files;  // sorted; test files too (they see the package's names)
  std::unordered_map<std::string_view, std::vector<DefRef>> functions;
  std::unordered_map<std::string_view, std::vector<DefRef>> types;
  std::unordered_map<std::string_view, std::vector<VarRef>> vars;
  // "Type.Method" -> its declarations (one per build variant of a file).
  std::unordered_map<std::string, std::vector<DefRef>> methods;
};

// One import spec of a file, resolved to a package of the repository (or not).
struct FileImport {
  const code::Import* spec = nullptr;
  std::optional<uint32_t> package;  // index into PackageIndex::packages
  std::string_view local;           // the name the file uses for it ("" for "." and "_")
};

struct GoFile {
  const ResolverFile* input = nullptr;
  const code::CodeFacts* facts = nullptr;
  uint32_t package = 0;
  bool test = false;  // a _test.go file: only test files of its package see its names
  BuildSet builds;    // where it may be built (file-name suffixes, //go:build, decided tags)
  std::vector<FileImport> imports;
};

class PackageIndex {
 public:
  explicit PackageIndex(const ResolverInput& input);

  std::vector<GoFile> files;
  std::vector<Package> packages;

  // The importable package of a directory: its non-test files' package (the most common
  // package name among them), or nullopt.
  std::optional<uint32_t> package_in(std::string_view dir) const;

  // Whether `def` is visible to code in `from`: a test file's names only to test files, and
  // only names of files that may be built together with it (one configuration at least).
  bool visible(DefRef def, uint32_t from) const { return visible_file(def.file, from); }
  bool visible_file(uint32_t file, uint32_t from) const {
    if (file == from) return true;
    return (!files[file].test || files[from].test) &&
           built_together(files[file].builds, files[from].builds);
  }

  const code::Definition& definition(DefRef ref) const {
    return files[ref.file].facts->definitions[ref.def];
  }
  EntityIndex entity(DefRef ref) const { return files[ref.file].input->entity + ref.def; }

  // The import a file refers to by the name `local`, or nullptr.
  const FileImport* import_named(uint32_t file, std::string_view local) const;

 private:
  void add_declarations(uint32_t f);
  void resolve_imports(const Modules& modules);

  std::unordered_map<std::string, std::vector<uint32_t>> packages_by_dir_;
};

// A method's own name ("Put" for both a child "Put" and a top-level "Store.Put").
std::string_view method_name(const code::Definition& def);

}  // namespace anchorfs::analysis::go
