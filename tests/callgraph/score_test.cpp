// The edge scorer used by the corpus test: counts, precision/recall, and the PyCG JSON reader.
#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/callgraph/callgraph_score.h"

namespace anchorfs::callgraph_test {
namespace {

TEST(CallGraphScore, CountsMatchedMissingAndSpurious) {
  Score score;
  score.add("case", {{"a", "b"}, {"a", "c"}, {"b", "c"}}, {{"a", "b"}, {"c", "a"}});
  EXPECT_EQ(score.expected, 3u);
  EXPECT_EQ(score.actual, 2u);
  EXPECT_EQ(score.matched, 1u);
  EXPECT_DOUBLE_EQ(score.precision(), 0.5);
  EXPECT_DOUBLE_EQ(score.recall(), 1.0 / 3.0);
  EXPECT_EQ(score.missing, (std::vector<std::string>{"case: a -> c", "case: b -> c"}));
  EXPECT_EQ(score.spurious, std::vector<std::string>{"case: c -> a"});
}

TEST(CallGraphScore, EmptyMeasuresAsPerfectAndMergeAdds) {
  Score total;
  EXPECT_DOUBLE_EQ(total.precision(), 1.0);
  EXPECT_DOUBLE_EQ(total.recall(), 1.0);
  Score one;
  one.add("x", {{"a", "b"}}, {});
  total.merge(one);
  total.merge(one);
  EXPECT_EQ(total.expected, 2u);
  EXPECT_DOUBLE_EQ(total.recall(), 0.0);
  EXPECT_DOUBLE_EQ(total.precision(), 1.0);
  EXPECT_EQ(total.missing.size(), 2u);
}

TEST(PycgJson, ParsesAndRejects) {
  const graph_export::PycgGraph graph = parse_pycg_json(R"({"m": ["m.f", "m.g"], "m.f": []})");
  EXPECT_EQ(edges_of(graph), (std::set<CallEdge>{{"m", "m.f"}, {"m", "m.g"}}));
  EXPECT_EQ(graph.size(), 2u);
  EXPECT_THROW(parse_pycg_json("[1]"), std::runtime_error);
  EXPECT_THROW(parse_pycg_json(R"({"m": "m.f"})"), std::runtime_error);
  EXPECT_THROW(parse_pycg_json(R"({"m": [1]})"), std::runtime_error);
  EXPECT_THROW(parse_pycg_json("{"), std::runtime_error);
}

}  // namespace
}  // namespace anchorfs::callgraph_test
