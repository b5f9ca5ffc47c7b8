// Reads tsconfig.json / jsconfig.json (comments and trailing commas allowed) and package.json.
#include "analysis/javascript/project_config.h"

#include <nlohmann/json.hpp>
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

ProjectConfig read_project_config(std::string_view root) {
  ProjectConfig config;
  for (const char* name : {"tsconfig.json", "jsconfig.json"}) {
    const std::string text = read_config_file(root, name);
    if (text.empty()) continue;
    read_compiler_options(parse_json(text), config);
    break;
  }
  const nlohmann::json package = parse_json(read_config_file(root, "package.json"));
  if (package.is_object()) {
    const auto name = package.find("name");
    if (name != package.end() && name->is_string()) config.package_name = name->get<std::string>();
  }
  return config;
}

}  // namespace anchorfs::analysis::javascript
