// Java resolution: containment, imports, inheritance and calls among a repository's Java files.
#pragma once

#include <vector>

#include "analysis/graph.h"
#include "analysis/language.h"

namespace anchorfs::analysis::java {

// Appends Contains, Imports, Inherits and Calls edges (docs/languages/java.md says how each is
// resolved). A call whose target is not certain gets no edge.
void resolve(const ResolverInput& input, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::java
