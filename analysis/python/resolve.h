// Whole-repository Python resolution: imports, inheritance and calls by points-to analysis.
#pragma once

#include <vector>

#include "analysis/graph.h"
#include "analysis/python/facts.h"

namespace anchorfs::analysis::python {

// Rounds of the flow-insensitive fixed point before giving up on convergence.
inline constexpr int kMaxRounds = 12;

// Appends Contains, Imports, Inherits and Calls edges among `input.files`.
void resolve(const ResolverInput& input, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::python
