// Times GraphIndex + render_plans on a synthetic repository: render_bench [FILES] [PER_FILE].
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>

#include "render/stats.h"
#include "render/view.h"

using namespace anchorfs;

int main(int argc, char** argv) {
  size_t files = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 600;
  size_t per_file = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 25;
  analysis::Graph graph;
  std::vector<analysis::EntityIndex> functions;
  for (size_t f = 0; f < files; ++f) {
    auto file = static_cast<analysis::EntityIndex>(graph.entities.size());
    char path[64];
    std::snprintf(path, sizeof path, "pkg/sub%03zu/module_%05zu.py", f % 37, f);
    graph.entities.push_back(
        {analysis::EntityKind::File, file, analysis::kNoEntity, path, 1, analysis::Anchor{0, ""}});
    graph.files.push_back({file, "python", "\n", true});
    auto cls = static_cast<analysis::EntityIndex>(graph.entities.size());
    graph.entities.push_back(
        {analysis::EntityKind::Class, file, file, "Handler", 2, analysis::Anchor{10, ""}});
    for (size_t i = 0; i < per_file; ++i) {
      auto e = static_cast<analysis::EntityIndex>(graph.entities.size());
      graph.entities.push_back({analysis::EntityKind::Function, file, cls,
                                "Handler.method_" + std::to_string(i), 3,
                                analysis::Anchor{20 + 40 * i, "    "}});
      functions.push_back(e);
      graph.edges.push_back({cls, e, analysis::Relation::Contains});
    }
  }
  // Each function calls 4 others: a few shared helpers make hubs.
  uint64_t state = 42;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  for (auto e : functions) {
    for (int c = 0; c < 4; ++c) {
      size_t pick = c == 0 ? (next() >> 33) % 50 : (next() >> 33) % functions.size();
      if (functions[pick] != e)
        graph.edges.push_back({e, functions[pick], analysis::Relation::Calls});
    }
  }
  std::sort(graph.edges.begin(), graph.edges.end(), [](const auto& a, const auto& b) {
    return std::tie(a.relation, a.from, a.to) < std::tie(b.relation, b.from, b.to);
  });
  graph.edges.erase(std::unique(graph.edges.begin(), graph.edges.end()), graph.edges.end());

  for (render::View view : {render::View::Topo, render::View::Inv, render::View::Auto}) {
    render::ViewOptions options;
    options.view = view;
    auto start = std::chrono::steady_clock::now();
    render::ViewChoice choice = render::choose_view(graph, options);
    std::vector<render::TagPlan> plans = render::render_plans(graph, choice);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    uint64_t bytes = 0;
    for (const auto& plan : plans) bytes += plan.added_bytes();
    std::printf("%-5s entities %zu edges %zu: %.1f ms, %llu tag bytes (%s)\n",
                std::string(render::view_name(view)).c_str(), graph.entities.size(),
                graph.edges.size(), ms, static_cast<unsigned long long>(bytes),
                choice.reason.c_str());
  }
  return 0;
}
