// Entity ids of the resolved graph, and its edges' order.
#include "analysis/graph.h"

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <utility>

#include "analysis/radix_sort.h"

namespace anchorfs::analysis {

std::string_view relation_name(Relation relation) {
  switch (relation) {
    case Relation::Contains:
      return "contains";
    case Relation::Imports:
      return "imports";
    case Relation::Calls:
      return "calls";
    case Relation::Inherits:
      return "inherits";
    case Relation::ConfigUsage:
      return "config_usage";
    case Relation::EnvVar:
      return "env_var";
    case Relation::ConstRef:
      return "const_ref";
    case Relation::IoDep:
      return "io_dep";
    case Relation::DataDep:
      return "data_dep";
    case Relation::TestRef:
      return "test_ref";
    case Relation::Registers:
      return "registers";
  }
  return "unknown";
}

// Least significant digit first: on the kernel's four million edges std::sort's comparisons
// were a third of a one-file refresh's instructions.
void sort_edges(std::vector<Edge>& edges) {
  std::vector<Edge> scratch;
  sort_edges(edges, scratch);
}

void sort_edges(std::vector<Edge>& edges, std::vector<Edge>& scratch) {
  if (edges.size() < 1024) {  // a pass clears 64 Ki counters
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
      return std::tie(a.relation, a.from, a.to) < std::tie(b.relation, b.from, b.to);
    });
  } else {
    std::vector<Edge>& out = scratch;
    out.clear();
    // As roomy as `edges`: the two buffers trade places, and either may hold the next sort.
    if (out.capacity() < edges.size()) out.reserve(edges.capacity());
    out.resize(edges.size());
    std::vector<size_t> counts(size_t{1} << 16);
    radix_pass(edges, out, counts, [](const Edge& e) { return e.to & 0xffff; });
    radix_pass(edges, out, counts, [](const Edge& e) { return e.to >> 16; });
    radix_pass(edges, out, counts, [](const Edge& e) { return e.from & 0xffff; });
    radix_pass(edges, out, counts, [](const Edge& e) { return e.from >> 16; });
    radix_pass(edges, out, counts, [](const Edge& e) { return static_cast<uint32_t>(e.relation); });
  }
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
}

std::string Graph::id(EntityIndex e) const {
  const Entity& entity = entities[e];
  if (entity.kind == EntityKind::File) return entity.name;
  return entities[entity.file].name + ":" + entity.name;
}

}  // namespace anchorfs::analysis
