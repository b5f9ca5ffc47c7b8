// Every file's plan rendered straight into laid-out buffers, side by side: a cold view's render.
#pragma once

#include <memory>

#include "analysis/graph.h"
#include "render/laid_out_plans.h"
#include "render/view.h"

namespace anchorfs::render {

// Exactly LaidOutPlans::lay_out(plans_by_path(graph, choice)), the same bytes for every path,
// without a string per insertion or a serial copy of every text into one buffer: each thread
// renders a file into reused scratch and writes it, laid out, into its own blocks of a MiB or
// more, which the result keeps.
std::shared_ptr<const LaidOutPlans> render_laid_out(const analysis::Graph& graph,
                                                    const ViewChoice& choice);

}  // namespace anchorfs::render
