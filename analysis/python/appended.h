// A one-file Python edit that only appends self-contained functions: their edges alone.
#pragma once

#include <vector>

#include "analysis/graph.h"
#include "analysis/python/facts.h"
#include "analysis/python/imports.h"

namespace anchorfs::analysis::python {

// When file `file` of `input` only appends to `base` (its facts at the last whole resolution,
// which ended at `quiet_round`) functions whose statements read, bind and make nothing the rest
// of the tree can reach or be reached by, appends their edges to `edges` and returns true: a
// cold resolution of `input` gives exactly the last edges plus these (docs/resolver.md,
// "Refresh"). False, with `edges` untouched, whenever that cannot be shown.
bool appended_edges(const ResolverInput& input, const ImportTable& imports, size_t file,
                    const FileFacts& base, int quiet_round, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::python
