// anchorfs's own graph JSON (schema "anchorfs-graph", version 1; see docs/graph-export.md).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

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

// Writes items [0, count) in order, each as `format(chunk, i)` writes it (",\n    " then the
// item; false when it writes nothing). Chunks of items are formatted side by side, a few at a
// time, and written in order: the whole kernel's graph is 341 MB of JSON, and one thread
// formatting it held the other core idle for seconds. Returns whether nothing was written; the
// first item's leading comma is dropped.
template <typename Format>
bool write_items(std::ostream& out, size_t count, Format&& format) {
  constexpr size_t kChunkItems = size_t{1} << 14;
  constexpr size_t kChunksAtOnce = 16;  // bounds the text held besides `out` (~50 MB)
  bool none = true;
  std::vector<std::string> texts(kChunksAtOnce);
  for (size_t wave = 0; wave < count; wave += kChunkItems * kChunksAtOnce) {
    const size_t chunks = std::min(kChunksAtOnce, (count - wave + kChunkItems - 1) / kChunkItems);
    tbb::parallel_for(size_t{0}, chunks, [&](size_t c) {
      std::ostringstream chunk;
      const size_t begin = wave + c * kChunkItems;
      const size_t end = std::min(count, begin + kChunkItems);
      for (size_t i = begin; i < end; ++i) format(chunk, i);
      texts[c] = std::move(chunk).str();
    });
    for (size_t c = 0; c < chunks; ++c) {
      std::string_view text = texts[c];
      if (none && !text.empty()) {
        text.remove_prefix(1);
        none = false;
      }
      out << text;
    }
  }
  return none;
}

}  // namespace

void write_anchorfs_json(std::ostream& out, const Graph& graph) {
  std::vector<const analysis::FileInfo*> info_of(graph.entities.size(), nullptr);
  for (const analysis::FileInfo& info : graph.files) {
    if (info.entity < info_of.size()) info_of[info.entity] = &info;
  }
  out << "{\n  \"schema\": \"anchorfs-graph\",\n  \"version\": " << kSchemaVersion
      << ",\n  \"entities\": [";
  bool first = write_items(out, graph.entities.size(), [&](std::ostream& chunk, size_t e) {
    chunk << ",\n    ";
    write_entity(chunk, graph, static_cast<EntityIndex>(e), info_of);
    return true;
  });
  out << (first ? "],\n" : "\n  ],\n") << "  \"edges\": [";
  first = write_items(out, graph.edges.size(), [&](std::ostream& chunk, size_t i) {
    const analysis::Edge& edge = graph.edges[i];
    if (edge.from >= graph.entities.size() || edge.to >= graph.entities.size()) return false;
    chunk << ",\n    {\"relation\": \"" << relation_name(edge.relation)
          << "\", \"from\": " << edge.from << ", \"to\": " << edge.to << '}';
    return true;
  });
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
