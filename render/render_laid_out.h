// Every file's plan rendered straight into laid-out buffers, side by side: a cold view's render.
#pragma once

#include <memory>

#include "analysis/graph.h"
#include "render/graph_index.h"
#include "render/laid_out_plans.h"
#include "render/view.h"

namespace anchorfs::render {

// Exactly LaidOutPlans::lay_out(plans_by_path(graph, choice)), the same bytes for every path,
// without a string per insertion or a serial copy of every text into one buffer: each thread
// renders a file into reused scratch and writes it, laid out, into its own blocks of a MiB or
// more, which the result keeps. `prepared`, when given, is an index built WithoutEdges from
// this graph's entities (say beside the resolution): completed here instead of a new one.
std::shared_ptr<const LaidOutPlans> render_laid_out(const analysis::Graph& graph,
                                                    const ViewChoice& choice,
                                                    GraphIndex* prepared = nullptr);

}  // namespace anchorfs::render
