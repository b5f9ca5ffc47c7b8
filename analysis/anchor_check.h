// Whether a graph that came from elsewhere (a shared cache) fits the repository's own bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "analysis/graph.h"

namespace anchorfs::analysis {

// Checks every anchor of `graph` against the file it is in, read now from the repository at
// `root` (files of at most `max_bytes`): an anchor must lie inside the file, at the start of a
// line (or right after a UTF-8 byte order mark at the start), followed by exactly the indentation
// it records. Tags are inserted at anchors, so a graph that passes never splices a tag into the
// middle of a line or past the end of a file. Returns nullopt when every anchor fits, else
// "PATH: why" for the first that does not.
std::optional<std::string> misplaced_anchor(const std::string& root, const Graph& graph,
                                            size_t max_bytes);

}  // namespace anchorfs::analysis
