// Module specifiers to repository files, as Node and TypeScript find them: relative paths with
// extension and index probing, tsconfig baseUrl and paths, and the repository's own packages by
// name (the root's and its workspace members', through their "exports").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/javascript/project_config.h"

namespace anchorfs::analysis::javascript {

// `relative` joined to the repository-relative directory `dir`, with "." and ".." segments
// folded; nullopt when it climbs above the repository root.
std::optional<std::string> join_path(std::string_view dir, std::string_view relative);

class ModulePaths {
 public:
  // `paths`: the repository-relative paths of the front end's files (they must outlive this).
  ModulePaths(const std::vector<std::string_view>& paths, ProjectConfig config);

  // The index (into `paths`) of the file `specifier` names when imported from file `from`, or
  // nullopt (a package in node_modules, a builtin, a file outside the analysed set).
  std::optional<uint32_t> resolve(std::string_view from, std::string_view specifier) const;

 private:
  std::optional<uint32_t> probe(const std::string& candidate) const;
  std::optional<uint32_t> in_package(const PackageConfig& package, std::string_view rest) const;
  std::optional<uint32_t> probe_file(std::string_view path) const;

  std::unordered_map<std::string_view, uint32_t> index_;
  ProjectConfig config_;
};

}  // namespace anchorfs::analysis::javascript
