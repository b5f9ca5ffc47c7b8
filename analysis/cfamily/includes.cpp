// Include resolution: the including file's directory for quoted includes, then include
// directories (compile_commands.json's -I/-iquote/-isystem, else the root and every `include/`
// and `include/uapi/` directory, and the root's parent for `<root-name/...>`), the nearest to the
// including file winning; a tie is no edge.
#include "analysis/cfamily/includes.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/resolution_input.h"

namespace anchorfs::analysis::cfamily {
namespace {

std::string_view dir_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1);
}

std::string_view base_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// "a/b/../c/./d.h" -> "a/c/d.h"; nullopt when it climbs above the root.
std::optional<std::string> normalize(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t begin = 0;
  while (begin <= path.size()) {
    size_t end = path.find('/', begin);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view part = path.substr(begin, end - begin);
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    begin = end + 1;
  }
  std::string out;
  for (const std::string_view part : parts) {
    if (!out.empty()) out += '/';
    out += part;
  }
  return out;
}

size_t common_dir_prefix(std::string_view a, std::string_view b) {
  size_t common = 0;
  for (size_t i = 0; i < a.size() && i < b.size() && a[i] == b[i]; ++i) {
    if (a[i] == '/') common = i + 1;
  }
  return common;
}

}  // namespace

IncludeResolver::IncludeResolver(std::string_view root, const std::vector<std::string_view>& paths)
    : paths_(paths) {
  std::error_code error;
  std::filesystem::path dir = std::filesystem::absolute(root, error).lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();  // "/usr/include/boost/"
  const std::string name = error ? std::string() : dir.filename().string();
  if (!name.empty() && name != "." && name != "..") root_name_ = name + "/";
  for (uint32_t f = 0; f < paths.size(); ++f) {
    by_path_.emplace(paths[f], f);
    by_basename_[base_of(paths[f])].push_back(f);
  }
  include_dirs_ = compile_command_dirs(root);
}

// Include directories named by any entry's arguments, made repository-relative; directories
// outside the repository name no file of it and are dropped. Malformed files are ignored.
std::vector<std::string> IncludeResolver::compile_command_dirs(std::string_view root) {
  namespace fs = std::filesystem;
  // Read as every resolution input is (beneath the root, no symlink, bounded): a database over
  // the bound is ignored with a warning, and includes fall back to the conventions.
  std::vector<std::string> dirs;
  const SourceBytes file = read_resolution_input(root, kCompileCommands);
  if (!file.ok) return dirs;
  const nlohmann::json json =
      nlohmann::json::parse(file.bytes, nullptr, /*allow_exceptions=*/false);
  if (!json.is_array()) return dirs;
  const fs::path base = fs::path(root).lexically_normal();
  for (const nlohmann::json& entry : json) {
    if (!entry.is_object()) continue;
    const auto directory = entry.find("directory");
    // A relative "directory" (hand-written databases) is taken from the repository root.
    const fs::path cwd = directory != entry.end() && directory->is_string()
                             ? base / fs::path(directory->get<std::string>())
                             : base;
    std::vector<std::string> args;
    if (const auto a = entry.find("arguments"); a != entry.end() && a->is_array()) {
      for (const nlohmann::json& arg : *a) {
        if (arg.is_string()) args.push_back(arg.get<std::string>());
      }
    } else if (const auto c = entry.find("command"); c != entry.end() && c->is_string()) {
      std::istringstream words(c->get<std::string>());
      for (std::string word; words >> word;) args.push_back(word);
    }
    for (size_t i = 0; i < args.size(); ++i) {
      std::string dir;
      for (const std::string_view flag : {"-I", "-iquote", "-isystem"}) {
        if (args[i] == flag && i + 1 < args.size()) {
          dir = args[++i];
        } else if (args[i].size() > flag.size() && args[i].starts_with(flag)) {
          dir = args[i].substr(flag.size());
        }
        if (!dir.empty()) break;
      }
      if (dir.empty()) continue;
      const fs::path absolute =
          (fs::path(dir).is_absolute() ? fs::path(dir) : cwd / dir).lexically_normal();
      const fs::path relative = absolute.lexically_relative(base);
      const std::string text = relative.generic_string();
      if (text.empty() || text.starts_with("..")) continue;
      dirs.push_back(text == "." ? std::string() : text + "/");
    }
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  return dirs;
}

bool IncludeResolver::is_root(std::string_view prefix) const {
  if (!include_dirs_.empty()) {
    return std::binary_search(include_dirs_.begin(), include_dirs_.end(), prefix);
  }
  return prefix.empty() || prefix == "include/" || prefix.ends_with("/include/") ||
         prefix.ends_with("include/uapi/");
}

IncludeResolver::Found IncludeResolver::resolve(uint32_t from, std::string_view spec, bool system,
                                                std::string_view context) const {
  const std::string_view path = paths_[from];
  if (context.empty()) context = path;
  if (!system) {
    if (const auto local = normalize(std::string(dir_of(path)) + std::string(spec))) {
      if (const auto it = by_path_.find(*local); it != by_path_.end()) return {it->second};
    }
  }
  const auto normal = normalize(spec);
  if (!normal || normal->empty()) return {};
  const auto candidates = by_basename_.find(base_of(*normal));
  if (candidates == by_basename_.end()) return {};
  // The best candidate: the include directory sharing most of the including file's directory
  // (arch/x86/include/ for arch/x86/kernel/*.c), then the shallowest; a tie names no file.
  std::optional<uint32_t> best;
  size_t best_common = 0;
  size_t best_length = 0;
  bool tie = false;
  for (const uint32_t f : candidates->second) {
    const std::string_view candidate = paths_[f];
    if (!candidate.ends_with(*normal)) continue;
    const std::string_view prefix = candidate.substr(0, candidate.size() - normal->size());
    if (!prefix.empty() && prefix.back() != '/') continue;
    if (!is_root(prefix)) continue;
    const size_t common = common_dir_prefix(context, prefix);
    if (!best || common > best_common || (common == best_common && prefix.size() < best_length)) {
      best = f;
      best_common = common;
      best_length = prefix.size();
      tie = false;
    } else if (common == best_common && prefix.size() == best_length) {
      tie = true;
    }
  }
  if (tie) return {std::nullopt, true};
  if (!best && !root_name_.empty() && normal->starts_with(root_name_)) {
    // `<boost/x.hpp>` in a tree rooted at boost/: the root's parent is an include directory.
    if (const auto it = by_path_.find(std::string_view(*normal).substr(root_name_.size()));
        it != by_path_.end()) {
      return {it->second};
    }
  }
  return {best};
}

}  // namespace anchorfs::analysis::cfamily
