// The per-format writers behind write_graph (internal to anchorfs_export).
#pragma once

#include <ostream>
#include <string_view>

#include "analysis/export/graph_export.h"

namespace anchorfs::graph_export {

void write_pycg(std::ostream& out, const analysis::Graph& graph, const ExportOptions& options);
void write_anchorfs_json(std::ostream& out, const analysis::Graph& graph);
void write_dot(std::ostream& out, const analysis::Graph& graph, const ExportOptions& options);

// Lower-case names used by the json and dot formats ("file", "class", "function").
std::string_view kind_name(analysis::EntityKind kind);
using analysis::relation_name;

}  // namespace anchorfs::graph_export
