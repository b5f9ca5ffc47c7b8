// go.mod reading and import path mapping.
#include "analysis/go/modules.h"


#include "analysis/go/resolve.h"
#include "analysis/resolution_input.h"

namespace anchorfs::analysis::go {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string join(std::string_view dir, std::string_view name) {
  return dir.empty() ? std::string(name) : std::string(dir) + "/" + std::string(name);
}

std::string_view parent_of(std::string_view dir) {
  const size_t slash = dir.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
}

}  // namespace

std::string module_path(std::string_view go_mod) {
  size_t begin = 0;
  while (begin < go_mod.size()) {
    size_t end = go_mod.find('\n', begin);
    if (end == std::string_view::npos) end = go_mod.size();
    std::string_view line = go_mod.substr(begin, end - begin);
    begin = end + 1;
    if (const size_t comment = line.find("//"); comment != std::string_view::npos) {
      line = line.substr(0, comment);
    }
    line = trim(line);
    if (!line.starts_with("module") || line.size() < 7 || (line[6] != ' ' && line[6] != '\t')) {
      continue;
    }
    std::string_view path = trim(line.substr(6));
    if (path.size() >= 2 && (path.front() == '"' || path.front() == '`')) {
      path = path.substr(1, path.size() - 2);
    }
    return std::string(path);
  }
  return {};
}

Modules::Modules(const std::string& root, const std::vector<std::string>& directories) {
  std::set<std::string> probed;
  for (const std::string& start : directories) {
    std::string_view dir = start;
    while (true) {
      if (!probed.insert(std::string(dir)).second) break;
      const SourceBytes go_mod = read_resolution_input(root, join(dir, kRootModuleFile));
      if (go_mod.ok) {
        roots_.insert(std::string(dir));
        const std::string path = module_path(go_mod.bytes);
        if (path == "std") {
          has_std_ = true;
          std_root_ = std::string(dir);
        } else if (!path.empty()) {
          roots_by_path_.emplace(path, std::string(dir));
        }
      }
      if (dir.empty()) break;
      dir = parent_of(dir);
    }
  }
}

std::optional<std::string> Modules::directory_of(std::string_view import_path) const {
  // The longest module path that is the import path or a prefix of it ending at a '/'.
  for (std::string_view prefix = import_path; !prefix.empty(); prefix = parent_of(prefix)) {
    const auto it = roots_by_path_.find(std::string(prefix));
    if (it == roots_by_path_.end()) continue;
    return owned_by(it->second, join(it->second, import_path.substr(prefix.size()).substr(
                                                    prefix.size() < import_path.size() ? 1 : 0)));
  }
  const size_t slash = import_path.find('/');
  const std::string_view first = import_path.substr(0, slash);
  if (has_std_ && !first.empty() && first.find('.') == std::string_view::npos) {
    return owned_by(std_root_, join(std_root_, import_path));
  }
  return std::nullopt;
}

std::optional<std::string> Modules::owned_by(const std::string& root, std::string dir) const {
  for (std::string_view d = dir; d != root && !d.empty(); d = parent_of(d)) {
    if (roots_.count(std::string(d)) > 0) return std::nullopt;
  }
  return dir;
}

}  // namespace anchorfs::analysis::go
