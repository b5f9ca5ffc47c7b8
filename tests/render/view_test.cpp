// Views (none, topo, inv, dense, auto), link caps, hub filtering and determinism.
#include "render/view.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "graph_builder.h"
#include "render/stats.h"
#include "render_helpers.h"

namespace anchorfs::render::testing {
namespace {

bool has_field(const std::string& block, std::string_view field) {
  return block.find("# " + std::string(field) + ": ") != std::string::npos;
}

// Two files; `a.py:A.run` carries every topology and dense relation.
struct Rich {
  analysis::Graph graph;
  EntityIndex a_file, base, derived, run, callee, caller, b_file, settings_user, test;
};

Rich rich() {
  GraphBuilder b;
  Rich r;
  r.a_file = b.file("a.py");
  r.base = b.cls("Base", Anchor{10, ""});
  r.derived = b.cls("A", Anchor{20, ""});
  r.run = b.function("A.run", Anchor{30, "    "}, r.derived);
  r.callee = b.function("callee", Anchor{40, ""});
  r.caller = b.function("caller", Anchor{50, ""});
  r.b_file = b.file("b.py");
  r.settings_user = b.function("registry", Anchor{10, ""});
  r.test = b.function("test_run", Anchor{20, ""});
  b.edge(r.derived, r.base, Relation::Inherits);
  b.calls(r.run, r.callee).calls(r.caller, r.run);
  b.edge(r.b_file, r.a_file, Relation::Imports);
  b.edge(r.run, r.settings_user, Relation::DataDep);
  b.edge(r.test, r.run, Relation::TestRef);
  b.edge(r.settings_user, r.run, Relation::Registers);
  b.label(r.run, Relation::ConfigUsage, "settings.DEBUG");
  b.label(r.run, Relation::EnvVar, "HOME");
  b.label(r.run, Relation::ConstRef, "b.py:LIMIT");
  b.label(r.run, Relation::IoDep, "subprocess");
  b.label(r.callee, Relation::Registers, "app.route");
  r.graph = b.build();
  return r;
}

TEST(Views, NoneGivesEmptyPlansForEveryFile) {
  Rich r = rich();
  auto plans = render(r.graph, View::None);
  ASSERT_EQ(plans.size(), 2u);
  for (const TagPlan& plan : plans) EXPECT_TRUE(plan.insertions.empty());
}

TEST(Views, TopoShowsBothDirectionsAndNoDenseFields) {
  Rich r = rich();
  auto plans = render(r.graph, View::Topo);
  std::string run = block_at(plans, 0, 30);
  EXPECT_EQ(run,
            "    # === Function Annotation ===\n"
            "    # function: a.py:A.run\n"
            "    # PARENT: A\n"
            "    # CALLS: callee\n"
            "    # CALLED_BY: caller\n"
            "    # === Function Annotation ===\n");
  EXPECT_TRUE(has_field(block_at(plans, 0, 20), "BASE"));
  EXPECT_TRUE(has_field(block_at(plans, 0, 10), "DERIVED"));
  EXPECT_TRUE(has_field(block_at(plans, 1, 0), "IMPORTS"));
  EXPECT_TRUE(has_field(block_at(plans, 0, 0), "IMPORTED_BY"));
}

TEST(Views, InvDropsForwardCallsAndImportsOnly) {
  Rich r = rich();
  auto plans = render(r.graph, View::Inv);
  std::string run = block_at(plans, 0, 30);
  EXPECT_FALSE(has_field(run, "CALLS"));
  EXPECT_TRUE(has_field(run, "CALLED_BY"));
  EXPECT_TRUE(has_field(run, "PARENT"));
  EXPECT_TRUE(has_field(block_at(plans, 0, 20), "BASE"));
  EXPECT_TRUE(has_field(block_at(plans, 0, 20), "CHILDREN"));
  EXPECT_TRUE(has_field(block_at(plans, 0, 10), "DERIVED"));
  EXPECT_TRUE(has_field(block_at(plans, 0, 0), "IMPORTED_BY"));
  // b.py only imports and caller only calls: under inv they have nothing left to say.
  EXPECT_EQ(block_at(plans, 1, 0), "");
  EXPECT_EQ(block_at(plans, 0, 50), "");
}

TEST(Views, DenseAddsEveryDenseFieldInContractOrder) {
  Rich r = rich();
  auto plans = render(r.graph, View::Dense);
  EXPECT_EQ(block_at(plans, 0, 30),
            "    # === Function Annotation ===\n"
            "    # function: a.py:A.run\n"
            "    # PARENT: A\n"
            "    # CALLS: callee\n"
            "    # CALLED_BY: caller\n"
            "    # CONFIG_USAGE: settings.DEBUG\n"
            "    # ENV_VAR: HOME\n"
            "    # CONST_REF: b.py:LIMIT\n"
            "    # IO_DEP: subprocess\n"
            "    # DATA_DEP: b.py:registry\n"
            "    # TEST_REF: b.py:test_run\n"
            "    # REGISTERED_BY: b.py:registry\n"
            "    # === Function Annotation ===\n");
  std::string registry = block_at(plans, 1, 10);
  EXPECT_NE(registry.find("# DATA_DEP: a.py:A.run\n"), std::string::npos) << registry;
  EXPECT_NE(registry.find("# REGISTERS: a.py:A.run\n"), std::string::npos) << registry;
  EXPECT_NE(block_at(plans, 1, 20).find("# TEST_REF: a.py:A.run\n"), std::string::npos);
  EXPECT_NE(block_at(plans, 0, 40).find("# REGISTERED_BY: app.route\n"), std::string::npos);
  // Topo leaves registry and test_run without anything to say.
  auto topo = render(r.graph, View::Topo);
  EXPECT_EQ(block_at(topo, 1, 10), "");
  EXPECT_EQ(block_at(topo, 1, 20), "");
}

// One callee with `callers` callers spread over two files.
analysis::Graph fan_in(size_t callers) {
  GraphBuilder b;
  b.file("hub.py");
  EntityIndex hub = b.function("hub", Anchor{1, ""});
  EntityIndex near = b.function("near", Anchor{2, ""});
  b.calls(near, hub);
  b.file("users.py");
  for (size_t i = 0; i < callers; ++i) {
    EntityIndex user = b.function("user" + std::to_string(i), Anchor{10 + i, ""});
    b.calls(user, hub);
    b.calls(user, near);
  }
  return b.build();
}

TEST(Caps, FieldShowsNValuesThenCountOfTheRest) {
  auto plans = render(fan_in(5), View::Topo, /*max_links=*/3);
  EXPECT_NE(block_at(plans, 0, 1)
                .find("# CALLED_BY: near, users.py:user0, users.py:user1, "
                      "\xE2\x80\xA6 (+3 more)\n"),
            std::string::npos)
      << block_at(plans, 0, 1);
  auto exact = render(fan_in(2), View::Topo, /*max_links=*/3);
  EXPECT_NE(block_at(exact, 0, 1).find("# CALLED_BY: near, users.py:user0, users.py:user1\n"),
            std::string::npos);
  auto uncapped = render(fan_in(5), View::Topo, /*max_links=*/0);
  EXPECT_NE(block_at(uncapped, 0, 1).find("users.py:user4\n"), std::string::npos);
}

TEST(HubFilter, CallsToHubsAreDroppedButTheHubKeepsItsCallers) {
  // hub has 6 callers (near + 5 users); near has 5.
  auto plans = render(fan_in(5), View::Topo, /*max_links=*/2, /*hub_threshold=*/5);
  std::string user = block_at(plans, 1, 10);
  EXPECT_NE(user.find("# CALLS: hub.py:near\n"), std::string::npos) << user;
  EXPECT_EQ(user.find("hub.py:hub"), std::string::npos) << user;
  EXPECT_NE(block_at(plans, 0, 1).find("# CALLED_BY: near, users.py:user0, \xE2\x80\xA6 (+4 more)"),
            std::string::npos);
  // A function whose only calls go to hubs gets no block.
  auto strict = render(fan_in(5), View::Topo, 12, /*hub_threshold=*/4);
  EXPECT_EQ(block_at(strict, 1, 10), "");
}

// `callers` functions each calling `fan_out` distinct targets.
analysis::Graph fan_out(size_t callers, size_t fan) {
  GraphBuilder b;
  b.file("f.py");
  std::vector<EntityIndex> targets;
  for (size_t i = 0; i < fan; ++i) {
    targets.push_back(b.function("t" + std::to_string(i), Anchor{i, ""}));
  }
  for (size_t c = 0; c < callers; ++c) {
    EntityIndex caller = b.function("c" + std::to_string(c), Anchor{100 + c, ""});
    for (EntityIndex t : targets) b.calls(caller, t);
  }
  return b.build();
}

TEST(Auto, LowDegreeChoosesTopo) {
  ViewChoice choice = choose_view(fan_out(4, 3), ViewOptions{});
  EXPECT_EQ(choice.view, View::Topo);
  EXPECT_FALSE(choice.options.hub_threshold);
  EXPECT_EQ(choice.reason, "auto: mean call out-degree 3.00 < 5 -> topo");
}

TEST(Auto, HighDegreeChoosesInv) {
  ViewChoice choice = choose_view(fan_out(4, 9), ViewOptions{});
  EXPECT_EQ(choice.view, View::Inv);
  EXPECT_EQ(choice.reason, "auto: mean call out-degree 9.00 > 8 -> inv");
  auto plans = render_plans(fan_out(4, 9), choice);
  EXPECT_EQ(plans[0].insertions.back().text.find("# CALLS:"), std::string::npos);
}

TEST(Auto, MiddleDegreeChoosesTopoWithoutCallsToHubs) {
  ViewChoice choice = choose_view(fan_out(12, 6), ViewOptions{});
  EXPECT_EQ(choice.view, View::Topo);
  ASSERT_TRUE(choice.options.hub_threshold);
  EXPECT_EQ(*choice.options.hub_threshold, kHubDegree);
  EXPECT_NE(choice.reason.find("6.00 in [5, 8] -> topo"), std::string::npos) << choice.reason;
  // Every target has 12 > 10 callers: callers keep no CALLS, targets keep CALLED_BY.
  auto plans = render_plans(fan_out(12, 6), choice);
  for (const Insertion& insertion : plans[0].insertions) {
    EXPECT_EQ(insertion.text.find("# CALLS:"), std::string::npos);
  }
  EXPECT_EQ(plans[0].insertions.size(), 6u);
  // A user's own threshold wins.
  ViewOptions mine;
  mine.hub_threshold = 20;
  EXPECT_EQ(*choose_view(fan_out(12, 6), mine).options.hub_threshold, 20u);
}

TEST(Auto, NoCallsChoosesTopoAndExplicitViewsAreKept) {
  GraphBuilder b;
  b.file("x.py");
  EXPECT_EQ(choose_view(b.build(), ViewOptions{}).reason, "auto: no resolved calls -> topo");
  ViewOptions inv;
  inv.view = View::Inv;
  ViewChoice choice = choose_view(fan_out(1, 1), inv);
  EXPECT_EQ(choice.view, View::Inv);
  EXPECT_EQ(choice.reason, "view inv (requested)");
}

TEST(Views, NamesRoundTrip) {
  for (View view : {View::None, View::Topo, View::Inv, View::Dense, View::Auto}) {
    EXPECT_EQ(parse_view(view_name(view)), view);
  }
  EXPECT_FALSE(parse_view("Topo"));
  EXPECT_FALSE(parse_view(""));
}

TEST(Views, OutputDoesNotDependOnThreadCount) {
  GraphBuilder b;
  std::vector<EntityIndex> all;
  for (int f = 0; f < 60; ++f) {
    b.file("m" + std::to_string(100 + f) + ".py");
    for (int i = 0; i < 20; ++i) {
      all.push_back(b.function("f" + std::to_string(i), Anchor{static_cast<uint64_t>(i), ""}));
    }
  }
  for (size_t i = 0; i < all.size(); ++i) {
    b.calls(all[i], all[(i * 7919) % all.size()]).calls(all[(i * 31) % all.size()], all[i]);
  }
  analysis::Graph graph = b.build();
  std::vector<TagPlan> serial;
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    serial = render(graph, View::Topo, 3);
  }
  std::vector<TagPlan> parallel = render(graph, View::Topo, 3);
  ASSERT_EQ(serial.size(), parallel.size());
  for (size_t f = 0; f < serial.size(); ++f) {
    ASSERT_EQ(serial[f].insertions.size(), parallel[f].insertions.size());
    for (size_t i = 0; i < serial[f].insertions.size(); ++i) {
      EXPECT_EQ(serial[f].insertions[i].offset, parallel[f].insertions[i].offset);
      EXPECT_EQ(serial[f].insertions[i].text, parallel[f].insertions[i].text);
    }
  }
}

TEST(Views, InsertionsAreSortedByOffset) {
  GraphBuilder b;
  b.file("s.py", Anchor{0, ""});
  EntityIndex late = b.function("late", Anchor{50, ""});
  EntityIndex early = b.function("early", Anchor{5, ""});
  b.calls(late, early).calls(early, late);
  auto plans = render(b.build(), View::Topo);
  ASSERT_EQ(plans[0].insertions.size(), 2u);
  EXPECT_EQ(plans[0].insertions[0].offset, 5u);
  EXPECT_EQ(plans[0].insertions[1].offset, 50u);
}

}  // namespace
}  // namespace anchorfs::render::testing

namespace anchorfs::render::testing {
namespace {

TEST(Views, DenseLabelsAreEscapedAndSortedAfterEntities) {
  GraphBuilder b;
  b.file("e.py");
  EntityIndex f = b.function("f", Anchor{0, ""});
  EntityIndex g = b.function("g", Anchor{9, ""});
  b.edge(f, g, Relation::ConfigUsage);
  b.label(f, Relation::ConfigUsage, "Z_KEY");
  b.label(f, Relation::ConfigUsage, "A\nKEY\r");
  auto plans = render(b.build(), View::Dense);
  EXPECT_NE(block_at(plans, 0, 0).find("# CONFIG_USAGE: g, A\\x0aKEY\\x0d, Z_KEY\n"),
            std::string::npos)
      << block_at(plans, 0, 0);
}

}  // namespace
}  // namespace anchorfs::render::testing

namespace anchorfs::render::testing {
namespace {

TEST(Views, MalformedGraphsDegradeGracefully) {
  GraphBuilder b;
  b.file("ok.py");
  EntityIndex f = b.function("f", Anchor{0, ""});
  EntityIndex g = b.function("g", Anchor{5, ""});
  b.calls(f, g);
  analysis::Graph graph = b.build();
  graph.edges.push_back({f, 999, Relation::Calls});
  graph.edges.push_back({999, g, Relation::Calls});
  graph.edges.push_back({f, g, static_cast<Relation>(200)});
  graph.labels.push_back({999, Relation::EnvVar, "X"});
  graph.entities[g].parent = 12345;
  graph.files.push_back({f, "python", "\n", true});    // not a File entity
  graph.files.push_back({777, "python", "\n", true});  // no such entity
  graph.files.push_back({0, "cobol", "\n", true});     // unknown comment syntax
  for (View view : {View::None, View::Topo, View::Inv, View::Dense, View::Auto}) {
    auto plans = render(graph, view);
    ASSERT_EQ(plans.size(), 4u);
    for (size_t i = 1; i < 4; ++i) EXPECT_TRUE(plans[i].insertions.empty());
  }
  auto plans = render(graph, View::Topo);
  EXPECT_NE(block_at(plans, 0, 5).find("# CALLED_BY: f\n"), std::string::npos);
  RepoStats stats = compute_stats(graph, {}, 100, ViewOptions{});
  EXPECT_EQ(stats.edges[static_cast<size_t>(Relation::Calls)], 1u);
  EXPECT_FALSE(format_json(stats).empty());
}

}  // namespace
}  // namespace anchorfs::render::testing

namespace anchorfs::render::testing {
namespace {

std::vector<TagPlan> render_with(const analysis::Graph& graph, ViewOptions options) {
  return render_plans(graph, choose_view(graph, options));
}

// f calls a hub (11 other callers, sorts first by id) and 8 functions no one else calls.
analysis::Graph calls_into_one_hub() {
  GraphBuilder b;
  b.file("app.py");
  EntityIndex hub = b.function("a_hub", Anchor{1, ""});
  EntityIndex f = b.function("f", Anchor{2, ""});
  for (int i = 0; i < 8; ++i) b.calls(f, b.function("leaf" + std::to_string(i), Anchor{}));
  b.calls(f, hub);
  b.file("users.py");
  for (int i = 0; i < 11; ++i) b.calls(b.function("u" + std::to_string(i), Anchor{}), hub);
  return b.build();
}

TEST(Ranking, AHubLinkIsTheOneCut) {
  ViewOptions options;
  options.view = View::Topo;
  auto plans = render_with(calls_into_one_hub(), options);
  std::string f = block_at(plans, 0, 2);
  EXPECT_NE(f.find("# CALLS: leaf0, leaf1, leaf2, leaf3, leaf4, leaf5, leaf6, leaf7, "
                   "\xE2\x80\xA6 (+1 more)\n"),
            std::string::npos)
      << f;
  EXPECT_EQ(f.find("a_hub"), std::string::npos) << f;
}

TEST(Ranking, ProductBeforeTestsAndNearBeforeFar) {
  GraphBuilder b;
  b.file("pkg/core/api.py");
  EntityIndex target = b.function("target", Anchor{1, ""});
  b.file("pkg/core/near.py");
  EntityIndex near = b.function("near", Anchor{});
  b.file("pkg/other/far.py");
  EntityIndex far = b.function("far", Anchor{});
  b.file("aaa/tests/test_api.py");  // sorts first by id, but is a test
  EntityIndex test = b.function("test_target", Anchor{});
  b.calls(test, target).calls(far, target).calls(near, target);
  ViewOptions options;
  options.view = View::Topo;
  auto plans = render_with(b.build(), options);
  EXPECT_NE(block_at(plans, 0, 1).find("# CALLED_BY: pkg/core/near.py:near, pkg/other/far.py:far, "
                                       "aaa/tests/test_api.py:test_target\n"),
            std::string::npos)
      << block_at(plans, 0, 1);
}

TEST(Ranking, DeterministicWhateverTheThreadCount) {
  analysis::Graph graph = fan_in(40);
  ViewOptions options;
  options.view = View::Topo;
  options.max_links = 3;
  std::vector<TagPlan> many = render_with(graph, options);
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  std::vector<TagPlan> single = render_with(graph, options);
  ASSERT_EQ(many.size(), single.size());
  for (size_t i = 0; i < many.size(); ++i) {
    ASSERT_EQ(many[i].insertions.size(), single[i].insertions.size());
    for (size_t j = 0; j < many[i].insertions.size(); ++j) {
      EXPECT_EQ(many[i].insertions[j].text, single[i].insertions[j].text);
    }
  }
}

TEST(Lean, OneHeaderLineAndNothingTheCodeShows) {
  Rich r = rich();
  ViewOptions options;
  options.view = View::Topo;
  options.style = Style::Lean;
  auto plans = render_with(r.graph, options);
  // No delimiters, no PARENT (A.run is indented under A), the simple name in the header.
  EXPECT_EQ(block_at(plans, 0, 30),
            "    # @function run\n"
            "    # CALLS: callee\n"
            "    # CALLED_BY: caller\n");
  // Class A: CHILDREN (its own methods follow it) goes; BASE stays, with every word of the
  // base's id.
  EXPECT_EQ(block_at(plans, 0, 20), "# @class A\n# BASE: Base\n");
  EXPECT_EQ(block_at(plans, 0, 10), "# @class Base\n# DERIVED: A\n");
  // b.py only imports (its import lines say so): no block.
  EXPECT_EQ(block_at(plans, 1, 0), "");
  EXPECT_EQ(block_at(plans, 0, 0), "# @file a.py\n# IMPORTED_BY: b.py\n");
  for (size_t f = 0; f < plans.size(); ++f) {
    for (const Insertion& insertion : plans[f].insertions) {
      std::string text = insertion.text + "x = 1\n";
      EXPECT_EQ(strip(text), "x = 1\n") << insertion.text;
    }
  }
}

TEST(Lean, ValuesOfOneOtherFileAreWrittenOnce) {
  GraphBuilder b;
  b.file("a.py");
  EntityIndex f = b.function("f", Anchor{1, ""});
  EntityIndex local = b.function("local", Anchor{});
  EntityIndex b_file = b.file("b.py");
  EntityIndex x = b.function("K.x", Anchor{});
  EntityIndex y = b.function("y", Anchor{});
  b.file("c.py");
  EntityIndex z = b.function("z", Anchor{});
  b.calls(f, x).calls(f, y).calls(f, z).calls(f, local).calls(b_file, f);
  ViewOptions options;
  options.view = View::Topo;
  options.style = Style::Lean;
  analysis::Graph graph = b.build();
  std::string lean = block_at(render_with(graph, options), 0, 1);
  // Full paths and qualified names, one path per file, groups split by "; ".
  EXPECT_EQ(lean, "# @function f\n# CALLS: local; b.py: K.x, y; c.py: z\n# CALLED_BY: b.py\n");
  EXPECT_EQ(strip(lean + "def f():\n"), "def f():\n");
  options.style = Style::Paper;
  EXPECT_NE(block_at(render_with(graph, options), 0, 1)
                .find("# CALLS: local, b.py:K.x, b.py:y, c.py:z\n"),
            std::string::npos);
}

TEST(Lean, ACapEndsTheLastGroupAndCountsValues) {
  GraphBuilder b;
  b.file("pkg/a.py");
  EntityIndex f = b.function("f", Anchor{1, ""});
  b.file("pkg/b.py");
  std::vector<EntityIndex> callees;
  for (std::string name : {"u", "v", "w"}) callees.push_back(b.function(name, Anchor{}));
  for (EntityIndex callee : callees) b.calls(f, callee);
  ViewOptions options;
  options.view = View::Topo;
  options.style = Style::Lean;
  options.max_links = 2;
  EXPECT_EQ(block_at(render_with(b.build(), options), 0, 1),
            "# @function f\n# CALLS: pkg/b.py: u, v; \xE2\x80\xA6 (+1 more)\n");
}

TEST(Lean, OutsideIndentedLanguagesTheHeaderNamesTheParent) {
  // Java's nesting is not read from indentation: CHILDREN stay, PARENT is the header's prefix.
  GraphBuilder b;
  EntityIndex file = b.file("src/x/Shapes.java");
  EntityIndex shapes = b.cls("Shapes", Anchor{10, ""});
  EntityIndex total = b.function("Shapes.total", Anchor{20, "  "}, shapes);
  b.calls(file, total);
  analysis::Graph graph = b.build();
  for (analysis::FileInfo& info : graph.files) info.language = "java";
  ViewOptions options;
  options.view = View::Topo;
  options.style = Style::Lean;
  std::vector<TagPlan> plans = render_with(graph, options);
  EXPECT_EQ(block_at(plans, 0, 10), "// @class Shapes\n// CHILDREN: Shapes.total\n");
  EXPECT_EQ(block_at(plans, 0, 20),
            "  // @function Shapes.total\n  // CALLED_BY: src/x/Shapes.java\n");
}

TEST(Lean, AtMostHalfThePaperBytesOnAFixture) {
  Rich r = rich();
  ViewOptions options;
  options.view = View::Topo;
  uint64_t paper = 0, lean = 0;
  for (const TagPlan& plan : render_with(r.graph, options)) paper += plan.added_bytes();
  options.style = Style::Lean;
  for (const TagPlan& plan : render_with(r.graph, options)) lean += plan.added_bytes();
  EXPECT_LE(2 * lean, paper) << lean << " vs " << paper;
}

TEST(Budget, HoldsByLoweringCapsAndKeepsTheBestLinks) {
  analysis::Graph graph = calls_into_one_hub();
  for (analysis::FileInfo& info : graph.files) info.size = 1000;
  ViewOptions options;
  options.view = View::Topo;
  uint64_t free_bytes = 0;
  for (const TagPlan& plan : render_with(graph, options)) free_bytes += plan.added_bytes();
  options.tag_budget = 100.0 * static_cast<double>(free_bytes) / 2000.0 * 0.6;
  ViewChoice choice = choose_view(graph, options);
  uint64_t bytes = 0;
  std::vector<TagPlan> plans = render_plans(graph, choice);
  for (const TagPlan& plan : plans) bytes += plan.added_bytes();
  EXPECT_LE(static_cast<double>(bytes), *options.tag_budget / 100.0 * 2000.0);
  EXPECT_TRUE(choice.options.hub_threshold);  // the users' calls into the hub go first
  EXPECT_NE(choice.reason.find("tag budget"), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find(" met: "), std::string::npos) << choice.reason;
  // The first-ranked callee survives every cap.
  EXPECT_NE(block_at(plans, 0, 2).find("# CALLS: leaf0"), std::string::npos) << block_at(plans, 0, 2);
  // A budget already met changes nothing.
  options.tag_budget = 1000.0;
  EXPECT_EQ(choose_view(graph, options).options.max_links, 8u);
}

TEST(Budget, IsAPromiseWhenHeadersAloneExceedIt) {
  // A budget below the tightest caps' bytes is met by leaving whole blocks out, lowest-ranked
  // first: test code's first, then those showing the fewest values, the last id first.
  GraphBuilder b;
  b.file("pkg/a.py");
  EntityIndex hub = b.function("hub", Anchor{10, ""});
  EntityIndex one = b.function("one", Anchor{20, ""});
  EntityIndex two = b.function("two", Anchor{30, ""});
  b.file("pkg/tests/test_a.py");
  EntityIndex test = b.function("test_one", Anchor{10, ""});
  b.calls(one, hub).calls(two, hub).calls(two, one).calls(test, one);
  analysis::Graph graph = b.build();
  for (analysis::FileInfo& info : graph.files) info.size = 1000;
  for (Style style : {Style::Paper, Style::Lean}) {
    ViewOptions options;
    options.view = View::Topo;
    options.style = style;
    // The last budget step's caps: 1 value per field, CALLS into more than 3 callers left out.
    ViewOptions tightest = options;
    tightest.max_links = 1;
    tightest.hub_threshold = 3;
    std::vector<TagPlan> last = render_with(graph, tightest);
    uint64_t last_bytes = 0;
    for (const TagPlan& plan : last) last_bytes += plan.added_bytes();
    const uint64_t test_bytes = block_at(last, 1, 10).size();
    ASSERT_GT(test_bytes, 0u);
    // Half a byte over the tightest caps' bytes without the test's block, then half a byte under:
    // `two` (one value at these caps, like `hub`, but the later id) goes as well.
    for (int over : {0, 1}) {
      const double allowed = static_cast<double>(last_bytes - test_bytes) + (over ? -0.5 : 0.5);
      options.tag_budget = 100.0 * allowed / 2000.0;
      ViewChoice choice = choose_view(graph, options);
      std::vector<TagPlan> plans = render_plans(graph, choice);
      uint64_t bytes = 0;
      for (const TagPlan& plan : plans) bytes += plan.added_bytes();
      EXPECT_LE(static_cast<double>(bytes), allowed);
      EXPECT_NE(choice.reason.find(over == 0 ? "1 lowest-ranked blocks left out"
                                             : "2 lowest-ranked blocks left out"),
                std::string::npos)
          << choice.reason;
      EXPECT_EQ(block_at(plans, 1, 10), "");
      EXPECT_EQ(block_at(plans, 0, 10), block_at(last, 0, 10));
      EXPECT_EQ(block_at(plans, 0, 20), block_at(last, 0, 20));
      EXPECT_EQ(block_at(plans, 0, 30), over == 0 ? block_at(last, 0, 30) : "");
      // The choice carries what it left out: plans_by_path renders the same.
      PlansByPath by_path = plans_by_path(graph, choice);
      ASSERT_EQ(by_path.size(), 1u);
      EXPECT_EQ(by_path[0].second.added_bytes(), bytes);
    }
  }
}

TEST(Auto, HubHeavyLowDegreePrunesCallsToHubs) {
  ViewChoice choice = choose_view(calls_into_one_hub(), ViewOptions{});
  EXPECT_EQ(choice.view, View::Topo);
  EXPECT_EQ(choice.options.hub_threshold, kHubDegree);
  EXPECT_NE(choice.reason.find("of calls land on hubs"), std::string::npos) << choice.reason;
}

}  // namespace
}  // namespace anchorfs::render::testing
