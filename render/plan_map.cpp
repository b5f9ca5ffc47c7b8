// Plan maps: the same rendering as plans_by_path, recording which entity each value names.
#include "render/plan_map.h"

#include <algorithm>

#include "render/graph_index.h"
#include "render/render_index.h"

namespace anchorfs::render {

using analysis::EntityIndex;

namespace {

bool nested_in(const analysis::Graph& graph, EntityIndex inner, EntityIndex outer) {
  for (EntityIndex e = graph.entities[inner].parent; e != analysis::kNoEntity;
       e = graph.entities[e].parent) {
    if (e == outer) return true;
  }
  return false;
}

std::vector<EntitySpan> entity_spans(const GraphIndex& index, size_t file_info) {
  const analysis::Graph& graph = index.graph();
  std::vector<EntitySpan> spans;
  std::vector<EntityIndex> anchored;
  for (EntityIndex e : index.entities_of(file_info)) {
    const analysis::Entity& entity = graph.entities[e];
    if (entity.kind == analysis::EntityKind::File) {
      spans.push_back({0, EntitySpan::kToEnd, entity.kind, index.id(e)});
    } else if (entity.anchor) {
      anchored.push_back(e);
    }
  }
  for (size_t i = 0; i < anchored.size(); ++i) {
    EntitySpan span{graph.entities[anchored[i]].anchor->offset, EntitySpan::kToEnd,
                    graph.entities[anchored[i]].kind, index.id(anchored[i])};
    for (size_t j = i + 1; j < anchored.size(); ++j) {
      if (!nested_in(graph, anchored[j], anchored[i])) {
        span.end = std::max(span.begin, graph.entities[anchored[j]].anchor->offset);
        break;
      }
    }
    spans.push_back(std::move(span));
  }
  return spans;
}

}  // namespace

PlanMapsByPath plan_maps_by_path(const analysis::Graph& graph, const ViewChoice& requested) {
  const ViewChoice choice =
      requested.view == View::Auto ? choose_view(graph, requested.options) : requested;
  GraphIndex index(graph);
  const BlockPolicy policy = policy_for(choice);
  BlockScratch scratch;
  std::vector<RecordedReference> recorded;
  PlanMapsByPath maps;
  maps.reserve(graph.files.size());
  for (size_t f = 0; f < graph.files.size(); ++f) {
    PlanMap map;
    map.entities = entity_spans(index, f);
    if (choice.view != View::None) {
      recorded.clear();
      scratch.references = &recorded;
      render_file(index, f, policy, scratch);
      scratch.references = nullptr;
      map.references.reserve(recorded.size());
      for (const RecordedReference& ref : recorded) {
        map.references.push_back(
            {ref.insertion, static_cast<uint32_t>(ref.offset), index.id(ref.entity)});
      }
    }
    maps.emplace_back(graph.entities[graph.files[f].entity].name, std::move(map));
  }
  std::sort(maps.begin(), maps.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return maps;
}

}  // namespace anchorfs::render
