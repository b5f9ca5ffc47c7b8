// Binary (de)serialization of a whole Analysis: varints, length-prefixed strings, full validation.
#include "analysis/graph_serialize.h"

#include <tuple>
#include <utility>

#include "analysis/byte_codec.h"

namespace anchorfs::analysis {
namespace {

constexpr std::string_view kMagic = "AFGR";

template <typename Enum>
bool enum_at_most(Enum value, Enum last) {
  return static_cast<uint8_t>(value) <= static_cast<uint8_t>(last);
}

auto edge_order(const Edge& e) {
  return std::tie(e.relation, e.from, e.to);
}
auto label_order(const Label& l) {
  return std::tie(l.entity, l.relation, l.value);
}

bool entities_are_consistent(const Graph& g, size_t& file_count) {
  const size_t n = g.entities.size();
  EntityIndex current_file = kNoEntity;
  for (size_t i = 0; i < n; ++i) {
    const Entity& e = g.entities[i];
    if (!enum_at_most(e.kind, EntityKind::Function)) return false;
    if (e.kind == EntityKind::File) {
      if (e.file != i || e.parent != kNoEntity) return false;
      current_file = static_cast<EntityIndex>(i);
      ++file_count;
      continue;
    }
    // A file's classes and functions follow it, each after its parent.
    if (current_file == kNoEntity || e.file != current_file || e.parent == kNoEntity ||
        e.parent < current_file || e.parent >= i) {
      return false;
    }
  }
  return true;
}

bool files_are_consistent(const Graph& g, size_t file_count) {
  if (g.files.size() != file_count) return false;
  size_t next = 0;
  for (const FileInfo& f : g.files) {
    while (next < g.entities.size() && g.entities[next].kind != EntityKind::File) ++next;
    if (next == g.entities.size() || f.entity != next) return false;
    ++next;
  }
  return true;
}

bool relations_are_consistent(const Graph& g) {
  const size_t n = g.entities.size();
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const Edge& e = g.edges[i];
    if (e.from >= n || e.to >= n || !enum_at_most(e.relation, Relation::Registers)) return false;
    if (i > 0 && !(edge_order(g.edges[i - 1]) < edge_order(e))) return false;
  }
  for (size_t i = 0; i < g.labels.size(); ++i) {
    const Label& l = g.labels[i];
    if (l.entity >= n || !enum_at_most(l.relation, Relation::Registers)) return false;
    if (i > 0 && !(label_order(g.labels[i - 1]) < label_order(l))) return false;
  }
  return true;
}

// At least the bytes write_graph writes: every varint at its widest (10 bytes for a u64, 5 for
// a 32-bit value, 2 for an enum).
size_t graph_bytes_bound(const Graph& g) {
  size_t bytes = 3 * 10;
  for (const Entity& e : g.entities) {
    bytes += 2 + 5 + 5 + 10 + e.name.size() + 5 + 1;
    if (e.anchor) bytes += 10 + 10 + e.anchor->indent.size();
  }
  for (const FileInfo& f : g.files) {
    bytes += 5 + 10 + f.language.size() + 10 + f.newline.size() + 1 + 5 + 1 + 10;
  }
  bytes += 10 + g.edges.size() * (2 + 5 + 5);
  bytes += 10;
  for (const Label& l : g.labels) bytes += 5 + 2 + 10 + l.value.size();
  return bytes;
}

void write_graph(ByteWriter& w, const Graph& g) {
  w.u64(g.entities.size());
  for (const Entity& e : g.entities) {
    w.u64(static_cast<uint8_t>(e.kind));
    w.u64(e.file);
    w.ref(e.parent);
    w.str(e.name);
    w.u64(e.line);
    w.u64(e.anchor.has_value());
    if (e.anchor) {
      w.u64(e.anchor->offset);
      w.str(e.anchor->indent);
    }
  }
  w.u64(g.files.size());
  for (const FileInfo& f : g.files) {
    w.u64(f.entity);
    w.str(f.language);
    w.str(f.newline);
    w.u64(f.taggable);
    w.u64(f.error_regions);
    w.u64(f.ascii_tags);
    w.u64(f.size);
  }
  // Edges are sorted by relation then source: deltas keep most of them at three bytes.
  w.u64(g.edges.size());
  const Edge* previous = nullptr;
  for (const Edge& e : g.edges) {
    const bool same_relation = previous != nullptr && previous->relation == e.relation;
    w.u64(static_cast<uint8_t>(e.relation));
    w.u64(same_relation ? e.from - previous->from : e.from);
    w.u64(e.to);
    previous = &e;
  }
  w.u64(g.labels.size());
  for (const Label& l : g.labels) {
    w.u64(l.entity);
    w.u64(static_cast<uint8_t>(l.relation));
    w.str(l.value);
  }
}

void read_graph(ByteReader& r, Graph& g) {
  g.entities.resize(r.count());
  for (Entity& e : g.entities) {
    e.kind = static_cast<EntityKind>(r.u8());
    e.file = r.u32();
    e.parent = r.ref();
    e.name = r.str();
    e.line = r.u32();
    if (r.boolean()) {
      Anchor anchor;
      anchor.offset = r.u64();
      anchor.indent = r.str();
      e.anchor = std::move(anchor);
    }
  }
  g.files.resize(r.count());
  for (FileInfo& f : g.files) {
    f.entity = r.u32();
    f.language = r.str();
    f.newline = r.str();
    f.taggable = r.boolean();
    f.error_regions = r.u32();
    f.ascii_tags = r.boolean();
    f.size = r.u64();
  }
  g.edges.resize(r.count());
  const Edge* previous = nullptr;
  for (Edge& e : g.edges) {
    e.relation = static_cast<Relation>(r.u8());
    const bool same_relation = previous != nullptr && previous->relation == e.relation;
    const uint64_t from = r.u64() + (same_relation ? previous->from : 0);
    e.from = from > UINT32_MAX ? kNoEntity : static_cast<EntityIndex>(from);
    e.to = r.u32();
    previous = &e;
  }
  g.labels.resize(r.count());
  for (Label& l : g.labels) {
    l.entity = r.u32();
    l.relation = static_cast<Relation>(r.u8());
    l.value = r.str();
  }
}

}  // namespace

bool graph_is_consistent(const Graph& graph) {
  size_t file_count = 0;
  return entities_are_consistent(graph, file_count) && files_are_consistent(graph, file_count) &&
         relations_are_consistent(graph);
}

size_t serialized_bytes_bound(const Analysis& a) {
  size_t bound = kMagic.size() + 3 * 10 + graph_bytes_bound(a.graph);
  for (const SkippedFile& s : a.skipped) bound += 20 + s.path.size() + s.reason.size();
  return bound;
}

std::string serialize_analysis(const Analysis& a) {
  std::string buffer;
  buffer.reserve(serialized_bytes_bound(a));
  ByteWriter w(std::move(buffer));
  w.raw(kMagic);
  w.u64(kGraphFormatVersion);
  w.u64(a.stats.source_files);
  w.u64(a.stats.lines);
  w.u64(a.skipped.size());
  for (const SkippedFile& s : a.skipped) {
    w.str(s.path);
    w.str(s.reason);
  }
  write_graph(w, a.graph);
  return w.take();
}

std::optional<Analysis> deserialize_analysis(std::string_view bytes) {
  ByteReader r(bytes);
  if (!r.expect(kMagic) || r.u64() != kGraphFormatVersion ||
      !r.ok()) {
    return std::nullopt;
  }
  Analysis a;
  a.stats.source_files = r.u64();
  a.stats.lines = r.u64();
  a.skipped.resize(r.count());
  for (SkippedFile& s : a.skipped) {
    s.path = r.str();
    s.reason = r.str();
  }
  read_graph(r, a.graph);
  if (!r.ok() || !r.at_end() || !graph_is_consistent(a.graph)) return std::nullopt;
  return a;
}

}  // namespace anchorfs::analysis
