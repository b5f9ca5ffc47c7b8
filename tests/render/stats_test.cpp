// Stats on a fixture graph: counts, call shape, hubs, auto's choice, tag cost, table and JSON.
#include "render/stats.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "graph_builder.h"
#include "render/coverage.h"
#include "render/graph_index.h"

namespace anchorfs::render::testing {
namespace {

// lib.py: util (called by 12 functions), rare (called by 1); app.py: 12 callers, class K(Base).
analysis::Graph fixture() {
  GraphBuilder b;
  EntityIndex lib = b.file("lib.py");
  EntityIndex util = b.function("util", Anchor{10, ""});
  EntityIndex rare = b.function("rare", Anchor{20, ""});
  EntityIndex base = b.cls("Base", Anchor{30, ""});
  EntityIndex app = b.file("app.py");
  EntityIndex k = b.cls("K", Anchor{5, ""});
  for (uint64_t i = 0; i < 12; ++i) {
    EntityIndex f = b.function("f" + std::to_string(i), Anchor{100 + i, ""});
    b.calls(f, util);
    if (i == 0) b.calls(f, rare);
  }
  b.edge(k, base, Relation::Inherits);
  b.edge(app, lib, Relation::Imports);
  b.label(util, Relation::EnvVar, "HOME");
  return b.build();
}

analysis::AnalysisStats analysis_stats() {
  analysis::AnalysisStats stats;
  stats.lines = 345;
  return stats;
}

TEST(Stats, CountsPerLanguage) {
  GraphBuilder b;
  EntityIndex lib = b.file("lib.py");
  EntityIndex util = b.function("util", Anchor{10, ""});
  EntityIndex main_go = b.file("main.go");
  EntityIndex server = b.cls("Server", Anchor{5, ""});
  EntityIndex start = b.function("Start", Anchor{20, ""}, server);
  b.calls(start, util);
  b.edge(main_go, lib, Relation::Imports);
  analysis::Graph graph = b.build();
  // A language no front end serves: counted, never tagged.
  graph.files[1].language = "no-such-language";
  graph.files[0].size = 100;
  graph.files[1].size = 400;
  StatsRequest request;
  request.views = {View::Topo};
  request.styles = {Style::Paper};
  RepoStats stats = compute_stats(graph, analysis_stats(), 500, ViewOptions{}, request);
  ASSERT_EQ(stats.languages.size(), 2u);
  const LanguageStats& go = stats.languages[0];  // by name
  const LanguageStats& python = stats.languages[1];
  EXPECT_EQ(go.name, "no-such-language");
  EXPECT_EQ(go.files, 1u);
  EXPECT_EQ(go.source_bytes, 400u);
  EXPECT_EQ(go.classes, 1u);
  EXPECT_EQ(go.functions, 1u);
  EXPECT_EQ(go.edges[static_cast<size_t>(Relation::Calls)], 1u);
  EXPECT_EQ(go.edges[static_cast<size_t>(Relation::Imports)], 1u);
  EXPECT_EQ(python.name, "python");
  EXPECT_EQ(python.functions, 1u);
  EXPECT_EQ(python.edges[static_cast<size_t>(Relation::Calls)], 0u);
  // Every tag byte of the row belongs to one language's files.
  ASSERT_EQ(go.tag_bytes.size(), 1u);
  EXPECT_EQ(go.tag_bytes[0], 0u);
  EXPECT_GT(python.tag_bytes[0], 0u);
  EXPECT_EQ(python.tag_bytes[0], stats.views[0].tag_bytes);
  const std::string table = format_table(stats);
  EXPECT_NE(table.find("no-such-language: 1 files (1 taggable), 400 bytes, 1 classes, 1 functions; imports 1, "
                       "calls 1, inherits 0"),
            std::string::npos)
      << table;
  const nlohmann::json json = nlohmann::json::parse(format_json(stats));
  EXPECT_EQ(json["languages"][1]["name"], "python");
  EXPECT_EQ(json["languages"][0]["edges"]["calls"], 1);
}

TEST(Stats, CountsShapeHubsAndAuto) {
  analysis::Graph graph = fixture();
  RepoStats stats = compute_stats(graph, analysis_stats(), 10000, ViewOptions{});
  EXPECT_EQ(stats.files, 2u);
  EXPECT_EQ(stats.taggable_files, 2u);
  EXPECT_EQ(stats.lines, 345u);
  EXPECT_EQ(stats.source_bytes, 10000u);
  EXPECT_EQ(stats.file_entities, 2u);
  EXPECT_EQ(stats.classes, 2u);
  EXPECT_EQ(stats.functions, 14u);
  EXPECT_EQ(stats.edges[static_cast<size_t>(Relation::Calls)], 13u);
  EXPECT_EQ(stats.edges[static_cast<size_t>(Relation::Inherits)], 1u);
  EXPECT_EQ(stats.edges[static_cast<size_t>(Relation::Imports)], 1u);
  EXPECT_EQ(stats.edges[static_cast<size_t>(Relation::Contains)], 16u);
  EXPECT_EQ(stats.labels[static_cast<size_t>(Relation::EnvVar)], 1u);
  EXPECT_EQ(stats.callers, 12u);
  EXPECT_DOUBLE_EQ(stats.mean_call_out_degree, 13.0 / 12.0);
  EXPECT_EQ(stats.max_call_out_degree, 2u);
  EXPECT_EQ(stats.max_call_out_id, "app.py:f0");
  EXPECT_EQ(stats.hub_threshold, 10u);
  EXPECT_EQ(stats.hubs, 1u);
  EXPECT_DOUBLE_EQ(stats.hub_share, 1.0 / 14.0);
  EXPECT_DOUBLE_EQ(stats.hub_call_share, 12.0 / 13.0);
  ASSERT_EQ(stats.top_hubs.size(), 1u);
  EXPECT_EQ(stats.top_hubs[0].id, "lib.py:util");
  EXPECT_EQ(stats.top_hubs[0].in_degree, 12u);
  // 12 of the 13 calls land on the hub: auto prunes CALLS into hubs.
  EXPECT_EQ(stats.auto_choice.view, View::Topo);
  EXPECT_EQ(stats.auto_choice.options.hub_threshold, 10u);
  EXPECT_EQ(stats.auto_choice.reason,
            "auto: mean call out-degree 1.08 < 5 but 92% of calls land on hubs (> 50%) -> topo "
            "without CALLS to hubs (in-degree > 10)");
}

TEST(Stats, TagCostPerViewMatchesThePlans) {
  analysis::Graph graph = fixture();
  StatsRequest request;
  request.styles = {Style::Paper};
  std::vector<ViewPlans> views = render_views(graph, ViewOptions{}, request);
  ASSERT_EQ(views.size(), 4u);
  EXPECT_EQ(views[0].requested, View::Topo);
  EXPECT_EQ(views[3].requested, View::Auto);
  EXPECT_EQ(views[3].choice.view, View::Topo);
  RepoStats stats = compute_stats(graph, analysis_stats(), 10000, ViewOptions{}, views);
  ASSERT_EQ(stats.views.size(), 4u);
  for (size_t v = 0; v < views.size(); ++v) {
    uint64_t bytes = 0;
    for (const TagPlan& plan : views[v].plans) bytes += plan.added_bytes();
    EXPECT_EQ(stats.views[v].tag_bytes, bytes);
    EXPECT_DOUBLE_EQ(stats.views[v].share, static_cast<double>(bytes) / 10000.0);
  }
  // topo: both files, util, rare, Base, K and the 12 callers.
  EXPECT_EQ(stats.views[0].blocks, 18u);
  EXPECT_EQ(stats.views[0].tagged_files, 2u);
  // inv: the callers, K (BASE only... K keeps BASE) and app.py (IMPORTS only) change.
  EXPECT_EQ(stats.views[1].blocks, 5u);                           // lib.py, util, rare, Base, K
  EXPECT_GT(stats.views[2].tag_bytes, stats.views[0].tag_bytes);  // dense adds ENV_VAR
  // auto chose topo without the callers' CALLS into the hub: their blocks go.
  EXPECT_LT(stats.views[3].tag_bytes, stats.views[0].tag_bytes);
  EXPECT_EQ(stats.views[3].blocks, 7u);  // lib.py, app.py, util, rare, Base, K, f0
}

TEST(Stats, EveryViewInBothStylesAndWithTheBudget) {
  analysis::Graph graph = fixture();
  StatsRequest request;
  request.views = {View::Topo};
  request.budget = 5.0;
  RepoStats stats = compute_stats(graph, analysis_stats(), 10000, ViewOptions{}, request);
  ASSERT_EQ(stats.views.size(), 4u);  // topo x {paper, lean} x {no budget, 5%}
  EXPECT_EQ(stats.views[0].choice.options.style, Style::Paper);
  EXPECT_FALSE(stats.views[0].budget);
  EXPECT_EQ(stats.views[1].budget, 5.0);
  EXPECT_EQ(stats.views[2].choice.options.style, Style::Lean);
  EXPECT_LE(10 * stats.views[2].tag_bytes, 6 * stats.views[0].tag_bytes);
  EXPECT_LE(stats.views[1].tag_bytes, stats.views[0].tag_bytes);
  // Lean rows carry their bytes over paper's (same request) and paper's words they keep.
  EXPECT_FALSE(stats.views[0].vs_paper);
  EXPECT_FALSE(stats.views[0].coverage);
  ASSERT_TRUE(stats.views[2].vs_paper);
  EXPECT_DOUBLE_EQ(*stats.views[2].vs_paper, static_cast<double>(stats.views[2].tag_bytes) /
                                                 static_cast<double>(stats.views[0].tag_bytes));
  // The budget is met in both styles (blocks left out when caps cannot reach it).
  EXPECT_LE(stats.views[1].tag_bytes, 500u);
  EXPECT_LE(stats.views[3].tag_bytes, 500u);
  EXPECT_EQ(stats.views[3].vs_paper.has_value(), stats.views[1].tag_bytes > 0);
  ASSERT_TRUE(stats.views[2].coverage);
  const WordCoverage& coverage = *stats.views[2].coverage;
  EXPECT_GE(coverage.blocks, 5u);
  EXPECT_EQ(coverage.full_blocks, coverage.blocks);
  EXPECT_EQ(coverage.covered, coverage.words);
  EXPECT_DOUBLE_EQ(coverage.mean, 1.0);
  nlohmann::json json = nlohmann::json::parse(format_json(stats));
  EXPECT_EQ(json["views"][0]["word_coverage"], nullptr);
  EXPECT_EQ(json["views"][2]["word_coverage"]["blocks"], coverage.blocks);
  EXPECT_EQ(json["views"][2]["word_coverage"]["mean"], 1.0);
  EXPECT_EQ(json["views"][2]["vs_paper"], *stats.views[2].vs_paper);
  EXPECT_NE(format_table(stats).find("1.0000"), std::string::npos) << format_table(stats);
  EXPECT_NE(stats.views[1].choice.reason.find("tag budget 5%"), std::string::npos)
      << stats.views[1].choice.reason;
}

TEST(Stats, TokensPerViewAndFile) {
  analysis::Graph graph = fixture();
  StatsRequest request;
  request.views = {View::Topo};
  request.styles = {Style::Paper};
  auto counter = byte_estimator();
  RepoStats stats =
      compute_stats(graph, analysis_stats(), 10000, ViewOptions{}, request, {counter.get(), 3000});
  ASSERT_EQ(stats.views.size(), 1u);
  const ViewCost& cost = stats.views[0];
  EXPECT_EQ(stats.source_tokens, 3000u);
  EXPECT_EQ(stats.tokenizer, counter->name());
  // Estimated per insertion: at least bytes / kBytesPerToken, at most one more per insertion.
  EXPECT_GE(static_cast<double>(cost.tag_tokens), static_cast<double>(cost.tag_bytes) / kBytesPerToken);
  EXPECT_LE(static_cast<double>(cost.tag_tokens),
            static_cast<double>(cost.tag_bytes) / kBytesPerToken + static_cast<double>(cost.blocks));
  EXPECT_DOUBLE_EQ(cost.token_share, static_cast<double>(cost.tag_tokens) / 3000.0);
  EXPECT_LE(cost.per_file.median, cost.per_file.p90);
  EXPECT_LE(cost.per_file.p90, cost.per_file.max);
  EXPECT_GT(cost.per_file.max, 0u);
  nlohmann::json json = nlohmann::json::parse(format_json(stats));
  EXPECT_EQ(json["views"][0]["tag_tokens"], cost.tag_tokens);
  EXPECT_EQ(json["views"][0]["tokens_per_file"]["max"], cost.per_file.max);
  EXPECT_EQ(json["views"][0]["style"], "paper");
}

TEST(Stats, TableAndJsonCarryTheNumbers) {
  analysis::Graph graph = fixture();
  StatsRequest request;
  request.views = {View::Inv};
  request.styles = {Style::Paper};
  RepoStats stats = compute_stats(graph, analysis_stats(), 10000, ViewOptions{}, request);
  std::string table = format_table(stats);
  EXPECT_NE(table.find("2 files, 2 classes, 14 functions"), std::string::npos) << table;
  EXPECT_NE(table.find("lib.py:util"), std::string::npos);
  EXPECT_NE(table.find("but 92% of calls land on hubs"), std::string::npos);
  nlohmann::json json = nlohmann::json::parse(format_json(stats));
  EXPECT_EQ(json["files"]["analysed"], 2);
  EXPECT_EQ(json["files"]["lines"], 345);
  EXPECT_EQ(json["entities"]["function"], 14);
  EXPECT_EQ(json["edges"]["calls"], 13);
  EXPECT_EQ(json["labels"]["env_var"], 1);
  EXPECT_EQ(json["calls"]["hubs"], 1);
  EXPECT_EQ(json["calls"]["top_hubs"][0]["id"], "lib.py:util");
  EXPECT_EQ(json["calls"]["top_hubs"][0]["in_degree"], 12);
  EXPECT_EQ(json["auto"]["view"], "topo");
  EXPECT_EQ(json["auto"]["hub_threshold"], 10);
  ASSERT_EQ(json["views"].size(), 1u);
  EXPECT_EQ(json["views"][0]["requested"], "inv");
  EXPECT_EQ(json["views"][0]["tag_bytes"], stats.views[0].tag_bytes);
}

TEST(WordCoverage, IdentifierWordsSplitPathsNamesAndCamelCase) {
  EXPECT_EQ(identifier_words("sympy/core/numbers.py: Integer.__add__; HTTPServer.getURLFor2, x_y"),
            (std::vector<std::string>{"add", "core", "for2", "get", "http", "integer", "numbers",
                                      "py", "server", "sympy", "url", "x", "y"}));
  EXPECT_EQ(identifier_words("caf\xC3\xA9 (+3 more)"),
            (std::vector<std::string>{"3", "caf\xC3\xA9", "more"}));
  EXPECT_TRUE(identifier_words(" , ;: ").empty());
}

TEST(WordCoverage, LeanKeepsEveryWordOfPapersLinksInEveryView) {
  analysis::Graph graph = fixture();
  GraphIndex index(graph);
  for (View view : {View::Topo, View::Inv, View::Dense}) {
    for (size_t cap : {size_t{0}, size_t{1}}) {
      ViewOptions options;
      options.view = view;
      options.style = Style::Lean;
      options.max_links = cap;
      WordCoverage coverage = word_coverage(index, choose_view(graph, options));
      EXPECT_GT(coverage.blocks, 0u);
      EXPECT_EQ(coverage.covered, coverage.words) << view_name(view) << " cap " << cap;
    }
  }
}

TEST(Stats, SourceBytesSumsTheAnalysedFiles) {
  analysis::Graph graph = fixture();
  analysis::SourceTree tree;
  auto entry = [](std::string path, mode_t mode, uint64_t size) {
    analysis::TreeEntry e;
    e.path = std::move(path);
    e.mode = mode;
    e.size = size;
    return e;
  };
  tree.entries = {entry("", S_IFDIR | 0755, 0), entry("app.py", S_IFREG | 0644, 120),
                  entry("lib.py", S_IFREG | 0644, 80), entry("README", S_IFREG | 0644, 999)};
  EXPECT_EQ(source_bytes(tree, graph), 200u);
}

}  // namespace
}  // namespace anchorfs::render::testing
