// Binary (de)serialization of a whole Analysis (graph, skipped files, tree statistics) for the
// graph cache.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/analyze.h"

namespace anchorfs::analysis {

// Bump whenever the layout below changes (graph entries are also keyed by every front end's facts
// version and the program's build id, so a changed resolver never meets an old entry either).
inline constexpr uint32_t kGraphFormatVersion = 4;

// Keeps the graph, the skipped list and the statistics that describe the tree (source_files,
// lines). How the analysis was obtained (parsed, from_cache, graph_from_cache, timings) is the
// loader's to fill in.
// The bytes are written into one buffer of serialized_bytes_bound() reserved first, not a string
// doubling its way up (each step above jemalloc's 8 MiB oversize threshold takes fresh pages,
// zeroed on first touch, and purges the old ones); the bound's untouched tail is address space.
std::string serialize_analysis(const Analysis& analysis);
// At least serialize_analysis(analysis).size(): every varint counted at its widest.
size_t serialized_bytes_bound(const Analysis& analysis);

// nullopt for anything that is not a well-formed encoding of this format version
// (garbage, truncation, trailing bytes, out-of-range or unsorted references); never crashes.
std::optional<Analysis> deserialize_analysis(std::string_view bytes);

// Whether every index in the graph points where the renderer and fs expect: entities of a file
// follow their File entity, parents precede children, files and edges are in range, edges and
// labels sorted and unique.
bool graph_is_consistent(const Graph& graph);

}  // namespace anchorfs::analysis
