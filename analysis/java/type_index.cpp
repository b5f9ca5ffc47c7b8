// Java type names: the scopes a simple name is looked up in (JLS 6.4: enclosing classes and their
// inherited member types, local classes, the file's types, single-type imports, the package,
// on-demand imports, java.lang) and fully qualified names.
#include "analysis/java/type_index.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <functional>
#include <tuple>

namespace anchorfs::analysis::java {
namespace {

std::string directory_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

// `a/b/src/main/java/com/x/Y.java` with `package com.x;` has root `a/b/src/main/java`; a file
// whose directories do not end with its package keeps its own directory (marked so it never
// equals a real root).
std::string source_root(std::string_view path, std::string_view package) {
  const std::string dir = directory_of(path);
  std::string package_path(package);
  std::replace(package_path.begin(), package_path.end(), '.', '/');
  if (package_path.empty()) return dir;
  if (dir == package_path) return {};
  if (dir.size() > package_path.size() && dir.ends_with(package_path) &&
      dir[dir.size() - package_path.size() - 1] == '/') {
    return dir.substr(0, dir.size() - package_path.size() - 1);
  }
  return "?" + dir;
}

std::string_view last_segment(std::string_view dotted) {
  const size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

}  // namespace

// Every definition's parent, children and qualified name lie in its own file, so each part is
// built file by file side by side (the facts' pages are read by both cores); the offsets and the
// children's prefix sum are serial, the by_fqn_ map (in global id order) one task.
TypeIndex::TypeIndex(const ResolverInput& input) {
  const auto file_count = static_cast<uint32_t>(input.files.size());
  files_.resize(file_count);
  offsets_.resize(file_count);
  uint32_t total = 0;
  for (uint32_t f = 0; f < file_count; ++f) {
    offsets_[f] = total;
    total += static_cast<uint32_t>(
        static_cast<const code::CodeFacts&>(*input.files[f].facts).definitions.size());
  }
  owner_.resize(total);
  child_start_.assign(total + 1, 0);
  has_class_child_.assign(total, 0);
  std::vector<uint32_t> hash(total);
  std::vector<uint8_t> named(total, 0);
  qualified_.resize(total);
  // Each file: its entry, owners, name hashes, its definitions' child counts (at their parent's
  // index + 1) and qualified names: the types reachable by name, a chain of classes up to the file.
  // Beside them the supertype memos are made (megabytes of fresh pages, faulted in serially).
  const auto by_file = [&](uint32_t f) {
    const ResolverFile& file = input.files[f];
    const auto& facts = static_cast<const code::CodeFacts&>(*file.facts);
    files_[f] = {file.path, &facts, file.entity, source_root(file.path, facts.package)};
    const uint32_t first = offsets_[f];
    qualified_[first] = facts.package;
    for (uint32_t d = 0; d < facts.definitions.size(); ++d) {
      const code::Definition& def = facts.definitions[d];
      const uint32_t g = first + d;
      owner_[g] = f;
      hash[g] = NameKey(def.name).hash;
      if (d == 0) continue;
      ++child_start_[first + def.parent + 1];
      if (def.kind == EntityKind::Class) has_class_child_[first + def.parent] = 1;
      const std::string& outer = qualified_[first + def.parent];
      const bool is_named = def.kind == EntityKind::Class && def.role != "anonymous" &&
                            def.role != "enum_constant" && (def.parent == 0 || !outer.empty());
      if (!is_named) continue;
      qualified_[g] = outer.empty() ? def.name : outer + "." + def.name;
      named[g] = 1;
    }
  };
  tbb::parallel_invoke([&] { tbb::parallel_for(uint32_t{0}, file_count, by_file); },
                       [&] {
                         base_state_.assign(total, BaseState::Unresolved);
                         bases_.resize(total);
                         complete_.assign(total, -1);
                         chains_.resize(total);
                       });
  for (uint32_t g = 0; g < total; ++g) child_start_[g + 1] += child_start_[g];
  child_list_.resize(child_start_[total]);
  child_hash_.resize(child_list_.size());
  child_name_.resize(child_list_.size());
  // Each file's children, sorted per parent by the hash of their name, then name, then id; beside
  // them the map of qualified names, in global id order.
  const auto children_by_file = [&](uint32_t f) {
    const auto& defs = files_[f].facts->definitions;
    const uint32_t first = offsets_[f];
    const uint32_t end = first + static_cast<uint32_t>(defs.size());
    std::vector<uint32_t> fill(child_start_.begin() + first, child_start_.begin() + end);
    for (uint32_t d = 1; d < defs.size(); ++d) child_list_[fill[defs[d].parent]++] = first + d;
    for (uint32_t g = first; g < end; ++g) {
      std::sort(child_list_.begin() + child_start_[g], child_list_.begin() + child_start_[g + 1],
                [&](uint32_t a, uint32_t b) {
                  return std::make_tuple(hash[a], std::string_view(definition(a).name), a) <
                         std::make_tuple(hash[b], std::string_view(definition(b).name), b);
                });
    }
    for (uint32_t i = child_start_[first]; i < child_start_[end]; ++i) {
      child_hash_[i] = hash[child_list_[i]];
      child_name_[i] = definition(child_list_[i]).name;
    }
  };
  tbb::parallel_invoke([&] { tbb::parallel_for(uint32_t{0}, file_count, children_by_file); },
                       [&] {
                         for (uint32_t g = 0; g < total; ++g) {
                           if (named[g] != 0) by_fqn_[qualified_[g]].push_back(g);
                         }
                       });
}

std::span<const uint32_t> TypeIndex::children_named(uint32_t g, const NameKey& key) const {
  const std::string_view name = key.name;
  const uint32_t h = key.hash;
  const uint32_t* const hashes = child_hash_.data();
  const uint32_t* const end = hashes + child_start_[g + 1];
  const uint32_t* lower = std::lower_bound(hashes + child_start_[g], end, h);
  // Names sharing a hash are sorted by name: skip the others to this name's run.
  const std::string_view* const names = child_name_.data();
  while (lower != end && *lower == h && names[lower - hashes] < name) ++lower;
  const uint32_t* upper = lower;
  while (upper != end && *upper == h && names[upper - hashes] == name) ++upper;
  return {child_list_.data() + (lower - hashes), static_cast<size_t>(upper - lower)};
}

uint32_t TypeIndex::by_fqn(std::string_view fqn, uint32_t from_file) const {
  const auto it = by_fqn_.find(fqn);
  if (it == by_fqn_.end()) return kNone;
  if (it->second.size() == 1) return it->second.front();
  uint32_t found = kNone;
  for (uint32_t g : it->second) {
    if (files_[owner_[g]].root != files_[from_file].root) continue;
    if (found != kNone) return kNone;
    found = g;
  }
  return found;
}

TypeIndex::Lookups& TypeIndex::lookups() {
  Lookups& mine = lookups_.local();
  if (mine.file_names.empty()) mine.file_names.resize(files_.size());
  return mine;
}

void TypeIndex::use(Lookups& lookups, uint32_t file, uint32_t type) const {
  if (type != kNone && owner_[type] != file && !lookups.quiet) {
    lookups.uses.emplace_back(file, owner_[type]);
  }
}

std::vector<std::pair<uint32_t, uint32_t>> TypeIndex::uses() {
  std::vector<std::pair<uint32_t, uint32_t>> all;
  for (Lookups& lookups : lookups_) {
    all.insert(all.end(), lookups.uses.begin(), lookups.uses.end());
    std::vector<std::pair<uint32_t, uint32_t>>().swap(lookups.uses);
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

uint32_t TypeIndex::resolve_type_quietly(uint32_t file, uint32_t scope, std::string_view written) {
  Lookups& mine = lookups();
  mine.quiet = true;
  const uint32_t type = resolve_type(mine, file, scope, written);
  mine.quiet = false;
  return type;
}

uint32_t TypeIndex::resolve_type(uint32_t file, uint32_t scope, std::string_view written) {
  return resolve_type(lookups(), file, scope, written);
}

uint32_t TypeIndex::resolve_type(Lookups& lookups, uint32_t file, uint32_t scope,
                                 std::string_view written) {
  if (written.empty() || written.back() == ']' || written.front() == '<') return kNone;
  const size_t dot = written.find('.');
  uint32_t type = lexical_type(lookups, file, scope, written.substr(0, dot));
  if (type == kNone) {
    if (dot == std::string_view::npos) return kNone;
    type = by_fqn(written, file);  // a fully qualified name (nested types have one too)
    use(lookups, file, type);
    return type;
  }
  for (size_t at = dot; at != std::string_view::npos && type != kNone;) {
    const size_t next = written.find('.', at + 1);
    type = member_type(type, written.substr(at + 1, next == std::string_view::npos
                                                        ? std::string_view::npos
                                                        : next - at - 1));
    at = next;
  }
  return type;
}

uint32_t TypeIndex::lexical_type(Lookups& lookups, uint32_t file, uint32_t scope,
                                 std::string_view name) {
  const NameKey key(name);
  for (uint32_t d = scope; d != 0;) {
    const uint32_t g = global(file, d);
    const code::Definition& def = definition(g);
    if (def.kind == EntityKind::Class) {
      const uint32_t member = member_type(g, key);
      if (member != kNone) return member;
    } else if (has_class_child_[g]) {
      for (uint32_t local : children_named(g, key)) {
        if (definition(local).kind == EntityKind::Class) return local;
      }
    }
    d = def.parent;
  }
  return file_level_type(lookups, file, name);
}

uint32_t TypeIndex::file_level_type(Lookups& lookups, uint32_t file, std::string_view name) {
  auto& memo = lookups.file_names[file];
  auto it = memo.find(name);
  if (it == memo.end()) {
    FileName found;
    found.type = file_level_lookup(file, name, found.implicit);
    it = memo.emplace(std::string(name), found).first;
  }
  if (it->second.implicit && !it->second.used && !lookups.quiet) {
    use(lookups, file, it->second.type);
    it->second.used = true;
  }
  return it->second.type;
}

uint32_t TypeIndex::file_level_lookup(uint32_t file, std::string_view name,
                                      bool& implicit) const {
  for (uint32_t top : children_named(global(file, 0), name)) {
    if (definition(top).kind == EntityKind::Class) return top;
  }
  const code::CodeFacts& facts = *files_[file].facts;
  // "prefix.name" in one buffer, reused for every prefix tried (not a string made for each).
  std::string qualified;
  const auto in = [&](std::string_view prefix) {
    qualified.assign(prefix);
    qualified += '.';
    qualified += name;
    return by_fqn(qualified, file);
  };
  for (const code::Import& import : facts.imports) {
    if (import.name.empty() && last_segment(import.source) == name) {
      return by_fqn(import.source, file);
    }
    if (import.name == name) return in(import.source);
  }
  implicit = true;
  uint32_t type = facts.package.empty() ? by_fqn(name, file) : in(facts.package);
  if (type != kNone) return type;
  for (const code::Import& import : facts.imports) {
    if (import.name != "*") continue;
    const uint32_t candidate = in(import.source);
    if (candidate == kNone || candidate == type) continue;
    if (type != kNone) return kNone;  // two on-demand imports offer it: ambiguous
    type = candidate;
  }
  if (type != kNone) return type;
  return in("java.lang");
}

void TypeIndex::settle() {
  for (uint32_t g = 0; g < definition_count(); ++g) {
    bases(g);
    chain_complete(g);
  }
  // Every base is done now, so each chain is final and kept, and each is built from bases_ alone.
  tbb::parallel_for(uint32_t{0}, definition_count(), [&](uint32_t g) { chain(g); });
  std::deque<std::vector<uint32_t>>().swap(unsettled_chains_);
}

std::span<const uint32_t> TypeIndex::bases(uint32_t type) {
  if (base_state_[type] == BaseState::Done) return bases_[type];
  if (base_state_[type] == BaseState::InProgress) return {};  // a cycle: javac rejects it
  base_state_[type] = BaseState::InProgress;
  const code::Definition& def = definition(type);
  std::vector<uint32_t> resolved;
  bool complete = true;
  for (const std::string& written : def.bases) {
    const uint32_t base = resolve_type(owner_[type], def.parent, written);
    if (base == kNone || base == type) {
      complete = false;
      continue;
    }
    if (std::find(resolved.begin(), resolved.end(), base) == resolved.end()) {
      resolved.push_back(base);
    }
  }
  bases_[type] = std::move(resolved);
  if (!complete) complete_[type] = 0;
  base_state_[type] = BaseState::Done;
  return bases_[type];
}

bool TypeIndex::chain_complete(uint32_t type) {
  if (complete_[type] >= 0) return complete_[type] == 1;
  complete_[type] = 1;  // provisional: a cycle does not make a chain incomplete
  bool complete = true;
  for (uint32_t base : bases(type)) complete = complete && chain_complete(base);
  if (complete_[type] == 0) complete = false;  // bases() found an unresolved supertype
  complete_[type] = complete ? 1 : 0;
  return complete;
}

const std::vector<uint32_t>& TypeIndex::chain(uint32_t type) {
  if (!chains_[type].empty()) return chains_[type];
  std::vector<uint32_t> out{type};
  bool settled = true;
  for (size_t i = 0; i < out.size(); ++i) {
    for (uint32_t base : bases(out[i])) {
      if (std::find(out.begin(), out.end(), base) == out.end()) out.push_back(base);
    }
    // Done bases never change again; a type still in progress answered none for now.
    settled = settled && base_state_[out[i]] == BaseState::Done;
  }
  if (!settled) return unsettled_chains_.emplace_back(std::move(out));
  chains_[type] = std::move(out);
  return chains_[type];
}

uint32_t TypeIndex::member_type(uint32_t type, const NameKey& key) {
  for (uint32_t t : chain(type)) {
    if (!has_class_child_[t]) continue;
    for (uint32_t member : children_named(t, key)) {
      if (definition(member).kind == EntityKind::Class) return member;
    }
  }
  return kNone;
}

void TypeIndex::record_import_declarations() {
  for (uint32_t f = 0; f < files_.size(); ++f) {
    for (const code::Import& import : files_[f].facts->imports) {
      uint32_t type = by_fqn(import.source, f);
      if (type == kNone && import.name.empty()) {
        // `import a.B.C;` where C is a member type B inherits.
        const size_t dot = import.source.rfind('.');
        const uint32_t outer =
            dot == std::string::npos ? kNone : by_fqn(import.source.substr(0, dot), f);
        if (outer != kNone) {
          type = member_type(outer, std::string_view(import.source).substr(dot + 1));
        }
      }
      use(lookups(), f, type);
    }
  }
}

}  // namespace anchorfs::analysis::java
