// lay_out_plans: files_to_render's files rendered in parallel, the others' plans kept.
#include "render/plans_again.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "render/changed_files.h"
#include "render/graph_index.h"
#include "render/render_index.h"
#include "render/render_laid_out.h"

namespace anchorfs::render {

bool same_rendering(const ViewChoice& a, const ViewChoice& b) {
  return a.view == b.view && a.view != View::Auto && a.options.style == b.options.style &&
         a.options.max_links == b.options.max_links &&
         a.options.hub_threshold == b.options.hub_threshold && !a.options.tag_budget &&
         !b.options.tag_budget && a.dropped_blocks == nullptr && b.dropped_blocks == nullptr;
}

std::shared_ptr<const LaidOutPlans> lay_out_plans(const analysis::Graph& graph,
                                                  const ViewChoice& choice,
                                                  const RenderedView* previous,
                                                  size_t* rendered, GraphIndex* prepared) {
  if (previous == nullptr || previous->graph == nullptr || previous->plans == nullptr ||
      previous->choice == nullptr || !same_rendering(*previous->choice, choice) ||
      choice.view == View::None) {
    if (rendered != nullptr) *rendered = graph.files.size();
    return render_laid_out(graph, choice, prepared);
  }
  GraphIndex index(graph, GraphIndex::WithoutLinks{});
  const std::vector<size_t> files = files_to_render(*previous->graph, graph, index);
  index.add_neighbourhood(files);
  if (rendered != nullptr) *rendered = files.size();
  std::vector<TagPlan> plans(files.size());
  const BlockPolicy policy = policy_for(choice);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, files.size(), 4),
                    [&](const tbb::blocked_range<size_t>& range) {
                      BlockScratch scratch;
                      for (size_t i = range.begin(); i != range.end(); ++i) {
                        plans[i] = render_file(index, files[i], policy, scratch);
                      }
                    });
  std::vector<LaidOutPlans::Part> parts;
  parts.reserve(graph.files.size());
  // The previous plans, walked beside the graph's files (both by path) rather than searched once
  // per file: a binary search of 55 k paths for each of 55 k files was 40 M instructions a
  // kernel refresh.
  const std::vector<LaidOutPlan>& previous_plans = previous->plans->files();
  size_t next = 0;
  std::string_view last_path;
  const auto kept_plan = [&](std::string_view path) -> const LaidOutPlan* {
    if (path < last_path) return previous->plans->find(path);  // out of path order: search
    last_path = path;
    while (next < previous_plans.size() && previous_plans[next].path < path) ++next;
    if (next == previous_plans.size() || previous_plans[next].path != path ||
        previous_plans[next].insertions == 0) {
      return nullptr;  // as LaidOutPlans::find: an empty plan is served unchanged
    }
    return &previous_plans[next];
  };
  for (size_t f = 0, i = 0; f < graph.files.size(); ++f) {
    const std::string_view path = graph.entities[graph.files[f].entity].name;
    if (i < files.size() && files[i] == f) {
      if (!plans[i].insertions.empty()) parts.push_back({path, &plans[i], nullptr});
      ++i;
    } else if (const LaidOutPlan* kept = kept_plan(path)) {
      parts.push_back({path, nullptr, kept});
    }
  }
  if (!std::is_sorted(parts.begin(), parts.end(),
                      [](const auto& a, const auto& b) { return a.path < b.path; })) {
    std::sort(parts.begin(), parts.end(),
              [](const auto& a, const auto& b) { return a.path < b.path; });
  }
  return LaidOutPlans::combine(*previous->plans, parts);
}

}  // namespace anchorfs::render
