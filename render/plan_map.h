// What a file's served bytes name and cover, by offset: the tag references and entity spans a
// trace needs to say which links a reader saw and which definitions a read covered.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/graph.h"
#include "render/view.h"

namespace anchorfs::render {

// An entity named as a value of a tag field: its id starts `offset` bytes into the text of the
// plan's insertion number `insertion`. Ids are full (`path:Qualified.name`), whatever the block
// printed (a same-file reference prints the short name).
struct TagReference {
  uint32_t insertion = 0;
  uint32_t offset = 0;
  std::string id;
};

// A definition's extent in the original bytes: from its anchor (above decorators) to the anchor
// of the next definition that is not nested in it, or to the end of the file (kToEnd). Files
// span the whole file. Entities without an anchor are left out.
struct EntitySpan {
  static constexpr uint64_t kToEnd = UINT64_MAX;
  uint64_t begin = 0;
  uint64_t end = kToEnd;
  analysis::EntityKind kind = analysis::EntityKind::File;
  std::string id;
};

struct PlanMap {
  std::vector<TagReference> references;  // in text order
  std::vector<EntitySpan> entities;      // file first, then source order
};

using PlanMapsByPath = std::vector<std::pair<std::string, PlanMap>>;

// One map per analysed file, sorted by path; references match plans_by_path(graph, choice)
// exactly (same rendering). Under View::None there are no references, only entity spans.
PlanMapsByPath plan_maps_by_path(const analysis::Graph& graph, const ViewChoice& choice);

}  // namespace anchorfs::render
