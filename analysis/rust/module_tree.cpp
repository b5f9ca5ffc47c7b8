// Crates from Cargo.toml files, `mod name;` declarations to files, and each file's crate root.
#include "analysis/rust/module_tree.h"

#include <algorithm>

#include "analysis/resolution_input.h"
#include "analysis/rust/cargo_manifest.h"
#include "analysis/rust/facts_layout.h"

namespace anchorfs::analysis::rust {
namespace {

std::string_view dir_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1);
}

std::string_view base_of(std::string_view path) {
  return path.substr(dir_of(path).size());
}

// "a/./b/../c.rs" as "a/c.rs"; "" when it would leave the repository.
std::string normalized(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view part = path.substr(0, slash);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.empty()) return {};
      parts.pop_back();
    } else {
      parts.push_back(part);
    }
  }
  std::string out;
  for (const std::string_view part : parts) {
    if (!out.empty()) out += '/';
    out += part;
  }
  return out;
}

}  // namespace

RustFiles::RustFiles(std::span<const ResolverFile> files) : files_(files) {
  facts_.reserve(files.size());
  for (uint32_t f = 0; f < files.size(); ++f) {
    facts_.push_back(&static_cast<const code::CodeFacts&>(*files[f].facts));
    by_path_.emplace(files[f].path, f);
  }
}

uint32_t RustFiles::file_of(EntityIndex e) const {
  const auto it = std::upper_bound(files_.begin(), files_.end(), e,
                                   [](EntityIndex x, const ResolverFile& r) { return x < r.entity; });
  return static_cast<uint32_t>(it - files_.begin()) - 1;
}

const code::Definition& RustFiles::definition(EntityIndex e) const {
  const uint32_t f = file_of(e);
  return facts_[f]->definitions[e - files_[f].entity];
}

bool RustFiles::is_file(EntityIndex e) const {
  return files_[file_of(e)].entity == e;
}

bool RustFiles::is_module(EntityIndex e) const {
  return is_file(e) || definition(e).role == kRoleMod;
}

EntityIndex RustFiles::parent(EntityIndex e) const {
  const uint32_t f = file_of(e);
  if (files_[f].entity == e) return kNoEntity;
  return files_[f].entity + facts_[f]->definitions[e - files_[f].entity].parent;
}

EntityIndex RustFiles::module_of(EntityIndex e) const {
  while (e != kNoEntity && !is_module(e)) e = parent(e);
  return e;
}

int RustFiles::find(std::string_view path) const {
  const auto it = by_path_.find(path);
  return it == by_path_.end() ? -1 : static_cast<int>(it->second);
}

ModuleTree::ModuleTree(std::string_view root, const RustFiles& files) : files_(files) {
  read_packages(root);
  declare_modules();
  find_roots();
}

// Each file belongs to the package of the nearest directory above it whose Cargo.toml has a
// [package] table (workspace members and crates side by side alike).
void ModuleTree::read_packages(std::string_view root) {
  std::unordered_map<std::string, int> package_of_dir;
  auto package_at = [&](const std::string& dir) -> int {
    const auto it = package_of_dir.find(dir);
    if (it != package_of_dir.end()) return it->second;
    int found = -1;
    if (const SourceBytes text = read_resolution_input(root, dir + "Cargo.toml"); text.ok) {
      const CargoManifest manifest = parse_cargo_manifest(text.bytes);
      if (manifest.has_package) {
        found = static_cast<int>(packages_.size());
        packages_.push_back({dir, manifest.lib_name, manifest.edition_2015, kNoEntity});
        const int lib = files_.find(normalized(dir + manifest.lib_path));
        if (lib >= 0) packages_.back().lib_root = files_.entity(static_cast<uint32_t>(lib));
      }
    }
    package_of_dir.emplace(dir, found);
    return found;
  };
  package_of_file_.assign(files_.size(), -1);
  for (uint32_t f = 0; f < files_.size(); ++f) {
    std::string_view dir = dir_of(files_.path(f));
    while (true) {
      const int package = package_at(std::string(dir));
      if (package >= 0) {
        package_of_file_[f] = package;
        break;
      }
      if (dir.empty()) break;
      dir = dir_of(dir.substr(0, dir.size() - 1));
    }
  }
}

void ModuleTree::declare_modules() {
  for (uint32_t f = 0; f < files_.size(); ++f) {
    const std::string_view path = files_.path(f);
    const std::string_view base = base_of(path);
    // Files whose `mod name;` children live in their own directory: crate roots by Cargo's
    // layout and mod.rs; any other a.rs keeps its children in a/.
    bool owns_dir = base == "lib.rs" || base == "main.rs" || base == "mod.rs";
    const int package = package_of_file(f);
    if (package >= 0) {
      const std::string_view local = path.substr(packages_[package].dir.size());
      const std::string_view local_dir = dir_of(local);
      owns_dir = owns_dir || local == "build.rs" || local_dir == "src/bin/" ||
                 local_dir == "tests/" || local_dir == "examples/" || local_dir == "benches/" ||
                 files_.entity(f) == packages_[package].lib_root;
    }
    const std::string file_dir = owns_dir ? std::string(dir_of(path))
                                          : std::string(path.substr(0, path.size() - 3)) + "/";
    const code::CodeFacts& facts = files_.facts(f);
    for (const code::Import& declaration : facts.imports) {
      if (declaration.source != kModDeclaration) continue;
      const EntityIndex module = files_.module_of(files_.entity(f) + declaration.scope);
      // Inline modules between the file and the declaration add directories.
      std::string inline_dirs;
      for (EntityIndex m = module; m != files_.entity(f); m = files_.module_of(files_.parent(m))) {
        inline_dirs.insert(0, files_.definition(m).name + "/");
      }
      std::vector<std::string> candidates;
      if (!declaration.alias.empty()) {
        const std::string base_dir =
            inline_dirs.empty() ? std::string(dir_of(path)) : file_dir + inline_dirs;
        candidates.push_back(normalized(base_dir + declaration.alias));
      } else {
        candidates.push_back(normalized(file_dir + inline_dirs + declaration.name + ".rs"));
        candidates.push_back(normalized(file_dir + inline_dirs + declaration.name + "/mod.rs"));
      }
      for (const std::string& candidate : candidates) {
        const int child = files_.find(candidate);
        if (child < 0) continue;
        const EntityIndex child_entity = files_.entity(static_cast<uint32_t>(child));
        declarations_.emplace_back(files_.entity(f), child_entity);
        declared_.emplace(std::to_string(module) + "/" + declaration.name, child_entity);
        // The first declaration wins; one that would make a cycle is ignored.
        bool cycle = false;
        EntityIndex up = files_.entity(f);
        for (size_t steps = 0; steps <= files_.size() && !cycle; ++steps) {
          cycle = up == child_entity;
          const auto it = parent_.find(up);
          if (it == parent_.end()) break;
          up = files_.entity(files_.file_of(it->second));
        }
        if (!cycle) parent_.emplace(child_entity, module);
        break;
      }
    }
  }
}

void ModuleTree::find_roots() {
  root_of_file_.assign(files_.size(), kNoEntity);
  for (uint32_t f = 0; f < files_.size(); ++f) {
    EntityIndex module = files_.entity(f);
    for (size_t steps = 0; steps <= files_.size(); ++steps) {
      const auto it = parent_.find(module);
      if (it == parent_.end()) break;
      module = files_.entity(files_.file_of(it->second));
    }
    root_of_file_[f] = module;
  }
}

EntityIndex ModuleTree::parent_module(EntityIndex module) const {
  if (!files_.is_file(module)) return files_.module_of(files_.parent(module));
  const auto it = parent_.find(module);
  return it == parent_.end() ? kNoEntity : it->second;
}

EntityIndex ModuleTree::crate_root(EntityIndex module) const {
  return root_of_file_[files_.file_of(module)];
}

EntityIndex ModuleTree::extern_crate(std::string_view name, EntityIndex from) const {
  const int own = package_of_file(files_.file_of(crate_root(from)));
  if (own >= 0 && packages_[own].lib_name == name) return packages_[own].lib_root;
  EntityIndex found = kNoEntity;
  for (const Package& package : packages_) {
    if (package.lib_name != name || package.lib_root == kNoEntity) continue;
    if (found != kNoEntity) return kNoEntity;  // two crates by that name: ambiguous
    found = package.lib_root;
  }
  return found;
}

bool ModuleTree::edition_2015(EntityIndex module) const {
  const int package = package_of_file(files_.file_of(module));
  return package >= 0 && packages_[package].edition_2015;
}

EntityIndex ModuleTree::declared(EntityIndex module, std::string_view name) const {
  const auto it = declared_.find(std::to_string(module) + "/" + std::string(name));
  return it == declared_.end() ? kNoEntity : it->second;
}

}  // namespace anchorfs::analysis::rust
