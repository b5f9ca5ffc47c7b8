// Plan maps: every recorded reference points at the printed value it names, and definition spans
// run from an anchor to the next definition not nested in it.
#include "render/plan_map.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "graph_builder.h"
#include "render/view.h"

namespace anchorfs::render::testing {
namespace {

analysis::Graph two_files() {
  GraphBuilder b;
  const EntityIndex a_file = b.file("a.py");
  const EntityIndex cls = b.cls("A", Anchor{10, ""});
  const EntityIndex run = b.function("A.run", Anchor{30, "    "}, cls);
  const EntityIndex callee = b.function("callee", Anchor{40, ""});
  const EntityIndex caller = b.function("caller", Anchor{50, ""});
  const EntityIndex b_file = b.file("b.py");
  const EntityIndex registry = b.function("registry", Anchor{10, ""});
  b.calls(run, callee).calls(caller, run).calls(registry, caller);
  b.edge(b_file, a_file, Relation::Imports);
  return b.build();
}

ViewChoice choice_of(View view) {
  ViewChoice choice;
  choice.view = view;
  choice.options.view = view;
  return choice;
}

// Every reference of every map of `graph` points at the value it names in its insertion's text.
void expect_references_where_printed(const analysis::Graph& graph) {
  for (View view : {View::Topo, View::Inv, View::Dense}) {
    const PlansByPath plans = plans_by_path(graph, choice_of(view));
    const PlanMapsByPath maps = plan_maps_by_path(graph, choice_of(view));
    ASSERT_EQ(maps.size(), 2u);
    size_t checked = 0;
    for (const auto& [path, map] : maps) {
      const TagPlan* plan = nullptr;
      for (const auto& [plan_path, candidate] : plans) {
        if (plan_path == path) plan = &candidate;
      }
      for (const TagReference& ref : map.references) {
        ASSERT_NE(plan, nullptr) << path;
        ASSERT_LT(ref.insertion, plan->insertions.size());
        const std::string& text = plan->insertions[ref.insertion].text;
        // A same-file reference prints the name without the path.
        const std::string printed =
            ref.id.rfind(path + ":", 0) == 0 ? ref.id.substr(path.size() + 1) : ref.id;
        EXPECT_EQ(text.substr(ref.offset, printed.size()), printed) << path << " " << ref.id;
        const char after = text[ref.offset + printed.size()];
        EXPECT_TRUE(after == ',' || after == '\n') << ref.id;
        ++checked;
      }
    }
    EXPECT_GT(checked, 0u);
  }
}

TEST(PlanMaps, EveryReferenceStartsWhereItsValueIsPrinted) {
  expect_references_where_printed(two_files());
}

TEST(PlanMaps, ReferencesOfBlocksMergedAtOneOffsetPointIntoTheirInsertion) {
  // The file block, A and f share offset 0, g and h offset 20: two insertions of several blocks.
  GraphBuilder b;
  const EntityIndex a_file = b.file("a.py");
  const EntityIndex cls = b.cls("A", Anchor{0, ""});
  const EntityIndex f = b.function("f", Anchor{0, ""});
  const EntityIndex g = b.function("g", Anchor{20, ""});
  const EntityIndex h = b.function("h", Anchor{20, ""});
  const EntityIndex b_file = b.file("b.py");
  const EntityIndex k = b.function("k", Anchor{0, ""});
  b.calls(f, g).calls(g, h).calls(h, cls).calls(k, f).calls(k, h);
  b.edge(b_file, a_file, Relation::Imports);
  const analysis::Graph graph = b.build();
  const PlanMapsByPath maps = plan_maps_by_path(graph, choice_of(View::Topo));
  ASSERT_EQ(maps[0].first, "a.py");
  uint32_t last_insertion = 0;
  for (const TagReference& ref : maps[0].second.references) {
    last_insertion = std::max(last_insertion, ref.insertion);
  }
  EXPECT_EQ(last_insertion, 1u);  // two insertions, each referenced
  expect_references_where_printed(graph);
}

TEST(PlanMaps, TopoReferencesOfAFileInTextOrder) {
  const PlanMapsByPath maps = plan_maps_by_path(two_files(), choice_of(View::Topo));
  std::vector<std::string> ids;
  for (const TagReference& ref : maps[0].second.references) ids.push_back(ref.id);
  // a.py: file block (IMPORTED_BY b.py), A (CHILDREN A.run), A.run (PARENT A, CALLS callee,
  // CALLED_BY caller), callee (CALLED_BY A.run), caller (CALLS A.run, CALLED_BY b.py:registry).
  EXPECT_EQ(ids,
            (std::vector<std::string>{"b.py", "a.py:A.run", "a.py:A", "a.py:callee", "a.py:caller",
                                      "a.py:A.run", "a.py:A.run", "b.py:registry"}));
}

TEST(PlanMaps, SpansEndAtTheNextDefinitionNotNestedIn) {
  const PlanMapsByPath maps = plan_maps_by_path(two_files(), choice_of(View::None));
  const PlanMap& a = maps[0].second;
  EXPECT_TRUE(a.references.empty());  // view none prints nothing
  ASSERT_EQ(a.entities.size(), 5u);
  auto span = [&](size_t i) {
    return std::make_tuple(a.entities[i].id, a.entities[i].begin, a.entities[i].end);
  };
  EXPECT_EQ(span(0), std::make_tuple(std::string("a.py"), uint64_t{0}, EntitySpan::kToEnd));
  EXPECT_EQ(span(1), std::make_tuple(std::string("a.py:A"), uint64_t{10}, uint64_t{40}));
  EXPECT_EQ(span(2), std::make_tuple(std::string("a.py:A.run"), uint64_t{30}, uint64_t{40}));
  EXPECT_EQ(span(3), std::make_tuple(std::string("a.py:callee"), uint64_t{40}, uint64_t{50}));
  EXPECT_EQ(span(4), std::make_tuple(std::string("a.py:caller"), uint64_t{50}, EntitySpan::kToEnd));
}

}  // namespace
}  // namespace anchorfs::render::testing
