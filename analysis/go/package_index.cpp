// Grouping Go files into packages and indexing their declarations and imports.
#include "analysis/go/package_index.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <map>
#include <set>

namespace anchorfs::analysis::go {
namespace {

std::string_view directory_of_path(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

}  // namespace

std::string_view method_name(const code::Definition& def) {
  std::string_view name = def.name;
  if (def.parent == 0 && !def.owner.empty() && name.size() > def.owner.size()) {
    name.remove_prefix(def.owner.size() + 1);
  }
  return name;
}

PackageIndex::PackageIndex(const ResolverInput& input) {
  std::map<std::pair<std::string, std::string_view>, uint32_t> by_key;
  std::vector<std::string> directories;
  files.reserve(input.files.size());
  std::vector<std::string_view> conditions;
  for (const ResolverFile& file : input.files) {
    conditions.push_back(static_cast<const code::CodeFacts*>(file.facts)->build_condition);
  }
  const std::vector<std::string> tags = decided_tags(conditions);
  // Each file's build set depends on that file alone: worked out side by side.
  std::vector<BuildSet> builds(input.files.size());
  tbb::parallel_for(size_t{0}, input.files.size(), [&](size_t f) {
    const ResolverFile& file = input.files[f];
    builds[f] = builds_of(file.path, conditions[f], tags);
  });
  for (size_t f = 0; f < input.files.size(); ++f) {
    const ResolverFile& file = input.files[f];
    const auto* facts = static_cast<const code::CodeFacts*>(file.facts);
    GoFile go_file;
    go_file.input = &file;
    go_file.facts = facts;
    go_file.test = file.path.ends_with("_test.go");
    go_file.builds = std::move(builds[f]);
    const std::string dir(directory_of_path(file.path));
    const auto [it, added] =
        by_key.emplace(std::make_pair(dir, std::string_view(facts->package)),
                       static_cast<uint32_t>(packages.size()));
    if (added) {
      packages.push_back({});
      packages.back().dir = dir;
      packages.back().name = facts->package;
      packages_by_dir_[dir].push_back(it->second);
      if (directories.empty() || directories.back() != dir) directories.push_back(dir);
    }
    go_file.package = it->second;
    packages[it->second].files.push_back(static_cast<uint32_t>(files.size()));
    files.push_back(std::move(go_file));
  }
  // A file's declarations go to its own package's tables, in file order within the package:
  // packages fill side by side.
  tbb::parallel_for(size_t{0}, packages.size(), [&](size_t p) {
    for (const uint32_t f : packages[p].files) add_declarations(f);
  });
  resolve_imports(Modules(std::string(input.root), directories));
}

void PackageIndex::add_declarations(uint32_t f) {
  const code::CodeFacts& facts = *files[f].facts;
  Package& package = packages[files[f].package];
  for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
    const code::Definition& def = facts.definitions[d];
    if (def.role == "method") {
      package.methods[def.owner + "." + std::string(method_name(def))].push_back({f, d});
    } else if (def.parent == 0 && def.kind == EntityKind::Function) {
      package.functions[def.name].push_back({f, d});
    } else if (def.parent == 0) {
      package.types[def.name].push_back({f, d});
    }
  }
  for (const code::TypedName& name : facts.typed_names) {
    if (name.scope == 0) package.vars[name.name].push_back({f, name.type});
  }
}

std::optional<uint32_t> PackageIndex::package_in(std::string_view dir) const {
  const auto it = packages_by_dir_.find(std::string(dir));
  if (it == packages_by_dir_.end()) return std::nullopt;
  std::optional<uint32_t> best;
  size_t best_count = 0;
  for (const uint32_t p : it->second) {
    const size_t count = std::count_if(packages[p].files.begin(), packages[p].files.end(),
                                       [&](uint32_t f) { return !files[f].test; });
    if (count > best_count) {
      best = p;
      best_count = count;
    }
  }
  return best;
}

void PackageIndex::resolve_imports(const Modules& modules) {
  std::unordered_map<std::string_view, std::optional<uint32_t>> by_path;
  for (GoFile& file : files) {
    for (const code::Import& spec : file.facts->imports) {
      if (!spec.name.empty()) continue;  // a member use, not an import spec
      auto [it, added] = by_path.emplace(spec.source, std::nullopt);
      if (added) {
        if (const auto dir = modules.directory_of(spec.source)) it->second = package_in(*dir);
      }
      FileImport import{&spec, it->second, {}};
      if (spec.alias.empty()) {
        // Outside the repository the package's name is unknown: its last path element is the
        // usual one, and keeps a use like `fmt.X` from being taken for a name of this package.
        const size_t slash = spec.source.rfind('/');
        import.local = import.package ? packages[*import.package].name
                                      : std::string_view(spec.source).substr(
                                            slash == std::string::npos ? 0 : slash + 1);
      } else if (spec.alias != "." && spec.alias != "_") {
        import.local = spec.alias;
      }
      file.imports.push_back(import);
    }
  }
}

const FileImport* PackageIndex::import_named(uint32_t file, std::string_view local) const {
  if (local.empty()) return nullptr;
  for (const FileImport& import : files[file].imports) {
    if (import.local == local) return &import;
  }
  return nullptr;
}

}  // namespace anchorfs::analysis::go
