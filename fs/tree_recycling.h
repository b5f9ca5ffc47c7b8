// The tree storage of a writable mount's retired snapshots, reused by the next swap's patch.
#pragma once

#include <vector>

#include "analysis/source_tree.h"

namespace anchorfs::fs {

// Keeps the entries of a snapshot no request uses any more for take_retired_entries(), unless
// some are kept already (then they are freed). A writable mount swaps a generation per change,
// each a copy of the whole tree: a copy assigned over retired entries allocates no path and the
// retired snapshot frees none (docs/filesystem.md, "Cost of a change").
void retire_entries(std::vector<analysis::TreeEntry> entries);

// The entries kept by retire_entries (their values are stale), or none.
std::vector<analysis::TreeEntry> take_retired_entries();

}  // namespace anchorfs::fs
