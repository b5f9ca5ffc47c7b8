// A one-file Python edit that only appends functions the rest of the tree cannot reach: their
// edges alone.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/graph.h"
#include "analysis/python/facts.h"
#include "analysis/python/imports.h"
#include "analysis/python/resolution_base.h"

namespace anchorfs::analysis::python {

// What the last whole resolution knew of the edited file.
struct AppendBase {
  const FileFacts& facts;           // its facts then
  int quiet_round = 0;              // the first round in which nothing changed
  const FileBase* calls = nullptr;  // its names' calls (null: functions calling old code refused)
  std::vector<uint32_t> imported;   // the files it imports (its Imports edges), sorted
};

// When file `file` of `input` only appends to `base.facts` functions that nothing else reads,
// whose statements either read, bind and make only what the unit itself binds, or (module-level
// functions no code names) call the file's old names with arguments that hold no values, appends
// their edges to `edges` and returns true: a cold resolution of `input` gives exactly the last
// edges plus these (docs/resolver.md, "Refresh"). False, with `edges` untouched, whenever that
// cannot be shown.
bool appended_edges(const ResolverInput& input, const ImportTable& imports, size_t file,
                    const AppendBase& base, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::python
