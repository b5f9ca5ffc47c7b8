// Which files' tag plans can differ between two graphs rendered under one view choice.
#pragma once

#include <cstddef>
#include <vector>

#include "analysis/graph.h"
#include "render/graph_index.h"

namespace anchorfs::render {

// The graph.files indices of `after` (with `index` built over it, links not needed: see
// GraphIndex::WithoutLinks) whose plans may differ from the
// plans `before` renders, both under one view choice without a tag budget; every other file of
// `after` renders byte for byte as the file of its path in `before`. In order.
//
// A plan reads its own file (FileInfo, entities, anchors) and, for each value a block lists, that
// entity's id, path and test flag and its degree in the field's relation (tier, hub, hub filter).
// So a file is listed when its FileInfo or entities differ, when an edge or label at one of its
// entities was added or removed, and when an entity one of its blocks lists gained or lost edges
// in that relation. Entities are matched by path, kind and name (the k-th of a name to the k-th):
// ids and their order come from exactly that.
std::vector<size_t> files_to_render(const analysis::Graph& before, const analysis::Graph& after,
                                    const GraphIndex& index);

}  // namespace anchorfs::render
