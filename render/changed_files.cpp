// files_to_render: match entities by path and name, diff edges and labels in the new numbering,
// follow changed degrees to the files that list the entity.
#include "render/changed_files.h"

#include <algorithm>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace anchorfs::render {

using analysis::Edge;
using analysis::EntityIndex;
using analysis::Graph;
using analysis::kNoEntity;
using analysis::Relation;

namespace {

// Entities [begin, end) of graph.files[f]: the File entity and the ones following it.
std::pair<size_t, size_t> entity_range(const Graph& graph, size_t f) {
  const size_t begin = graph.files[f].entity;
  const size_t end = f + 1 < graph.files.size() ? graph.files[f + 1].entity : graph.entities.size();
  return {begin, end};
}

bool same_info(const analysis::FileInfo& a, const analysis::FileInfo& b) {
  return a.language == b.language && a.newline == b.newline && a.taggable == b.taggable &&
         a.error_regions == b.error_regions && a.ascii_tags == b.ascii_tags && a.size == b.size;
}

bool same_anchor(const std::optional<analysis::Anchor>& a,
                 const std::optional<analysis::Anchor>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->offset == b->offset && a->indent == b->indent);
}

// Whether the two files' entities render alike, position by position (parents relative to the
// file).
bool same_entities(const Graph& before, std::pair<size_t, size_t> old_range, const Graph& after,
                   std::pair<size_t, size_t> new_range) {
  if (old_range.second - old_range.first != new_range.second - new_range.first) return false;
  for (size_t k = 0; k < new_range.second - new_range.first; ++k) {
    const analysis::Entity& a = before.entities[old_range.first + k];
    const analysis::Entity& b = after.entities[new_range.first + k];
    const size_t a_parent = a.parent == kNoEntity ? SIZE_MAX : a.parent - old_range.first;
    const size_t b_parent = b.parent == kNoEntity ? SIZE_MAX : b.parent - new_range.first;
    if (a.kind != b.kind || a.name != b.name || a.line != b.line || a_parent != b_parent ||
        !same_anchor(a.anchor, b.anchor)) {
      return false;
    }
  }
  return true;
}

struct KindName {
  analysis::EntityKind kind;
  std::string_view name;
  friend bool operator==(const KindName&, const KindName&) = default;
};
struct KindNameHash {
  size_t operator()(const KindName& key) const {
    return std::hash<std::string_view>()(key.name) ^ static_cast<size_t>(key.kind);
  }
};

// Maps the entities of a file whose entities changed: the k-th of a kind and name to the k-th.
void match_by_name(const Graph& before, std::pair<size_t, size_t> old_range, const Graph& after,
                   std::pair<size_t, size_t> new_range, std::vector<EntityIndex>& old_of) {
  std::unordered_map<KindName, std::vector<EntityIndex>, KindNameHash> olds;
  for (size_t e = old_range.second; e-- > old_range.first;) {  // reversed: pop_back gives the first
    olds[{before.entities[e].kind, before.entities[e].name}].push_back(static_cast<EntityIndex>(e));
  }
  for (size_t e = new_range.first; e < new_range.second; ++e) {
    auto found = olds.find({after.entities[e].kind, after.entities[e].name});
    if (found == olds.end() || found->second.empty()) continue;
    old_of[e] = found->second.back();
    found->second.pop_back();
  }
}

// The graph's edge order (analysis::sort_edges). Spelt out: through std::tie it was a call per
// comparison, and a kernel refresh makes some nine million of them.
inline bool edge_less(const Edge& a, const Edge& b) {
  if (a.relation != b.relation) return a.relation < b.relation;
  if (a.from != b.from) return a.from < b.from;
  return a.to < b.to;
}

bool label_less(const analysis::Label& a, const analysis::Label& b) {
  return std::tie(a.entity, a.relation, a.value) < std::tie(b.entity, b.relation, b.value);
}

constexpr size_t kRelationCount = static_cast<size_t>(Relation::Registers) + 1;

}  // namespace

std::vector<size_t> files_to_render(const Graph& before, const Graph& after,
                                    const GraphIndex& index) {
  const size_t n = after.entities.size();
  std::vector<bool> dirty(after.files.size(), false);
  std::vector<EntityIndex> old_of(n, kNoEntity);
  const auto path_of = [](const Graph& graph, size_t f) -> std::string_view {
    return graph.entities[graph.files[f].entity].name;
  };

  // Files by path in both graphs: matched entities, or the new file's plan made afresh.
  for (size_t b = 0, a = 0; a < after.files.size(); ++a) {
    const std::string_view path = path_of(after, a);
    while (b < before.files.size() && path_of(before, b) < path) ++b;
    if (b == before.files.size() || path_of(before, b) != path) {
      dirty[a] = true;
      continue;
    }
    const std::pair<size_t, size_t> old_range = entity_range(before, b);
    const std::pair<size_t, size_t> new_range = entity_range(after, a);
    if (before.files[b].language != after.files[a].language) {
      dirty[a] = true;  // its entities' test flags may differ: none is matched
      continue;
    }
    if (same_entities(before, old_range, after, new_range)) {
      for (size_t k = 0; k < new_range.second - new_range.first; ++k) {
        old_of[new_range.first + k] = static_cast<EntityIndex>(old_range.first + k);
      }
      dirty[a] = !same_info(before.files[b], after.files[a]);
    } else {
      match_by_name(before, old_range, after, new_range, old_of);
      dirty[a] = true;
    }
  }
  std::vector<EntityIndex> new_of(before.entities.size(), kNoEntity);
  for (size_t e = 0; e < n; ++e) {
    if (old_of[e] != kNoEntity) new_of[old_of[e]] = static_cast<EntityIndex>(e);
  }
  const auto mark = [&](EntityIndex e) {
    const EntityIndex file = index.file_of(e);
    if (file == kNoEntity) return;
    const size_t info = index.file_info(file);
    if (info != kNoFileInfo) dirty[info] = true;
  };

  // Degree changes by (entity, relation): +1 per edge gained, -1 per edge lost.
  std::unordered_map<uint64_t, int64_t> in_delta, out_delta;
  const auto key = [](EntityIndex e, Relation relation) {
    return uint64_t{e} * kRelationCount + static_cast<uint64_t>(relation);
  };
  const auto changed = [&](EntityIndex from, EntityIndex to, Relation relation, int64_t sign) {
    if (from != kNoEntity) {
      mark(from);
      out_delta[key(from, relation)] += sign;
    }
    if (to != kNoEntity) {
      mark(to);
      in_delta[key(to, relation)] += sign;
    }
  };
  // The old edges renumbered, merged as they come with the new ones (both in the graph's order
  // when the renumbering keeps it, as it does for every file matched position by position):
  // most pairs are equal and cost a comparison. Where a renumbering moved an edge out of order
  // (entities matched by name in another order) the merge sets aside both an edge and its equal;
  // sorting what it set aside and cancelling equal pairs leaves exactly the edges gained and lost.
  std::vector<Edge> lost;
  std::vector<Edge> gained;
  auto next = after.edges.cbegin();
  const auto next_end = after.edges.cend();
  const size_t old_n = new_of.size();
  for (const Edge& edge : before.edges) {
    const EntityIndex from = edge.from < old_n ? new_of[edge.from] : kNoEntity;
    const EntityIndex to = edge.to < old_n ? new_of[edge.to] : kNoEntity;
    if (from == kNoEntity || to == kNoEntity) {
      changed(from, to, edge.relation, -1);  // an end is gone: the other end lost an edge
      continue;
    }
    const Edge renumbered{from, to, edge.relation};
    if (next != next_end && *next == renumbered) {
      ++next;
      continue;
    }
    while (next != next_end && edge_less(*next, renumbered)) gained.push_back(*next++);
    if (next != next_end && *next == renumbered) {
      ++next;
    } else {
      lost.push_back(renumbered);
    }
  }
  gained.insert(gained.end(), next, next_end);
  if (!std::is_sorted(lost.begin(), lost.end(), edge_less)) {
    std::sort(lost.begin(), lost.end(), edge_less);
  }
  if (!std::is_sorted(gained.begin(), gained.end(), edge_less)) {
    std::sort(gained.begin(), gained.end(), edge_less);
  }
  for (auto o = lost.cbegin(), g = gained.cbegin(); o != lost.cend() || g != gained.cend();) {
    if (g == gained.cend() || (o != lost.cend() && edge_less(*o, *g))) {
      changed(o->from, o->to, o->relation, -1);
      ++o;
    } else if (o == lost.cend() || edge_less(*g, *o)) {
      changed(g->from < n ? g->from : kNoEntity, g->to < n ? g->to : kNoEntity, g->relation, 1);
      ++g;
    } else {
      ++o;
      ++g;
    }
  }
  // An entity whose degree in a relation changed is listed with another tier (or crosses the hub
  // filter) by every block that lists it in that relation: the other end of each of its edges in
  // that relation. Edges leaving it are one run of the sorted edges (found by binary search);
  // edges entering it are found by one pass over the runs of the relations where some entity's
  // in-degree changed.
  const auto degree_changed = [&](const std::unordered_map<uint64_t, int64_t>& deltas,
                                  EntityIndex e, Relation relation) {
    const auto it = deltas.find(key(e, relation));
    return it != deltas.end() && it->second != 0;
  };
  const auto run_of = [&](Relation relation, EntityIndex from) {
    return std::equal_range(after.edges.cbegin(), after.edges.cend(), Edge{from, 0, relation},
                            [](const Edge& x, const Edge& y) {
                              if (x.relation != y.relation) return x.relation < y.relation;
                              return x.from < y.from;
                            });
  };
  std::vector<uint8_t> in_changed;  // per entity: bit r set when its in-degree in r changed
  uint32_t in_relations = 0;         // bit r set when some entity's in-degree in r changed
  for (const auto& [k, delta] : in_delta) {
    if (delta == 0) continue;
    const size_t relation = k % kRelationCount;
    if (in_changed.empty()) in_changed.assign(n, 0);
    in_changed[k / kRelationCount] |= static_cast<uint8_t>(1u << (relation % 8));
    in_relations |= 1u << relation;
  }
  for (const auto& [k, delta] : out_delta) {
    if (delta == 0) continue;
    const auto [first, last] =
        run_of(static_cast<Relation>(k % kRelationCount), static_cast<EntityIndex>(k / kRelationCount));
    for (auto edge = first; edge != last; ++edge) {
      if (edge->to < n) mark(edge->to);
    }
  }
  for (size_t r = 0; r < kRelationCount; ++r) {
    if ((in_relations & (1u << r)) == 0) continue;
    const auto relation = static_cast<Relation>(r);
    const auto first = std::partition_point(after.edges.cbegin(), after.edges.cend(),
                                            [&](const Edge& e) { return e.relation < relation; });
    const uint8_t bit = static_cast<uint8_t>(1u << (r % 8));
    for (auto edge = first; edge != after.edges.cend() && edge->relation == relation; ++edge) {
      if (edge->to < n && edge->from < n && (in_changed[edge->to] & bit) != 0 &&
          degree_changed(in_delta, edge->to, relation)) {
        mark(edge->from);
      }
    }
  }

  // Labels (dense) show in their own entity's block only.
  std::vector<analysis::Label> old_labels;
  for (const analysis::Label& label : before.labels) {
    const EntityIndex e = label.entity < new_of.size() ? new_of[label.entity] : kNoEntity;
    if (e != kNoEntity) old_labels.push_back({e, label.relation, label.value});
  }
  std::sort(old_labels.begin(), old_labels.end(), label_less);
  for (auto o = old_labels.cbegin(), a = after.labels.cbegin();
       o != old_labels.end() || a != after.labels.end();) {
    if (a == after.labels.end() || (o != old_labels.end() && label_less(*o, *a))) {
      mark((o++)->entity);
    } else if (o == old_labels.end() || label_less(*a, *o)) {
      if (a->entity < n) mark(a->entity);
      ++a;
    } else {
      ++o;
      ++a;
    }
  }

  std::vector<size_t> files;
  for (size_t f = 0; f < dirty.size(); ++f) {
    if (dirty[f]) files.push_back(f);
  }
  return files;
}

}  // namespace anchorfs::render
