// What a JavaScript/TypeScript project's configuration says about module specifiers: tsconfig's
// (or jsconfig's) compilerOptions.baseUrl and paths, and the packages of the repository (the
// root's package.json and its workspace members') by name, with their `exports`.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace anchorfs::analysis::javascript {

// The files at the repository root this configuration is read from (resolution inputs).
inline constexpr std::string_view kConfigFiles[] = {"tsconfig.json", "jsconfig.json",
                                                    "package.json", "pnpm-workspace.yaml"};

// A package of the repository, which its own files may import by name (`"zod"`, `"zod/v4"`).
struct PackageConfig {
  std::string dir;   // repository-relative, normalised ("" is the root)
  std::string name;  // package.json "name"
  // package.json "exports" as subpaths ("." , "./v4", "./*") and, per subpath, every target its
  // conditions name in the order written (relative to `dir`); empty without "exports".
  std::vector<std::pair<std::string, std::vector<std::string>>> exports;
  bool has_exports = false;
  std::vector<std::string> main;  // "main" and "module", for a package without "exports"
};

struct ProjectConfig {
  bool has_base_url = false;
  std::string base_url;  // repository-relative directory, normalised ("" is the root)
  // paths: a pattern ("@app/*" or an exact name) and its targets, relative to the repository.
  std::vector<std::pair<std::string, std::vector<std::string>>> paths;
  // The root's package (when its package.json has a name) and the workspace members: packages
  // listed by the root package.json's "workspaces" or pnpm-workspace.yaml's "packages".
  std::vector<PackageConfig> packages;
};

// tsconfig.json allows comments and trailing commas; both are removed (outside strings) so that
// a strict JSON parser reads it.
std::string strict_json(std::string_view relaxed);

// Reads the configuration under `root`; anything missing or malformed contributes nothing.
// Workspace members are looked for among the directories holding `paths` (the front end's
// repository-relative files).
ProjectConfig read_project_config(std::string_view root,
                                  const std::vector<std::string_view>& paths = {});

}  // namespace anchorfs::analysis::javascript
