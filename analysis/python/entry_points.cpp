// A deliberately small reader of entry-point declarations in setup.cfg and pyproject.toml.
#include "analysis/python/entry_points.h"

#include <optional>

#include "analysis/python/dense_names.h"

namespace anchorfs::analysis::python {
namespace {

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\f\v");
  if (b == std::string_view::npos) return {};
  const size_t e = s.find_last_not_of(" \t\f\v");
  return s.substr(b, e - b + 1);
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n' || text[i] == '\r') {
      lines.push_back(text.substr(start, i - start));
      if (i + 1 < text.size() && text[i] == '\r' && text[i + 1] == '\n') ++i;
      start = i + 1;
    }
  }
  return lines;
}

bool dotted_identifiers(std::string_view s) {
  if (s.empty()) return false;
  for (std::string_view part : split_chain(s)) {
    if (!is_identifier(part)) return false;
  }
  return true;
}

// `name = pkg.mod:attr [extra]`.
std::optional<EntryPoint> entry(std::string_view group, std::string_view name,
                                std::string_view target) {
  target = trim(target);
  if (const size_t bracket = target.find('['); bracket != std::string_view::npos) {
    target = trim(target.substr(0, bracket));
  }
  EntryPoint e;
  e.group = group;
  e.name = trim(name);
  const size_t colon = target.find(':');
  const std::string_view module = trim(target.substr(0, colon));
  const std::string_view attr =
      colon == std::string_view::npos ? std::string_view{} : trim(target.substr(colon + 1));
  if (e.name.empty() || !dotted_identifiers(module)) return std::nullopt;
  if (colon != std::string_view::npos && !dotted_identifiers(attr)) return std::nullopt;
  e.module = module;
  e.attr = attr;
  return e;
}

std::optional<EntryPoint> assignment(std::string_view group, std::string_view line) {
  const size_t eq = line.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  return entry(group, line.substr(0, eq), line.substr(eq + 1));
}

std::string unquote(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    s = s.substr(1, s.size() - 2);
  }
  return std::string(s);
}

// Dotted TOML keys, quotes respected: project.entry-points."my.group" -> 3 parts.
std::vector<std::string> toml_key(std::string_view s) {
  std::vector<std::string> parts;
  std::string current;
  char quote = 0;
  for (char c : s) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        current += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '.') {
      parts.push_back(std::string(trim(current)));
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(std::string(trim(current)));
  return parts;
}

std::string pyproject_group(const std::vector<std::string>& key) {
  if (key.size() == 2 && key[0] == "project" && key[1] == "scripts") return "console_scripts";
  if (key.size() == 2 && key[0] == "project" && key[1] == "gui-scripts") return "gui_scripts";
  if (key.size() == 3 && key[0] == "project" && key[1] == "entry-points") return key[2];
  if (key.size() == 3 && key[0] == "tool" && key[1] == "poetry" && key[2] == "scripts") {
    return "console_scripts";
  }
  if (key.size() == 4 && key[0] == "tool" && key[1] == "poetry" && key[2] == "plugins") {
    return key[3];
  }
  return "";
}

}  // namespace

std::vector<EntryPoint> parse_setup_cfg(std::string_view text) {
  std::vector<EntryPoint> out;
  bool in_section = false;
  std::string group;
  for (std::string_view line : lines_of(text)) {
    const std::string_view body = trim(line);
    if (body.empty() || body[0] == '#' || body[0] == ';') continue;
    if (line[0] == '[') {
      in_section = body == "[options.entry_points]";
      group.clear();
      continue;
    }
    if (!in_section) continue;
    const bool indented = line[0] == ' ' || line[0] == '\t';
    if (!indented) {
      const size_t eq = body.find('=');
      group = eq == std::string_view::npos ? std::string() : std::string(trim(body.substr(0, eq)));
      const std::string_view rest = eq == std::string_view::npos ? "" : trim(body.substr(eq + 1));
      if (!group.empty() && !rest.empty()) {
        if (auto e = assignment(group, rest)) out.push_back(std::move(*e));
      }
    } else if (!group.empty()) {
      if (auto e = assignment(group, body)) out.push_back(std::move(*e));
    }
  }
  return out;
}

std::vector<EntryPoint> parse_pyproject(std::string_view text) {
  std::vector<EntryPoint> out;
  std::string group;
  for (std::string_view line : lines_of(text)) {
    const std::string_view body = trim(line);
    if (body.empty() || body[0] == '#') continue;
    if (body[0] == '[') {
      const size_t close = body.rfind(']');
      group = body.starts_with("[[") || close == std::string_view::npos
                  ? std::string()
                  : pyproject_group(toml_key(body.substr(1, close - 1)));
      continue;
    }
    if (group.empty()) continue;
    const size_t eq = body.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view value = trim(body.substr(eq + 1));
    if (value.empty() || (value[0] != '"' && value[0] != '\'')) continue;
    const size_t end = value.find(value[0], 1);
    if (end == std::string_view::npos) continue;
    if (auto e = entry(group, unquote(body.substr(0, eq)), value.substr(1, end - 1))) {
      out.push_back(std::move(*e));
    }
  }
  return out;
}

}  // namespace anchorfs::analysis::python
