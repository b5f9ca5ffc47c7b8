// Reads tsconfig.json / jsconfig.json (comments and trailing commas allowed), package.json and
// the workspace members it or pnpm-workspace.yaml lists.
#include "analysis/javascript/project_config.h"

#include <fnmatch.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "analysis/javascript/module_paths.h"
#include "analysis/resolution_input.h"

namespace anchorfs::analysis::javascript {
namespace {

// The text of the repository's `name`, or "" when it is absent or refused.
std::string read_config_file(std::string_view root, std::string_view name) {
  SourceBytes input = read_resolution_input(root, name);
  return input.ok ? std::move(input.bytes) : std::string();
}

nlohmann::json parse_json(std::string_view relaxed) {
  return nlohmann::json::parse(strict_json(relaxed), nullptr, /*allow_exceptions=*/false);
}

void read_compiler_options(const nlohmann::json& config, ProjectConfig& out) {
  if (!config.is_object()) return;
  const auto options = config.find("compilerOptions");
  if (options == config.end() || !options->is_object()) return;
  const auto base = options->find("baseUrl");
  if (base != options->end() && base->is_string()) {
    out.has_base_url = true;
    out.base_url = join_path("", base->get<std::string>()).value_or("");
  }
  const auto paths = options->find("paths");
  if (paths == options->end() || !paths->is_object()) return;
  // Targets are relative to baseUrl when there is one, else to the tsconfig's directory.
  for (const auto& [pattern, targets] : paths->items()) {
    if (!targets.is_array()) continue;
    std::vector<std::string> resolved;
    for (const auto& target : targets) {
      if (!target.is_string()) continue;
      if (auto path = join_path(out.base_url, target.get<std::string>())) {
        resolved.push_back(std::move(*path));
      }
    }
    out.paths.emplace_back(pattern, std::move(resolved));
  }
}

// Every target string under an `exports` value, conditions in the order written.
void export_targets(const nlohmann::ordered_json& value, std::vector<std::string>& out, int depth) {
  if (depth > 8) return;
  if (value.is_string()) {
    out.push_back(value.get<std::string>());
  } else if (value.is_array() || value.is_object()) {
    for (const auto& item : value) export_targets(item, out, depth + 1);
  }
}

// A package.json of directory `dir`, or nullopt when it is absent, malformed or unnamed.
std::optional<PackageConfig> read_package(std::string_view root, const std::string& dir) {
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(
      read_config_file(root, dir.empty() ? "package.json" : dir + "/package.json"), nullptr,
      /*allow_exceptions=*/false);
  if (!json.is_object()) return std::nullopt;
  const auto name = json.find("name");
  if (name == json.end() || !name->is_string()) return std::nullopt;
  PackageConfig package;
  package.dir = dir;
  package.name = name->get<std::string>();
  const auto exports = json.find("exports");
  if (exports != json.end() && !exports->is_null()) {
    package.has_exports = true;
    // An object whose keys are all subpaths maps them; any other value is the "." subpath's.
    bool subpaths = exports->is_object() && !exports->empty();
    if (subpaths) {
      for (auto it = exports->begin(); it != exports->end(); ++it) {
        subpaths = subpaths && it.key().starts_with('.');
      }
    }
    if (subpaths) {
      for (const auto& [key, value] : exports->items()) {
        std::vector<std::string> targets;
        export_targets(value, targets, 0);
        package.exports.emplace_back(key, std::move(targets));
      }
    } else {
      std::vector<std::string> targets;
      export_targets(*exports, targets, 0);
      package.exports.emplace_back(".", std::move(targets));
    }
  }
  for (const char* field : {"main", "module"}) {
    const auto it = json.find(field);
    if (it != json.end() && it->is_string()) package.main.push_back(it->get<std::string>());
  }
  return package;
}

// Workspace patterns: the root package.json's "workspaces" (a list, or {"packages": list}) and
// pnpm-workspace.yaml's `packages:` list.
std::vector<std::string> workspace_patterns(std::string_view root, const nlohmann::json& package) {
  std::vector<std::string> patterns;
  if (package.is_object()) {
    auto list = package.find("workspaces");
    if (list != package.end() && list->is_object()) list = list->find("packages");
    if (list != package.end() && list->is_array()) {
      for (const auto& item : *list) {
        if (item.is_string()) patterns.push_back(item.get<std::string>());
      }
    }
  }
  const std::string yaml = read_config_file(root, "pnpm-workspace.yaml");
  bool in_packages = false;
  size_t at = 0;
  while (at < yaml.size()) {
    const size_t end = std::min(yaml.find('\n', at), yaml.size());
    std::string_view line = std::string_view(yaml).substr(at, end - at);
    at = end + 1;
    if (const size_t hash = line.find(" #"); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.front() != ' ' && line.front() != '-') {
      in_packages = line == "packages:";
      continue;
    }
    if (!in_packages) continue;
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    if (!line.starts_with("- ")) continue;
    line.remove_prefix(2);
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    if (line.size() >= 2 && (line.front() == '\'' || line.front() == '"') &&
        line.back() == line.front()) {
      line = line.substr(1, line.size() - 2);
    }
    if (!line.empty()) patterns.emplace_back(line);
  }
  return patterns;
}

// Whether directory `dir` is matched by a workspace pattern ("packages/*", "apps/**", "tools/x";
// '!' excludes).
bool in_workspace(const std::string& dir, const std::vector<std::string>& patterns) {
  bool included = false;
  for (const std::string& written : patterns) {
    const bool exclude = written.starts_with('!');
    std::string pattern = join_path("", exclude ? written.substr(1) : written).value_or("");
    if (pattern.empty()) continue;
    bool match = false;
    if (pattern.ends_with("/**")) {
      const std::string base = pattern.substr(0, pattern.size() - 3);
      match = dir.starts_with(base + "/") &&
              fnmatch(base.c_str(), dir.substr(0, base.size()).c_str(), FNM_PATHNAME) == 0;
    } else {
      match = fnmatch(pattern.c_str(), dir.c_str(), FNM_PATHNAME) == 0;
    }
    if (match) included = !exclude;
  }
  return included;
}

}  // namespace

std::string strict_json(std::string_view relaxed) {
  std::string out;
  out.reserve(relaxed.size());
  size_t pending_comma = std::string::npos;  // where in `out` a comma awaits its next token
  for (size_t i = 0; i < relaxed.size(); ++i) {
    const char c = relaxed[i];
    if (c == '"') {
      const size_t start = i;
      for (++i; i < relaxed.size() && relaxed[i] != '"'; ++i) {
        if (relaxed[i] == '\\') ++i;
      }
      pending_comma = std::string::npos;
      out.append(relaxed.substr(start, i - start + 1));
    } else if (c == '/' && i + 1 < relaxed.size() && relaxed[i + 1] == '/') {
      while (i < relaxed.size() && relaxed[i] != '\n') ++i;
      out += '\n';
    } else if (c == '/' && i + 1 < relaxed.size() && relaxed[i + 1] == '*') {
      const size_t end = relaxed.find("*/", i + 2);
      i = end == std::string_view::npos ? relaxed.size() : end + 1;
      out += ' ';
    } else if (c == '}' || c == ']') {
      if (pending_comma != std::string::npos) out[pending_comma] = ' ';
      pending_comma = std::string::npos;
      out += c;
    } else if (c == ',') {
      pending_comma = out.size();
      out += c;
    } else {
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') pending_comma = std::string::npos;
      out += c;
    }
  }
  return out;
}

ProjectConfig read_project_config(std::string_view root,
                                  const std::vector<std::string_view>& paths) {
  ProjectConfig config;
  for (const char* name : {"tsconfig.json", "jsconfig.json"}) {
    const std::string text = read_config_file(root, name);
    if (text.empty()) continue;
    read_compiler_options(parse_json(text), config);
    break;
  }
  if (std::optional<PackageConfig> own = read_package(root, "")) {
    config.packages.push_back(std::move(*own));
  }
  const std::vector<std::string> patterns =
      workspace_patterns(root, parse_json(read_config_file(root, "package.json")));
  if (patterns.empty()) return config;
  std::set<std::string> dirs;
  for (const std::string_view path : paths) {
    for (size_t slash = path.find('/'); slash != std::string_view::npos;
         slash = path.find('/', slash + 1)) {
      const std::string_view dir = path.substr(0, slash);
      if (dir.find("/node_modules") == std::string_view::npos && !dir.starts_with("node_modules")) {
        dirs.emplace(dir);
      }
    }
  }
  for (const std::string& dir : dirs) {
    if (!in_workspace(dir, patterns)) continue;
    if (std::optional<PackageConfig> member = read_package(root, dir)) {
      config.packages.push_back(std::move(*member));
    }
  }
  return config;
}

}  // namespace anchorfs::analysis::javascript
