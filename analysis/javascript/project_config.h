// What a JavaScript/TypeScript project's configuration says about module specifiers: tsconfig's
// (or jsconfig's) compilerOptions.baseUrl and paths, and package.json's name.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace anchorfs::analysis::javascript {

// The files at the repository root this configuration is read from (resolution inputs).
inline constexpr std::string_view kConfigFiles[] = {"tsconfig.json", "jsconfig.json",
                                                    "package.json"};

struct ProjectConfig {
  bool has_base_url = false;
  std::string base_url;  // repository-relative directory, normalised ("" is the root)
  // paths: a pattern ("@app/*" or an exact name) and its targets, relative to the repository.
  std::vector<std::pair<std::string, std::vector<std::string>>> paths;
  std::string package_name;  // package.json "name": a self-import `name/sub` is `sub` here
};

// tsconfig.json allows comments and trailing commas; both are removed (outside strings) so that
// a strict JSON parser reads it.
std::string strict_json(std::string_view relaxed);

// Reads the configuration under `root`; anything missing or malformed contributes nothing.
ProjectConfig read_project_config(std::string_view root);

}  // namespace anchorfs::analysis::javascript
