// The dense view's relations for Python: configuration, environment, constants, I/O, data,
// tests and registration (docs/dense.md).
#pragma once

#include "analysis/graph.h"
#include "analysis/python/facts.h"
#include "analysis/python/imports.h"

namespace anchorfs::analysis::python {

// Appends ConfigUsage, EnvVar, ConstRef, IoDep, DataDep, TestRef and Registers edges and labels
// among `input.files`, whose imports `imports` resolved, to `graph`, whose entities and topology
// edges (sorted) are final. Reads setup.cfg and pyproject.toml at `input.root` for entry points.
// Leaves sorting to the caller.
void add_dense_relations(const ResolverInput& input, const ImportTable& imports, Graph& graph);

}  // namespace anchorfs::analysis::python
