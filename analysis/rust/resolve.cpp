// Rust resolution: imports from `mod` declarations and `use` bindings; inheritance from impls
// and supertraits; calls through analysis/rust/names.h (containment is the core's).
#include "analysis/rust/resolve.h"

#include "analysis/code/code_facts.h"
#include "analysis/rust/facts_layout.h"
#include "analysis/rust/module_tree.h"
#include "analysis/rust/names.h"

namespace anchorfs::analysis::rust {

void resolve(const ResolverInput& input, std::vector<Edge>& edges) {
  const RustFiles files(input.files);
  const ModuleTree tree(input.root, files);
  Names names(files, tree);
  for (const auto& [declaring, declared] : tree.declarations()) {
    if (declaring != declared) edges.push_back({declaring, declared, Relation::Imports});
  }
  for (uint32_t f = 0; f < files.size(); ++f) {
    const code::CodeFacts& facts = files.facts(f);
    const EntityIndex file = files.entity(f);
    for (uint32_t d = 1; d < facts.definitions.size(); ++d) {
      const code::Definition& def = facts.definitions[d];
      if (def.bases.empty()) continue;
      // `impl Trait for Type`: the type derives from the trait when it is in the repository,
      // else the impl block does (`impl Trait for Vec<T>`, blanket impls).
      const Targets traits = names.bases(file + d);
      Targets derived = def.role == kRoleImpl ? names.impl_types(file + d) : Targets{};
      if (derived.empty()) derived.push_back(file + d);
      for (EntityIndex type : derived) {
        for (EntityIndex trait : traits) {
          if (type != trait) edges.push_back({type, trait, Relation::Inherits});
        }
      }
    }
    for (const code::Import& import : facts.imports) {
      if (import.source == kModDeclaration) continue;
      for (EntityIndex target : names.imported(f, import)) {
        const EntityIndex target_file = files.entity(files.file_of(target));
        if (target_file != file) edges.push_back({file, target_file, Relation::Imports});
      }
    }
    for (size_t c = 0; c < facts.calls.size(); ++c) {
      const code::Call& call = facts.calls[c];
      const Targets callees = names.callees(f, call);
      for (EntityIndex callee : callees) {
        edges.push_back({file + call.scope, callee, Relation::Calls});
      }
      // The calls in a macro's tokens are code only when the macro wraps an expression.
      if (call.arity > 0 && call.name.ends_with('!') &&
          (callees.size() != 1 || files.definition(callees[0]).arity != 1)) {
        c += call.arity;
      }
    }
  }
}

}  // namespace anchorfs::analysis::rust
