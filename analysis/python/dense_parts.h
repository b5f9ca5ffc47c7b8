// The dense relations computed over the whole graph (data dependencies, test references).
#pragma once

#include <vector>

#include "analysis/graph.h"
#include "analysis/python/facts.h"
#include "analysis/python/dense_symbols.h"

namespace anchorfs::analysis::python {

// A global or class attribute written by more functions than this, or read by more than
// kMaxDataReaders, gives no DataDep edges (a shared registry says little about any one of them).
inline constexpr size_t kMaxDataWriters = 8;
inline constexpr size_t kMaxDataReaders = 32;

// DataDep edges writer -> reader for module globals (`global x` + assignment) and class
// attributes (`Cls.x = ...`, `cls.x = ...` in classmethods).
void add_data_dependencies(const ResolverInput& input, const Graph& graph, SymbolResolver& symbols,
                           std::vector<Edge>& out);

// Whether a repository-relative path is a test file: test_*.py, *_test.py, tests.py,
// conftest.py, or anything under a directory named `tests`.
bool is_test_path(std::string_view path);

// TestRef edges: test function -> production entity it calls; test file -> production file it
// imports or whose entities its tests call.
void add_test_references(const ResolverInput& input, const Graph& graph, std::vector<Edge>& out);

}  // namespace anchorfs::analysis::python
