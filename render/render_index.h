// Rendering from an already built GraphIndex (lets stats render several views from one index).
#pragma once

#include <vector>

#include "render/block.h"
#include "render/graph_index.h"
#include "render/tag_plan.h"
#include "render/view.h"

namespace anchorfs::render {

std::vector<TagPlan> render_plans(const GraphIndex& index, const ViewChoice& choice);

// The block policy of a resolved (non-auto) view.
BlockPolicy policy_for(const ViewChoice& choice);

// The plan of graph.files[file_info]; with scratch.references set, also records every entity
// value written (offsets within the insertion's text being built).
TagPlan render_file(const GraphIndex& index, size_t file_info, const BlockPolicy& policy,
                    BlockScratch& scratch);

}  // namespace anchorfs::render
