// Whole-repository Python resolution: imports, inheritance and calls by points-to analysis.
#pragma once

#include <vector>

#include "analysis/graph.h"
#include "analysis/python/facts.h"
#include "analysis/python/imports.h"
#include "analysis/python/resolution_base.h"

namespace anchorfs::analysis::python {

// Rounds of the flow-insensitive fixed point before giving up on convergence.
inline constexpr int kMaxRounds = 12;

// Appends Imports, Inherits and Calls edges among `input.files`, whose imports
// `imports` resolved. Returns the first round that changed nothing, kMaxRounds when every round
// changed something (a refresh that adds statements compares the two: docs/resolver.md).
// With `base`, also fills it for later refreshes that append to one file (resolution_base.h).
// With `threads` > 1, a helper thread faults in the pages of the tables it fills (the edges are
// the same either way).
int resolve(const ResolverInput& input, const ImportTable& imports, std::vector<Edge>& edges,
            ResolutionBase* base = nullptr, size_t threads = 1);

}  // namespace anchorfs::analysis::python
