// Rust name resolution over the module tree: what a name, a path, a type or a call's receiver
// denotes at a place in the code, as repository entities. Precision first: whatever is not
// evident (a local closure, a type from another crate, an ambiguous method) resolves to nothing.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/code/code_facts.h"
#include "analysis/rust/module_tree.h"

namespace anchorfs::analysis::rust {

using Targets = std::vector<EntityIndex>;

class Names {
 public:
  Names(const RustFiles& files, const ModuleTree& tree);

  // What a `use` (or `extern crate`) import of file f binds: modules, types, functions.
  Targets imported(uint32_t f, const code::Import& import);
  // The functions and methods a call site may reach (empty when not evident).
  Targets callees(uint32_t f, const code::Call& call);
  // The types an impl block is for, and the traits a trait or impl names as bases.
  Targets impl_types(EntityIndex impl);
  Targets bases(EntityIndex definition);

 private:
  struct Key {
    EntityIndex scope;
    std::string_view name;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<std::string_view>()(k.name) * 31 + k.scope;
    }
  };
  struct Use {
    uint32_t file;
    const code::Import* import;
  };

  Targets path(std::string_view path, EntityIndex scope, bool use_path, int depth);
  Targets scoped(std::string_view name, EntityIndex scope, int depth);
  Targets in_namespace(EntityIndex ns, std::string_view name, int depth);
  Targets use_targets(const Use& use, int depth);
  Targets associated(EntityIndex type, std::string_view name, int depth);
  Targets trait_methods(EntityIndex trait, std::string_view name, int depth);
  Targets self_types(EntityIndex scope, int depth);
  Targets impl_types_at(EntityIndex impl, int depth);
  Targets type_targets(std::string_view type, EntityIndex scope, int depth);
  Targets receiver_types(std::string_view receiver, EntityIndex scope, int depth);
  Targets element_types(std::string_view receiver, EntityIndex scope, int depth);
  Targets elements(const code::TypedName& typed, EntityIndex scope, int depth);
  Targets call_result(std::string_view callee, EntityIndex scope, bool unwrap, int depth);
  Targets callable(std::string_view path, EntityIndex scope, int depth);
  Targets macros(uint32_t f, std::string_view name) const;
  const std::vector<EntityIndex>& impls_of(EntityIndex type);
  bool is_type(EntityIndex e) const;
  bool is_function(EntityIndex e) const;

  const RustFiles& files_;
  const ModuleTree& tree_;
  std::unordered_multimap<Key, EntityIndex, KeyHash> items_;  // definitions by parent and name
  std::unordered_multimap<Key, Use, KeyHash> uses_;           // bindings by scope and name
  std::unordered_map<EntityIndex, std::vector<Use>> globs_;   // `use path::*` by scope
  // Typed names by scope entity and name: (file, index into typed_names).
  std::unordered_multimap<Key, const code::TypedName*, KeyHash> typed_;
  std::unordered_map<const code::Import*, Targets> use_memo_;
  std::unordered_set<const code::Import*> use_busy_;  // cycle guard (`use a::b; use b::a;`)
  std::unordered_map<std::string, Targets> glob_memo_;  // "<namespace>/<name>" -> via globs
  std::unordered_map<EntityIndex, Targets> impl_type_memo_;
  std::unordered_map<EntityIndex, std::vector<EntityIndex>> impls_;  // type -> impl blocks
  std::vector<EntityIndex> all_impls_;
  std::unordered_map<std::string_view, std::vector<EntityIndex>> macros_;  // by "name!"
  bool impls_ready_ = false;
};

}  // namespace anchorfs::analysis::rust
