// anchorfs's own graph JSON (schema "anchorfs-graph", version 1; see docs/graph-export.md).
#include "analysis/export/json_text.h"
#include "analysis/export/writers.h"

namespace anchorfs::graph_export {
namespace {

using analysis::EntityIndex;
using analysis::Graph;

constexpr int kSchemaVersion = 1;

void write_index_or_null(std::ostream& out, EntityIndex index, size_t count) {
  if (index < count) {
    out << index;
  } else {
    out << "null";
  }
}

void write_entity(std::ostream& out, const Graph& graph, EntityIndex e,
                  const std::vector<const analysis::FileInfo*>& info_of) {
  const analysis::Entity& entity = graph.entities[e];
  const size_t count = graph.entities.size();
  out << "{\"index\": " << e << ", \"id\": ";
  write_json_string(out, graph.id(e));
  out << ", \"kind\": \"" << kind_name(entity.kind) << "\", \"name\": ";
  write_json_string(out, entity.name);
  out << ", \"file\": ";
  write_index_or_null(out, entity.file, count);
  out << ", \"parent\": ";
  write_index_or_null(out, entity.parent, count);
  out << ", \"line\": " << entity.line;
  if (const analysis::FileInfo* info = info_of[e]) {
    out << ", \"language\": ";
    write_json_string(out, info->language);
    out << ", \"taggable\": " << (info->taggable ? "true" : "false");
  }
  out << '}';
}

}  // namespace

void write_anchorfs_json(std::ostream& out, const Graph& graph) {
  std::vector<const analysis::FileInfo*> info_of(graph.entities.size(), nullptr);
  for (const analysis::FileInfo& info : graph.files) {
    if (info.entity < info_of.size()) info_of[info.entity] = &info;
  }
  out << "{\n  \"schema\": \"anchorfs-graph\",\n  \"version\": " << kSchemaVersion
      << ",\n  \"entities\": [";
  for (EntityIndex e = 0; e < graph.entities.size(); ++e) {
    out << (e == 0 ? "\n    " : ",\n    ");
    write_entity(out, graph, e, info_of);
  }
  out << (graph.entities.empty() ? "],\n" : "\n  ],\n") << "  \"edges\": [";
  bool first = true;
  for (const analysis::Edge& edge : graph.edges) {
    if (edge.from >= graph.entities.size() || edge.to >= graph.entities.size()) continue;
    out << (first ? "\n    " : ",\n    ");
    first = false;
    out << "{\"relation\": \"" << relation_name(edge.relation) << "\", \"from\": " << edge.from
        << ", \"to\": " << edge.to << '}';
  }
  out << (first ? "],\n" : "\n  ],\n") << "  \"labels\": [";
  first = true;
  for (const analysis::Label& label : graph.labels) {
    if (label.entity >= graph.entities.size()) continue;
    out << (first ? "\n    " : ",\n    ");
    first = false;
    out << "{\"entity\": " << label.entity << ", \"relation\": \"" << relation_name(label.relation)
        << "\", \"value\": ";
    write_json_string(out, label.value);
    out << '}';
  }
  out << (first ? "]\n}\n" : "\n  ]\n}\n");
}

}  // namespace anchorfs::graph_export
