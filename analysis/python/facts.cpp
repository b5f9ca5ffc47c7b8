// The outline the language-neutral core reads from Python facts: scopes as definitions.
#include "analysis/python/facts.h"

namespace anchorfs::analysis::python {

DefinitionOutline FileFacts::definition(uint32_t d) const {
  const Scope& scope = scopes[d];
  DefinitionOutline outline;
  outline.kind = scope.kind == ScopeKind::Class ? EntityKind::Class : EntityKind::Function;
  outline.parent = scope.parent;
  outline.name = strings[scope.name];
  outline.line = scope.line;
  outline.has_anchor = scope.has_anchor;
  outline.anchor_offset = scope.anchor_offset;
  if (scope.has_anchor) outline.anchor_indent = strings[scope.anchor_indent];
  return outline;
}

}  // namespace anchorfs::analysis::python
