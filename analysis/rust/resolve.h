// Whole-repository resolution of Rust facts into containment, import, inheritance and call edges.
#pragma once

#include <vector>

#include "analysis/language.h"

namespace anchorfs::analysis::rust {

// Every file's facts must be CodeFacts made by the Rust front end.
void resolve(const ResolverInput& input, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::rust
