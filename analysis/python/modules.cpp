// Module naming and import resolution for Python files of one repository.
#include "analysis/python/modules.h"

#include <unordered_set>

namespace anchorfs::analysis::python {
namespace {

constexpr std::string_view kInit = "__init__.py";

std::string_view dir_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

std::string_view base_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string dotted_dir(std::string_view dir) {
  std::string out(dir);
  for (char& c : out) {
    if (c == '/') c = '.';
  }
  return out;
}

std::string join(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  std::string out;
  out.reserve(a.size() + 1 + b.size());
  out.append(a).append(1, '.').append(b);
  return out;
}

// A usable module name component: no dots or other characters an import could not spell.
bool plain_component(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c == '.' || c == ' ' || c == '-') return false;
  }
  return true;
}

}  // namespace

uint32_t ModuleIndex::add(const std::string& name, uint32_t file, bool is_package) {
  const auto [it, inserted] = by_name_.try_emplace(name, static_cast<uint32_t>(modules_.size()));
  if (inserted) {
    modules_.push_back({name, file, is_package});
    // Every enclosing package exists as a module too (a namespace package when it has no file).
    const size_t dot = name.rfind('.');
    if (dot != std::string::npos) add(name.substr(0, dot), UINT32_MAX, true);
  } else {
    Module& m = modules_[it->second];
    if (m.file == UINT32_MAX && file != UINT32_MAX) m.file = file;
    m.is_package = m.is_package || is_package;
  }
  return it->second;
}

ModuleIndex::ModuleIndex(const ResolverInput& input) {
  const auto& files = input.files;
  std::unordered_set<std::string_view> package_dirs;
  for (const ResolverFile& f : files) {
    if (base_of(f.path) == kInit) package_dirs.insert(dir_of(f.path));
  }
  const std::string_view root_name = base_of(input.root);
  const bool root_is_package =
      package_dirs.contains(std::string_view{}) && plain_component(root_name);

  // Package-qualified names first: they win any clash with repository-relative names.
  std::vector<std::string> qualified(files.size()), relative(files.size());
  std::vector<bool> is_init(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string_view path = files[i].path;
    is_init[i] = base_of(path) == kInit;
    std::string_view stem = base_of(path);
    stem.remove_suffix(stem.size() >= 3 ? 3 : 0);  // ".py"
    std::string_view dir = dir_of(path);
    relative[i] = join(dotted_dir(dir), is_init[i] ? std::string_view{} : stem);
    // Walk up while the directory is a package.
    std::string name = is_init[i] ? std::string() : std::string(stem);
    std::string_view d = dir;
    while (!d.empty() && package_dirs.contains(d)) {
      name = join(base_of(d), name);
      d = dir_of(d);
    }
    if (d.empty() && root_is_package) name = join(root_name, name);
    qualified[i] = name;
    file_dir_prefix_.push_back(dotted_dir(dir));
  }
  file_module_.assign(files.size(), UINT32_MAX);
  for (size_t i = 0; i < files.size(); ++i) {
    if (qualified[i].empty()) continue;
    file_module_[i] = add(qualified[i], static_cast<uint32_t>(i), is_init[i]);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (relative[i].empty()) continue;
    const uint32_t m = add(relative[i], static_cast<uint32_t>(i), is_init[i]);
    if (file_module_[i] == UINT32_MAX) file_module_[i] = m;
  }
  // A root __init__.py of a repository whose name cannot be spelled: a module named "".
  for (size_t i = 0; i < files.size(); ++i) {
    if (file_module_[i] == UINT32_MAX) file_module_[i] = add("", static_cast<uint32_t>(i), true);
  }
}

std::optional<uint32_t> ModuleIndex::find(std::string_view dotted) const {
  const auto it = by_name_.find(dotted);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<uint32_t> ModuleIndex::submodule(uint32_t module, std::string_view name) const {
  return find(join(modules_[module].name, name));
}

std::optional<uint32_t> ModuleIndex::resolve(uint32_t file, std::string_view spec,
                                             std::optional<uint32_t>* top) const {
  size_t level = 0;
  while (level < spec.size() && spec[level] == '.') ++level;
  const std::string_view rest = spec.substr(level);
  if (level > 0) {
    const Module& self = modules_[file_module_[file]];
    std::string package = self.name;
    if (!self.is_package) {
      const size_t dot = package.rfind('.');
      package = dot == std::string::npos ? std::string() : package.substr(0, dot);
    }
    for (size_t up = 1; up < level; ++up) {
      if (package.empty()) return std::nullopt;
      const size_t dot = package.rfind('.');
      package = dot == std::string::npos ? std::string() : package.substr(0, dot);
    }
    const std::string name = join(package, rest);
    if (name.empty()) {
      // `from . import x` at the top of a repository without a spellable root package.
      return (self.is_package && !rest.empty()) ? std::nullopt : find("");
    }
    return find(name);
  }
  if (rest.empty()) return std::nullopt;
  const std::string_view first = rest.substr(0, rest.find('.'));
  if (auto m = find(rest)) {
    if (top != nullptr) *top = find(first);
    return m;
  }
  // A script's own directory is on sys.path: sibling modules import by their bare name.
  const std::string& dir = file_dir_prefix_[file];
  if (!dir.empty()) {
    if (auto m = find(join(dir, rest))) {
      if (top != nullptr) *top = find(join(dir, first));
      return m;
    }
  }
  return std::nullopt;
}

}  // namespace anchorfs::analysis::python
