// The graph writers on hand-built graphs: PyCG naming and format, anchorfs JSON, Graphviz scope.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/export/graph_export.h"
#include "tests/callgraph/callgraph_score.h"

namespace anchorfs::graph_export {
namespace {

using analysis::Edge;
using analysis::Entity;
using analysis::EntityIndex;
using analysis::EntityKind;
using analysis::Graph;
using analysis::Relation;

// main.py (run, <lambda1>), pkg/__init__.py, pkg/mod.py (C, C.__init__, C.m, f, f.inner).
class SampleGraph : public ::testing::Test {
 protected:
  void SetUp() override {
    file("main.py");                                // 0
    def(EntityKind::Function, "run", 0, 0);         // 1
    def(EntityKind::Function, "<lambda1>", 0, 0);   // 2
    file("pkg/__init__.py");                        // 3
    file("pkg/mod.py");                             // 4
    def(EntityKind::Class, "C", 4, 4);              // 5
    def(EntityKind::Function, "C.__init__", 4, 5);  // 6
    def(EntityKind::Function, "C.m", 4, 5);         // 7
    def(EntityKind::Function, "f", 4, 4);           // 8
    def(EntityKind::Function, "f.inner", 4, 8);     // 9
    edge(0, 1, Relation::Contains);
    edge(0, 4, Relation::Imports);
    edge(0, 1, Relation::Calls);
    edge(0, 5, Relation::Calls);  // instantiation as the analysis may record it
    edge(0, 6, Relation::Calls);
    edge(1, 2, Relation::Calls);
    edge(2, 8, Relation::Calls);
    edge(8, 9, Relation::Calls);
    edge(7, 7, Relation::Calls);
    edge(5, 4, Relation::Inherits);
  }

  void file(const std::string& path) {
    const auto index = static_cast<EntityIndex>(graph.entities.size());
    graph.entities.push_back(Entity{EntityKind::File, index, analysis::kNoEntity, path, 1, {}});
    graph.files.push_back(analysis::FileInfo{index, "python", "\n", true, false, 0});
  }
  void def(EntityKind kind, const std::string& name, EntityIndex in_file, EntityIndex parent) {
    const auto line = static_cast<uint32_t>(graph.entities.size());
    graph.entities.push_back(Entity{kind, in_file, parent, name, line, {}});
  }
  void edge(EntityIndex from, EntityIndex to, Relation relation) {
    graph.edges.push_back(Edge{from, to, relation});
  }

  std::string written(GraphFormat format, const ExportOptions& options = {}) {
    std::ostringstream out;
    write_graph(out, graph, format, options);
    return out.str();
  }

  Graph graph;
};

TEST(PycgModuleName, FollowsPycgNaming) {
  EXPECT_EQ(pycg_module_name("a/b.py", {}), "a.b");
  EXPECT_EQ(pycg_module_name("a/__init__.py", {}), "a");
  EXPECT_EQ(pycg_module_name("main.py", {}), "main");
  EXPECT_EQ(pycg_module_name("a/b/c.py", {}), "a.b.c");
  EXPECT_EQ(pycg_module_name("a/my__init__.py", {}), "a.my__init__");
  EXPECT_EQ(pycg_module_name("README.md", {}), std::nullopt);
  EXPECT_EQ(pycg_module_name(".py", {}), std::nullopt);
}

TEST(PycgModuleName, PackageAndPrefix) {
  ExportOptions package;
  package.package = "src/";
  EXPECT_EQ(pycg_module_name("src/a/b.py", package), "a.b");
  EXPECT_EQ(pycg_module_name("src/__init__.py", package), "__init__");
  EXPECT_EQ(pycg_module_name("srcx/a.py", package), std::nullopt);
  EXPECT_EQ(pycg_module_name("tests/a.py", package), std::nullopt);
  ExportOptions prefix;
  prefix.name_prefix = "proj";
  EXPECT_EQ(pycg_module_name("a/b.py", prefix), "proj.a.b");
  EXPECT_EQ(pycg_module_name("__init__.py", prefix), "proj");
}

TEST_F(SampleGraph, PycgGraphHasEveryNodeAndOnlyCallEdges) {
  const PycgGraph expected = {
      {"main", {"main.run", "pkg.mod.C.__init__"}},
      {"main.<lambda1>", {"pkg.mod.f"}},
      {"main.run", {"main.<lambda1>"}},
      {"pkg", {}},
      {"pkg.mod", {}},
      {"pkg.mod.C", {}},
      {"pkg.mod.C.__init__", {}},
      {"pkg.mod.C.m", {"pkg.mod.C.m"}},
      {"pkg.mod.f", {"pkg.mod.f.inner"}},
      {"pkg.mod.f.inner", {}},
  };
  EXPECT_EQ(pycg_call_graph(graph, {}), expected);
}

TEST_F(SampleGraph, PycgPackageLeavesOutsideFilesOut) {
  ExportOptions options;
  options.package = "pkg";
  const PycgGraph call_graph = pycg_call_graph(graph, options);
  EXPECT_FALSE(call_graph.contains("main"));
  EXPECT_TRUE(call_graph.contains("__init__"));
  EXPECT_EQ(call_graph.at("mod.f"), std::vector<std::string>{"mod.f.inner"});
  EXPECT_EQ(call_graph.size(), 7u);
}

TEST_F(SampleGraph, PycgTextIsSortedJsonThatRoundTrips) {
  const std::string text = written(GraphFormat::Pycg);
  EXPECT_EQ(text.substr(0, 43), "{\n  \"main\": [\"main.run\", \"pkg.mod.C.__init_");
  EXPECT_EQ(callgraph_test::parse_pycg_json(text), pycg_call_graph(graph, {}));
  EXPECT_EQ(text, written(GraphFormat::Pycg));
}

TEST(PycgText, EmptyGraphIsEmptyObject) {
  std::ostringstream out;
  write_graph(out, Graph{}, GraphFormat::Pycg, {});
  EXPECT_EQ(out.str(), "{}\n");
}

TEST_F(SampleGraph, AnchorfsJsonCarriesEntitiesEdgesAndLabels) {
  graph.labels.push_back(analysis::Label{1, Relation::EnvVar, "HOME\n\"x\""});
  const nlohmann::json document = nlohmann::json::parse(written(GraphFormat::Json));
  EXPECT_EQ(document["schema"], "anchorfs-graph");
  EXPECT_EQ(document["version"], 1);
  ASSERT_EQ(document["entities"].size(), graph.entities.size());
  const nlohmann::json& method = document["entities"][7];
  EXPECT_EQ(method["id"], "pkg/mod.py:C.m");
  EXPECT_EQ(method["kind"], "function");
  EXPECT_EQ(method["file"], 4);
  EXPECT_EQ(method["parent"], 5);
  EXPECT_EQ(method["line"], 7);
  EXPECT_EQ(document["entities"][0]["parent"], nullptr);
  EXPECT_EQ(document["entities"][0]["language"], "python");
  EXPECT_EQ(document["entities"][5]["kind"], "class");
  ASSERT_EQ(document["edges"].size(), graph.edges.size());
  EXPECT_EQ(document["edges"][1]["relation"], "imports");
  EXPECT_EQ(document["edges"][9]["relation"], "inherits");
  EXPECT_EQ(document["edges"][3]["to"], 5);
  ASSERT_EQ(document["labels"].size(), 1u);
  EXPECT_EQ(document["labels"][0]["relation"], "env_var");
  EXPECT_EQ(document["labels"][0]["value"], "HOME\n\"x\"");
}

TEST_F(SampleGraph, JsonReplacesInvalidUtf8InPaths) {
  graph.entities[0].name = "bad\xff/m\xc3\xa9.py";
  const nlohmann::json document = nlohmann::json::parse(written(GraphFormat::Json));
  EXPECT_EQ(document["entities"][0]["name"], "bad\xEF\xBF\xBD/m\xc3\xa9.py");
}

TEST_F(SampleGraph, DotScopeDrawsOnlyTheSubtreeAndItsNeighbours) {
  const std::string all = written(GraphFormat::Dot);
  EXPECT_EQ(all.rfind("digraph anchorfs {", 0), 0u);
  EXPECT_NE(all.find("subgraph cluster_0 {"), std::string::npos);
  EXPECT_NE(all.find("n1 -> n2;"), std::string::npos);
  EXPECT_NE(all.find("n0 -> n4 [style=dashed"), std::string::npos);
  EXPECT_NE(all.find("n5 -> n4 [arrowhead=empty"), std::string::npos);
  EXPECT_EQ(all.find("n0 -> n1;\n  n0 -> n1"), std::string::npos);

  ExportOptions options;
  options.scope = "pkg";
  const std::string scoped = written(GraphFormat::Dot, options);
  EXPECT_EQ(scoped.find("subgraph cluster_0 "), std::string::npos);
  EXPECT_NE(scoped.find("subgraph cluster_4 {"), std::string::npos);
  EXPECT_NE(scoped.find("n0 [shape=note, style=dotted, label=\"main.py\"]"), std::string::npos);
  EXPECT_NE(scoped.find("n2 [shape=ellipse, style=dotted, label=\"main.py:<lambda1>\"]"),
            std::string::npos);
  EXPECT_EQ(scoped.find("n1 -> n2"), std::string::npos);
  EXPECT_NE(scoped.find("n8 -> n9;"), std::string::npos);

  options.scope = "pkg/mod.py";
  EXPECT_EQ(written(GraphFormat::Dot, options).find("cluster_3"), std::string::npos);
  options.scope = "pk";
  EXPECT_EQ(written(GraphFormat::Dot, options).find("cluster_4"), std::string::npos);
}

TEST(GraphFormatName, ParsesTheThreeFormats) {
  EXPECT_EQ(parse_graph_format("json"), GraphFormat::Json);
  EXPECT_EQ(parse_graph_format("pycg"), GraphFormat::Pycg);
  EXPECT_EQ(parse_graph_format("dot"), GraphFormat::Dot);
  EXPECT_EQ(parse_graph_format("PYCG"), std::nullopt);
  EXPECT_EQ(parse_graph_format(""), std::nullopt);
}

}  // namespace
}  // namespace anchorfs::graph_export
