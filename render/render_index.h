// Rendering from an already built GraphIndex (lets stats render several views from one index).
#pragma once

#include <vector>

#include "render/graph_index.h"
#include "render/tag_plan.h"
#include "render/view.h"

namespace anchorfs::render {

std::vector<TagPlan> render_plans(const GraphIndex& index, const ViewChoice& choice);

}  // namespace anchorfs::render
