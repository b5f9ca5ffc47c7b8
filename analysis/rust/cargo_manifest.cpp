// A line-oriented reading of Cargo.toml: table headers and `key = "string"` pairs.
#include "analysis/rust/cargo_manifest.h"

namespace anchorfs::analysis::rust {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Whether `line` is `key = "value"` (or 'value'); if so `out` is the value.
bool string_value(std::string_view line, std::string_view key, std::string& out) {
  if (!line.starts_with(key)) return false;
  std::string_view rest = trimmed(line.substr(key.size()));
  if (!rest.starts_with('=')) return false;
  rest = trimmed(rest.substr(1));
  if (rest.size() < 2 || (rest.front() != '"' && rest.front() != '\'')) return false;
  const size_t end = rest.find(rest.front(), 1);
  if (end == std::string_view::npos) return false;
  out = std::string(rest.substr(1, end - 1));
  return true;
}

}  // namespace

CargoManifest parse_cargo_manifest(std::string_view text) {
  CargoManifest manifest;
  std::string table;
  std::string lib_name;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = trimmed(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.starts_with('[')) {
      const size_t close = line.find(']');
      table = close == std::string_view::npos ? std::string() : std::string(line.substr(1, close - 1));
      if (table == "package") manifest.has_package = true;
      continue;
    }
    std::string value;
    if (table == "package") {
      if (string_value(line, "name", value)) manifest.package = value;
      if (string_value(line, "edition", value)) manifest.edition_2015 = value == "2015";
    } else if (table == "lib") {
      if (string_value(line, "name", value)) lib_name = value;
      if (string_value(line, "path", value)) manifest.lib_path = value;
    }
  }
  if (lib_name.empty()) {
    lib_name = manifest.package;
    for (char& c : lib_name) {
      if (c == '-') c = '_';
    }
  }
  manifest.lib_name = lib_name;
  if (manifest.lib_path.empty()) manifest.lib_path = "src/lib.rs";
  return manifest;
}

}  // namespace anchorfs::analysis::rust
