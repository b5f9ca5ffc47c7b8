// Python module names of repository files, and import resolution between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/python/facts.h"

namespace anchorfs::analysis::python {

// A module: a file, or a directory that is a package (with or without __init__.py).
struct Module {
  std::string name;            // dotted
  uint32_t file = UINT32_MAX;  // index into ResolverInput::files; none for a namespace package
  bool is_package = false;
};

// Every file gets its package-qualified name (parent directories that hold an __init__.py, and
// the repository root's own name when the root itself is a package) and, when different, its
// repository-relative dotted name, so both `import pkg.mod` and script-style imports resolve.
class ModuleIndex {
 public:
  explicit ModuleIndex(const ResolverInput& input);

  const std::vector<Module>& modules() const { return modules_; }
  std::optional<uint32_t> find(std::string_view dotted) const;
  std::optional<uint32_t> submodule(uint32_t module, std::string_view name) const;
  // The module a file is known by (its package-qualified name).
  uint32_t module_of_file(uint32_t file) const { return file_module_[file]; }

  // Resolves an import spec (`a.b`, `.a`, `..`) as written in `file`; `top` receives the module
  // an `import a.b.c` statement binds (the first component, found the same way).
  std::optional<uint32_t> resolve(uint32_t file, std::string_view spec,
                                  std::optional<uint32_t>* top = nullptr) const;

 private:
  // Looked up by string_view without making a string (tens of thousands of imports per analysis).
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  uint32_t add(const std::string& name, uint32_t file, bool is_package);
  std::vector<Module> modules_;
  std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>> by_name_;
  std::vector<uint32_t> file_module_;
  std::vector<std::string> file_dir_prefix_;  // repository-relative directory, dotted
};

}  // namespace anchorfs::analysis::python
