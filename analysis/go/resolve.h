// Go resolution: containment, imports between packages of a module, embedding, calls.
#pragma once

#include <string_view>
#include <vector>

#include "analysis/language.h"

namespace anchorfs::analysis::go {

// The module file of the repository root, a resolution input (its module path maps import
// paths to directories).
inline constexpr std::string_view kRootModuleFile = "go.mod";

// Appends the edges among the Go files of `input` (their facts are code::CodeFacts).
void resolve(const ResolverInput& input, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::go
