// Go modules of a repository: which directories hold a go.mod, their module paths, and the
// directory an import path names.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::analysis::go {

// The module path a go.mod declares ("module example.com/m"), or "" when it declares none.
std::string module_path(std::string_view go_mod);

class Modules {
 public:
  // Reads the go.mod of every directory holding Go files, and of their ancestors, under `root`
  // (directories are repository-relative, "" for the root).
  Modules(const std::string& root, const std::vector<std::string>& directories);

  // The repository-relative directory of the package `import_path` names, when it lies inside
  // one of the repository's modules (the longest module path that prefixes it wins, as in Go).
  // The standard library's module ("std") holds every path whose first element has no dot.
  std::optional<std::string> directory_of(std::string_view import_path) const;

 private:
  // The directory when no module nested in `root` (another go.mod between) owns it.
  std::optional<std::string> owned_by(const std::string& root, std::string dir) const;

  std::map<std::string, std::string> roots_by_path_;  // module path -> its directory
  std::set<std::string> roots_;                       // directories holding a go.mod
  bool has_std_ = false;
  std::string std_root_;
};

}  // namespace anchorfs::analysis::go
