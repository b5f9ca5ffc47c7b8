// render_laid_out against lay_out(plans_by_path(...)), byte for byte, on seeded graphs.
#include "render/render_laid_out.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph_builder.h"

namespace anchorfs::render::testing {
namespace {

ViewChoice choice_of(View view, Style style) {
  ViewChoice choice;
  choice.view = view;
  choice.options.view = view;
  choice.options.style = style;
  return choice;
}

// `files` files in path order (or reversed), some in Go (blocks separated by an empty line),
// some untaggable, definitions sharing offsets with the file block and with each other, and
// calls, imports and inheritance between them; `name_bytes` pads every name.
analysis::Graph seeded_graph(uint32_t seed, int files, size_t name_bytes, bool reversed = false) {
  std::mt19937 random(seed);
  const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
  GraphBuilder b;
  std::vector<EntityIndex> definitions;
  std::vector<EntityIndex> file_entities;
  const std::string pad(name_bytes, 'x');
  for (int i = 0; i < files; ++i) {
    const int f = reversed ? files - 1 - i : i;
    const bool go = f % 3 == 1;
    const EntityIndex file =
        b.file(fmt::format("pkg{}/m{:04}.{}", f % 7, f, go ? "go" : "py"), Anchor{0, ""}, "\n",
               /*taggable=*/f % 11 != 5);
    file_entities.push_back(file);
    EntityIndex cls = analysis::kNoEntity;
    for (int d = 0, n = pick(6); d < n; ++d) {
      // Offsets 0 (the file block's), 40 and 80 taken by several definitions at once.
      const Anchor anchor{static_cast<uint64_t>(40 * pick(3)), d % 2 == 0 ? "" : "    "};
      const std::string name = fmt::format("n{}_{}{}", f, d, pad);
      if (d == 0) {
        cls = b.cls(name, anchor);
        definitions.push_back(cls);
      } else {
        definitions.push_back(b.function(name, anchor, pick(2) == 0 ? cls : analysis::kNoEntity));
      }
    }
  }
  const auto built = [&] {
    analysis::Graph graph = b.build();
    for (analysis::FileInfo& info : graph.files) {
      if (graph.entities[info.entity].name.ends_with(".go")) info.language = "go";
    }
    return graph;
  };
  if (definitions.empty()) return built();
  const auto any = [&] { return definitions[static_cast<size_t>(pick(static_cast<int>(definitions.size())))]; };
  for (size_t e = 0; e < 4 * definitions.size(); ++e) b.calls(any(), any());
  for (size_t e = 0; e < definitions.size() / 4; ++e) {
    b.edge(any(), any(), Relation::Inherits);
    b.edge(file_entities[static_cast<size_t>(pick(files))],
           file_entities[static_cast<size_t>(pick(files))], Relation::Imports);
  }
  return built();
}

std::string expected_bytes(const analysis::Graph& graph, const ViewChoice& choice) {
  return LaidOutPlans::lay_out(plans_by_path(graph, choice))->bytes();
}

TEST(RenderLaidOut, EveryViewAndStyleLaysOutWhatPlansByPathDoes) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    const analysis::Graph graph = seeded_graph(seed, 200, 0);
    for (const View view : {View::Topo, View::Inv, View::Dense, View::None, View::Auto}) {
      for (const Style style : {Style::Paper, Style::Lean}) {
        const ViewChoice choice = choice_of(view, style);
        const std::string expected = expected_bytes(graph, choice);
        for (const int threads : {1, 2}) {
          tbb::task_arena arena(threads);
          const auto laid_out = arena.execute([&] { return render_laid_out(graph, choice); });
          EXPECT_EQ(laid_out->bytes(), expected)
              << "seed " << seed << " view " << view_name(view) << " style " << style_name(style)
              << " threads " << threads;
        }
      }
    }
  }
}

// A cold view's index, built from the entities while the edges are resolved (and the graph moved
// after), completed by render_laid_out: the same bytes as an index built after.
TEST(RenderLaidOut, AnIndexPreparedBeforeTheEdgesIsCompletedAndGivesTheSameBytes) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    analysis::Graph graph = seeded_graph(seed, 200, 0);
    // Labels (the dense view's) come after the resolution too.
    for (size_t e = 0; e < graph.entities.size(); e += 5) {
      graph.labels.push_back(
          {static_cast<EntityIndex>(e), Relation::EnvVar, "HOME" + std::to_string(e % 3)});
    }
    for (const View view : {View::Topo, View::Dense, View::Auto}) {
      const ViewChoice choice = choice_of(view, Style::Paper);
      const std::string expected = expected_bytes(graph, choice);
      analysis::Graph early = graph;
      early.edges.clear();
      early.labels.clear();
      GraphIndex prepared(early, GraphIndex::WithoutEdges{});
      // Moved, as the analysis result is on its way to the render.
      analysis::Graph final_graph = std::move(early);
      final_graph.edges = graph.edges;
      final_graph.labels = graph.labels;
      tbb::task_arena arena(2);
      const auto laid_out =
          arena.execute([&] { return render_laid_out(final_graph, choice, &prepared); });
      EXPECT_EQ(laid_out->bytes(), expected) << "seed " << seed << " view " << view_name(view);
      // It was completed and used, not replaced by a new index.
      size_t links = 0;
      for (size_t e = 0; e < prepared.size(); ++e) {
        links += prepared.out(static_cast<EntityIndex>(e), Relation::Calls).size();
      }
      EXPECT_GT(links, 0u);
      EXPECT_EQ(&prepared.graph(), &final_graph);
    }
  }
}

TEST(RenderLaidOut, AnIndexPreparedFromOtherEntitiesIsNotUsed) {
  const analysis::Graph graph = seeded_graph(5, 80, 0);
  const analysis::Graph other = seeded_graph(6, 40, 0);
  const ViewChoice choice = choice_of(View::Topo, Style::Paper);
  GraphIndex prepared(other, GraphIndex::WithoutEdges{});
  EXPECT_EQ(render_laid_out(graph, choice, &prepared)->bytes(), expected_bytes(graph, choice));
  EXPECT_EQ(&prepared.graph(), &other);
}

TEST(RenderLaidOut, PlansLargerThanABlockAndFilesOverManyBlocks) {
  // Names of 2 KiB: each file's tags run to tens of KiB, a few of them past a 1 MiB block.
  const analysis::Graph graph = seeded_graph(7, 120, 2048);
  const ViewChoice choice = choice_of(View::Topo, Style::Paper);
  const std::string expected = expected_bytes(graph, choice);
  ASSERT_GT(expected.size(), size_t{3} << 20);
  tbb::task_arena arena(2);
  const auto laid_out = arena.execute([&] { return render_laid_out(graph, choice); });
  EXPECT_EQ(laid_out->bytes(), expected);
  EXPECT_EQ(laid_out->section_bytes(), expected.size());
  for (const LaidOutPlan& plan : laid_out->files()) {
    const LaidOutPlan* found = laid_out->find(plan.path);
    ASSERT_NE(found, nullptr) << plan.path;
    EXPECT_EQ(found->data, plan.data);
  }
}

TEST(RenderLaidOut, FilesOutOfPathOrderAreLaidOutByPath) {
  const analysis::Graph graph = seeded_graph(11, 60, 0, /*reversed=*/true);
  const ViewChoice choice = choice_of(View::Topo, Style::Lean);
  EXPECT_EQ(render_laid_out(graph, choice)->bytes(), expected_bytes(graph, choice));
}

TEST(RenderLaidOut, TwoFilesAtOnePathAreRefusedWithThePath) {
  GraphBuilder b;
  const EntityIndex first = b.file("a.py");
  const EntityIndex f = b.function("f", Anchor{0, ""});
  const EntityIndex second = b.file("a.py");
  const EntityIndex g = b.function("g", Anchor{0, ""});
  b.calls(f, g).calls(g, f).edge(first, second, Relation::Imports);
  try {
    render_laid_out(b.build(), choice_of(View::Topo, Style::Paper));
    FAIL() << "two plans for one path were laid out";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a.py"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace anchorfs::render::testing
