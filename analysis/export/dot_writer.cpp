// Graphviz dot: one cluster per file holding its classes and functions; calls, imports and
// inheritance as differently drawn edges.
#include "analysis/export/json_text.h"
#include "analysis/export/writers.h"

namespace anchorfs::graph_export {
namespace {

using analysis::EntityIndex;
using analysis::EntityKind;
using analysis::Graph;
using analysis::Relation;

bool in_scope(std::string_view file_path, std::string_view scope) {
  while (scope.ends_with('/')) scope.remove_suffix(1);
  if (scope.empty()) return true;
  if (!file_path.starts_with(scope)) return false;
  return file_path.size() == scope.size() || file_path[scope.size()] == '/';
}

bool drawn(Relation relation) {
  return relation == Relation::Calls || relation == Relation::Imports ||
         relation == Relation::Inherits;
}

std::string_view edge_style(Relation relation) {
  switch (relation) {
    case Relation::Imports:
      return " [style=dashed, color=gray40]";
    case Relation::Inherits:
      return " [arrowhead=empty, color=blue]";
    default:
      return "";
  }
}

std::string_view node_shape(EntityKind kind) {
  switch (kind) {
    case EntityKind::File:
      return "note";
    case EntityKind::Class:
      return "box";
    case EntityKind::Function:
      return "ellipse";
  }
  return "box";
}

}  // namespace

void write_dot(std::ostream& out, const Graph& graph, const ExportOptions& options) {
  const size_t count = graph.entities.size();
  const auto file_path = [&](EntityIndex e) -> std::string_view {
    const EntityIndex file = graph.entities[e].file;
    return file < count ? std::string_view(graph.entities[file].name) : std::string_view();
  };
  std::vector<bool> inside(count);
  for (EntityIndex e = 0; e < count; ++e) inside[e] = in_scope(file_path(e), options.scope);

  std::vector<bool> neighbour(count);  // outside the scope but linked to it
  for (const analysis::Edge& edge : graph.edges) {
    if (!drawn(edge.relation) || edge.from >= count || edge.to >= count) continue;
    if (inside[edge.from] && !inside[edge.to]) neighbour[edge.to] = true;
    if (inside[edge.to] && !inside[edge.from]) neighbour[edge.from] = true;
  }

  std::vector<std::vector<EntityIndex>> members(count);
  for (EntityIndex e = 0; e < count; ++e) {
    if (graph.entities[e].file < count) members[graph.entities[e].file].push_back(e);
  }

  out << "digraph anchorfs {\n  rankdir=LR;\n  node [fontname=\"monospace\", fontsize=10];\n";
  for (EntityIndex e = 0; e < count; ++e) {
    const analysis::Entity& entity = graph.entities[e];
    if (entity.kind != EntityKind::File || !inside[e]) continue;
    out << "  subgraph cluster_" << e << " {\n    label=";
    write_json_string(out, entity.name);
    out << ";\n";
    for (EntityIndex member : members[e]) {
      const analysis::Entity& m = graph.entities[member];
      out << "    n" << member << " [shape=" << node_shape(m.kind) << ", label=";
      write_json_string(out, m.kind == EntityKind::File ? std::string("(module)") : m.name);
      out << "];\n";
    }
    out << "  }\n";
  }
  for (EntityIndex e = 0; e < count; ++e) {
    if (!neighbour[e]) continue;
    out << "  n" << e << " [shape=" << node_shape(graph.entities[e].kind)
        << ", style=dotted, label=";
    write_json_string(out, graph.id(e));
    out << "];\n";
  }
  for (const analysis::Edge& edge : graph.edges) {
    if (!drawn(edge.relation) || edge.from >= count || edge.to >= count) continue;
    if (!inside[edge.from] && !inside[edge.to]) continue;
    out << "  n" << edge.from << " -> n" << edge.to << edge_style(edge.relation) << ";\n";
  }
  out << "}\n";
}

}  // namespace anchorfs::graph_export
