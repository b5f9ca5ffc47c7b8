// Laying out a view's plans again after a change: only the files whose plans can differ rendered.
#pragma once

#include <cstddef>
#include <memory>

#include "analysis/graph.h"
#include "render/graph_index.h"
#include "render/laid_out_plans.h"
#include "render/view.h"

namespace anchorfs::render {

// A view as it was laid out: the graph, the choice and the plans rendered from them.
struct RenderedView {
  const analysis::Graph* graph = nullptr;
  const ViewChoice* choice = nullptr;
  const LaidOutPlans* plans = nullptr;
};

// Whether two choices render every file alike given the same graph (a tag budget never does:
// what it leaves out depends on every file).
bool same_rendering(const ViewChoice& a, const ViewChoice& b);

// Exactly LaidOutPlans::lay_out(plans_by_path(graph, choice)). With `previous` rendered under
// the same rendering, only files_to_render's files are rendered and every other plan is taken
// from previous->plans; `rendered`, when given, receives how many files were rendered. When every
// file is rendered, `prepared` (render_laid_out's) is completed and used instead of a new index.
std::shared_ptr<const LaidOutPlans> lay_out_plans(const analysis::Graph& graph,
                                                  const ViewChoice& choice,
                                                  const RenderedView* previous,
                                                  size_t* rendered = nullptr,
                                                  GraphIndex* prepared = nullptr);

}  // namespace anchorfs::render
