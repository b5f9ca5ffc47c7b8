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
  std::vector<Edge> kept;
  kept.reserve(before.edges.size());
  for (const Edge& edge : before.edges) {
    const EntityIndex from = edge.from < new_of.size() ? new_of[edge.from] : kNoEntity;
    const EntityIndex to = edge.to < new_of.size() ? new_of[edge.to] : kNoEntity;
    if (from != kNoEntity && to != kNoEntity) {
      kept.push_back({from, to, edge.relation});
    } else {
      changed(from, to, edge.relation, -1);  // an end is gone: the other end lost an edge
    }
  }
  if (!std::is_sorted(kept.begin(), kept.end(), edge_less)) {
    std::sort(kept.begin(), kept.end(), edge_less);
  }
  for (auto o = kept.cbegin(), a = after.edges.cbegin(); o != kept.cend() || a != after.edges.cend();) {
    if (a == after.edges.end() || (o != kept.end() && edge_less(*o, *a))) {
      changed(o->from, o->to, o->relation, -1);
      ++o;
    } else if (o == kept.end() || edge_less(*a, *o)) {
      changed(a->from < n ? a->from : kNoEntity, a->to < n ? a->to : kNoEntity, a->relation, 1);
      ++a;
    } else {
      ++o;
      ++a;
    }
  }
  // An entity whose degree in a relation changed is listed with another tier (or crosses the hub
  // filter) by every block that lists it in that relation: the other end of each of its edges in
  // that relation (one pass over the edges, as the index's links would list them).
  std::vector<bool> in_changed(n, false), out_changed(n, false);
  bool any = false;
  for (const auto* deltas : {&in_delta, &out_delta}) {
    for (const auto& [k, delta] : *deltas) {
      if (delta == 0) continue;
      (deltas == &in_delta ? in_changed : out_changed)[k / kRelationCount] = true;
      any = true;
    }
  }
  const auto degree_changed = [&](const std::unordered_map<uint64_t, int64_t>& deltas,
                                  EntityIndex e, Relation relation) {
    const auto it = deltas.find(key(e, relation));
    return it != deltas.end() && it->second != 0;
  };
  for (const Edge& edge : after.edges) {
    if (!any) break;
    if (edge.from >= n || edge.to >= n || static_cast<size_t>(edge.relation) >= kRelationCount) {
      continue;
    }
    if (in_changed[edge.to] && degree_changed(in_delta, edge.to, edge.relation)) mark(edge.from);
    if (out_changed[edge.from] && degree_changed(out_delta, edge.from, edge.relation)) {
      mark(edge.to);
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
