// Rendering from an already built GraphIndex (lets stats render several views from one index).
#pragma once

#include <vector>

#include "render/graph_index.h"
#include "render/tag_plan.h"
#include "render/view.h"

namespace anchorfs::render {

// `counters`, when given, receives what ranking and caps did (sums over files: deterministic).
std::vector<TagPlan> render_plans(const GraphIndex& index, const ViewChoice& choice,
                                  LinkCounters* counters = nullptr);

}  // namespace anchorfs::render
