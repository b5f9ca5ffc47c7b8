// Format selection for `anchorfs graph`, and the names the json and dot formats share.
#include "analysis/export/graph_export.h"

#include "analysis/export/writers.h"

namespace anchorfs::graph_export {

std::optional<GraphFormat> parse_graph_format(std::string_view name) {
  if (name == "json") return GraphFormat::Json;
  if (name == "pycg") return GraphFormat::Pycg;
  if (name == "dot") return GraphFormat::Dot;
  return std::nullopt;
}

void write_graph(std::ostream& out, const analysis::Graph& graph, GraphFormat format,
                 const ExportOptions& options) {
  switch (format) {
    case GraphFormat::Json:
      write_anchorfs_json(out, graph);
      return;
    case GraphFormat::Pycg:
      write_pycg(out, graph, options);
      return;
    case GraphFormat::Dot:
      write_dot(out, graph, options);
      return;
  }
}

std::string_view kind_name(analysis::EntityKind kind) {
  switch (kind) {
    case analysis::EntityKind::File:
      return "file";
    case analysis::EntityKind::Class:
      return "class";
    case analysis::EntityKind::Function:
      return "function";
  }
  return "unknown";
}

}  // namespace anchorfs::graph_export
