// Python resolution again after an edit: the last edges, re-based, when no file's facts changed
// in anything the resolver reads, or those and the edges of a closed unit of functions appended
// to one file; otherwise the whole resolution.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/language.h"
#include "analysis/python/facts.h"

namespace anchorfs::analysis::python {

// resolve() with what the previous call kept in `memory` (docs/resolver.md, "Refresh").
void resolve_again(const analysis::ResolverInput& input,
                   std::unique_ptr<ResolutionMemory>& memory, std::vector<Edge>& edges);

// Whether the resolver reads the same facts in `a` and `b`: they differ at most in positions
// (lines, anchors), the header and the dense view's facts.
bool same_for_resolution(const FileFacts& a, const FileFacts& b);
// Every member of a Scope the resolver, the module index and the import table read: not its line
// or anchor.
bool same_for_resolution(const Scope& a, const Scope& b);

// How many resolve_again calls in this process reused the last edges, how many added an appended
// unit's edges to them, and how many resolved the whole tree (tests and benchmarks tell the
// paths apart with them).
struct RefreshCounts {
  uint64_t reused = 0;
  uint64_t appended = 0;
  uint64_t resolved = 0;
};
RefreshCounts refresh_counts();

}  // namespace anchorfs::analysis::python
