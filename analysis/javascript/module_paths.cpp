// Specifier resolution: the candidates Node and TypeScript's "bundler"/"node" resolution try.
#include "analysis/javascript/module_paths.h"

namespace anchorfs::analysis::javascript {
namespace {

// Extensions tried after a specifier without one, in TypeScript's order of preference.
constexpr std::string_view kExtensions[] = {".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts",
                                            ".cts"};

std::string_view directory_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

}  // namespace

std::optional<std::string> join_path(std::string_view dir, std::string_view relative) {
  std::vector<std::string_view> parts;
  auto add = [&parts](std::string_view text) {
    while (!text.empty()) {
      const size_t slash = text.find('/');
      const std::string_view part = text.substr(0, slash);
      text = slash == std::string_view::npos ? std::string_view{} : text.substr(slash + 1);
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
      } else {
        parts.push_back(part);
      }
    }
    return true;
  };
  if (!add(dir) || !add(relative)) return std::nullopt;
  std::string out;
  for (const std::string_view part : parts) {
    if (!out.empty()) out += '/';
    out += part;
  }
  return out;
}

ModulePaths::ModulePaths(const std::vector<std::string_view>& paths, ProjectConfig config)
    : config_(std::move(config)) {
  index_.reserve(paths.size());
  for (uint32_t i = 0; i < paths.size(); ++i) index_.emplace(paths[i], i);
}

std::optional<uint32_t> ModulePaths::probe_file(std::string_view path) const {
  const auto it = index_.find(path);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

// The file a path names: itself; for a `.js`-family name, the TypeScript source it is compiled
// from; the path plus an extension; its directory's index file.
std::optional<uint32_t> ModulePaths::probe(const std::string& candidate) const {
  if (const auto exact = probe_file(candidate)) return exact;
  const size_t dot = candidate.rfind('.');
  const size_t slash = candidate.rfind('/');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
    const std::string_view ext = std::string_view(candidate).substr(dot);
    const std::string stem = candidate.substr(0, dot);
    const auto mapped = [&](std::initializer_list<std::string_view> exts) {
      for (const std::string_view e : exts) {
        if (const auto hit = probe_file(stem + std::string(e))) return hit;
      }
      return std::optional<uint32_t>{};
    };
    if (ext == ".js" || ext == ".jsx") {
      if (const auto hit = mapped({".ts", ".tsx"})) return hit;
    } else if (ext == ".mjs") {
      if (const auto hit = mapped({".mts"})) return hit;
    } else if (ext == ".cjs") {
      if (const auto hit = mapped({".cts"})) return hit;
    }
  }
  std::string with_ext;
  for (const std::string_view ext : kExtensions) {
    with_ext.assign(candidate).append(ext);
    if (const auto hit = probe_file(with_ext)) return hit;
  }
  const std::string index_stem = candidate.empty() ? "index" : candidate + "/index";
  for (const std::string_view ext : kExtensions) {
    with_ext.assign(index_stem).append(ext);
    if (const auto hit = probe_file(with_ext)) return hit;
  }
  return std::nullopt;
}

std::optional<uint32_t> ModulePaths::resolve(std::string_view from,
                                             std::string_view specifier) const {
  if (specifier.empty()) return std::nullopt;
  if (specifier.starts_with("./") || specifier.starts_with("../") || specifier == "." ||
      specifier == "..") {
    const auto joined = join_path(directory_of(from), specifier);
    return joined ? probe(*joined) : std::nullopt;
  }
  if (specifier.starts_with('/') || specifier.starts_with("node:")) return std::nullopt;
  // tsconfig paths: the pattern with the longest prefix before its `*` wins.
  const std::pair<std::string, std::vector<std::string>>* best = nullptr;
  std::string_view best_star;
  size_t best_prefix = 0;
  for (const auto& entry : config_.paths) {
    const std::string_view pattern = entry.first;
    const size_t star = pattern.find('*');
    if (star == std::string_view::npos) {
      if (pattern == specifier) {
        best = &entry;
        best_star = {};
        break;
      }
      continue;
    }
    const std::string_view prefix = pattern.substr(0, star);
    const std::string_view suffix = pattern.substr(star + 1);
    if (specifier.size() < prefix.size() + suffix.size() || !specifier.starts_with(prefix) ||
        !specifier.ends_with(suffix)) {
      continue;
    }
    if (best == nullptr || prefix.size() > best_prefix) {
      best = &entry;
      best_prefix = prefix.size();
      best_star = specifier.substr(prefix.size(), specifier.size() - prefix.size() - suffix.size());
    }
  }
  if (best != nullptr) {
    for (const std::string& target : best->second) {
      std::string candidate = target;
      const size_t star = candidate.find('*');
      if (star != std::string::npos) candidate.replace(star, 1, best_star);
      if (const auto joined = join_path("", candidate)) {
        if (const auto hit = probe(*joined)) return hit;
      }
    }
  }
  if (config_.has_base_url) {
    if (const auto joined = join_path(config_.base_url, specifier)) {
      if (const auto hit = probe(*joined)) return hit;
    }
  }
  // A package of the repository by its own name: the longest name the specifier starts with.
  const PackageConfig* package = nullptr;
  for (const PackageConfig& candidate : config_.packages) {
    const std::string_view name = candidate.name;
    if (!name.empty() && specifier.starts_with(name) &&
        (specifier.size() == name.size() || specifier[name.size()] == '/') &&
        (package == nullptr || name.size() > package->name.size())) {
      package = &candidate;
    }
  }
  return package == nullptr ? std::nullopt
                            : in_package(*package, specifier.substr(package->name.size()));
}

// `rest` ("" or "/sub") of a specifier naming `package`: through its "exports" when it has them
// (the first target of the subpath's conditions that is a repository file; a subpath it does not
// export is no file), else its "main" or index for the package itself, or the path below it.
std::optional<uint32_t> ModulePaths::in_package(const PackageConfig& package,
                                                std::string_view rest) const {
  const std::string subpath = "." + std::string(rest);
  auto first_file = [&](const std::vector<std::string>& targets,
                        std::string_view star) -> std::optional<uint32_t> {
    for (std::string target : targets) {
      if (const size_t at = target.find('*'); at != std::string::npos) {
        target.replace(at, 1, star);
      }
      if (const auto joined = join_path(package.dir, target)) {
        if (const auto hit = probe(*joined)) return hit;
      }
    }
    return std::nullopt;
  };
  if (package.has_exports) {
    // An exact subpath, else the pattern with the longest prefix before its `*`.
    const std::pair<std::string, std::vector<std::string>>* best = nullptr;
    std::string_view star;
    for (const auto& entry : package.exports) {
      const std::string_view key = entry.first;
      if (key == subpath) return first_file(entry.second, {});
      const size_t at = key.find('*');
      if (at == std::string_view::npos) continue;
      const std::string_view prefix = key.substr(0, at);
      const std::string_view suffix = key.substr(at + 1);
      if (subpath.size() < prefix.size() + suffix.size() || !subpath.starts_with(prefix) ||
          !subpath.ends_with(suffix)) {
        continue;
      }
      if (best == nullptr || prefix.size() > best->first.find('*')) {
        best = &entry;
        star = std::string_view(subpath).substr(prefix.size(),
                                                subpath.size() - prefix.size() - suffix.size());
      }
    }
    return best == nullptr ? std::nullopt : first_file(best->second, star);
  }
  if (rest.empty()) {
    if (const auto hit = first_file(package.main, {})) return hit;
  }
  const auto joined = join_path(package.dir, rest);
  return joined ? probe(*joined) : std::nullopt;
}

}  // namespace anchorfs::analysis::javascript
