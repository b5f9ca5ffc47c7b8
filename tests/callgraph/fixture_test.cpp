// Scores analysis::analyze's call graph (PyCG export) against the hand-derived fixture corpus.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/export/graph_export.h"
#include "analysis/source_tree.h"
#include "tests/callgraph/callgraph_score.h"

namespace anchorfs::callgraph_test {
namespace {

namespace fs = std::filesystem;
using graph_export::PycgGraph;

// The bar over the whole corpus. Recall is ratcheted up as the analysis improves (goal 0.93);
// never lower it to make a regression pass.
constexpr double kMinPrecision = 0.98;
constexpr double kMinRecall = 0.965;

// Categories the analysis claims to support: every case in them must match exactly.
const std::vector<std::string> kExactCategories = {
    "assignments", "builtins",   "classes", "decorators", "dicts", "direct_calls", "dynamic",
    "functions",   "generators", "imports", "lambdas",    "lists", "parameters",   "returns"};

// Cases of exact categories that the resolver is known to get wrong; they still count in the
// precision/recall totals. None at present (decorators/registry_method was one until parameters
// given back by some returns became call-site specific).
const std::vector<std::string> kKnownGaps = {};

const std::vector<std::string> kCategories = {
    "direct_calls", "functions",  "classes",    "mro",      "super",       "decorators", "lambdas",
    "args",         "kwargs",     "parameters", "returns",  "assignments", "lists",      "dicts",
    "generators",   "exceptions", "imports",    "builtins", "dynamic"};

struct CaseResult {
  std::string category;
  std::string label;  // category/case
  PycgGraph expected;
  PycgGraph actual;
  Score score;
};

fs::path corpus_root() {
  return fs::path(ANCHORFS_CALLGRAPH_DATA);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> sorted_dirs(const fs::path& parent) {
  std::vector<fs::path> dirs;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent)) {
    if (entry.is_directory()) dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// Every <category>/<case> directory holding a callgraph.json, in path order.
std::vector<fs::path> case_dirs() {
  std::vector<fs::path> cases;
  for (const fs::path& category : sorted_dirs(corpus_root())) {
    for (const fs::path& dir : sorted_dirs(category)) {
      if (fs::exists(dir / "callgraph.json")) cases.push_back(dir);
    }
  }
  return cases;
}

analysis::Analysis analyze_dir(const fs::path& dir, unsigned threads) {
  analysis::AnalysisOptions options;
  options.threads = threads;
  return analysis::analyze(analysis::scan_tree(dir.string()), options);
}

CaseResult run_case(const fs::path& dir) {
  CaseResult result;
  result.category = dir.parent_path().filename().string();
  result.label = result.category + "/" + dir.filename().string();
  result.expected = parse_pycg_json(read_file(dir / "callgraph.json"));
  result.actual = graph_export::pycg_call_graph(analyze_dir(dir, 1).graph, {});
  result.score.add(result.label, edges_of(result.expected), edges_of(result.actual));
  return result;
}

const std::vector<CaseResult>& corpus_results() {
  static const std::vector<CaseResult> results = [] {
    std::vector<CaseResult> all;
    for (const fs::path& dir : case_dirs()) all.push_back(run_case(dir));
    return all;
  }();
  return results;
}

std::vector<std::string> keys_of(const PycgGraph& graph) {
  std::vector<std::string> keys;
  for (const auto& entry : graph) keys.push_back(entry.first);
  return keys;
}

TEST(CallGraphCorpus, CoversEveryCategoryWithRunnablePrograms) {
  std::map<std::string, int> cases_per_category;
  for (const fs::path& dir : case_dirs()) {
    EXPECT_TRUE(fs::exists(dir / "main.py")) << dir;
    ++cases_per_category[dir.parent_path().filename().string()];
  }
  for (const std::string& category : kCategories) {
    EXPECT_GE(cases_per_category[category], 3) << category;
  }
}

TEST(CallGraphCorpus, PrecisionAndRecallMeetTheBar) {
  std::map<std::string, Score> by_category;
  Score total;
  for (const CaseResult& result : corpus_results()) {
    by_category[result.category].merge(result.score);
    total.merge(result.score);
  }
  std::printf("%-14s %8s %8s %8s %9s %7s\n", "category", "expected", "actual", "matched",
              "precision", "recall");
  const auto row = [](const std::string& name, const Score& s) {
    std::printf("%-14s %8zu %8zu %8zu %9.3f %7.3f\n", name.c_str(), s.expected, s.actual, s.matched,
                s.precision(), s.recall());
  };
  for (const auto& [category, score] : by_category) row(category, score);
  row("TOTAL", total);
  for (const std::string& edge : total.missing) std::printf("missing   %s\n", edge.c_str());
  for (const std::string& edge : total.spurious) std::printf("spurious  %s\n", edge.c_str());
  std::fflush(stdout);

  EXPECT_GT(total.expected, 250u) << "the corpus lost its expectations";
  EXPECT_GE(total.precision(), kMinPrecision);
  EXPECT_GE(total.recall(), kMinRecall);
}

TEST(CallGraphCorpus, EveryExpectedNodeIsNamedAsPycgNamesIt) {
  for (const CaseResult& result : corpus_results()) {
    for (const std::string& node : keys_of(result.expected)) {
      EXPECT_TRUE(result.actual.contains(node)) << result.label << ": no node " << node;
    }
  }
}

TEST(CallGraphCorpus, SameGraphWhateverTheThreadCount) {
  const analysis::Graph one = analyze_dir(corpus_root(), 1).graph;
  const analysis::Graph two = analyze_dir(corpus_root(), 2).graph;
  for (const auto format : {graph_export::GraphFormat::Pycg, graph_export::GraphFormat::Json}) {
    std::ostringstream a;
    std::ostringstream b;
    graph_export::write_graph(a, one, format, {});
    graph_export::write_graph(b, two, format, {});
    EXPECT_EQ(a.str(), b.str());
  }
}

class ExactCase : public ::testing::TestWithParam<fs::path> {};

TEST_P(ExactCase, MatchesTheExpectedGraph) {
  const CaseResult result = run_case(GetParam());
  EXPECT_EQ(result.score.missing, std::vector<std::string>{});
  EXPECT_EQ(result.score.spurious, std::vector<std::string>{});
  EXPECT_EQ(keys_of(result.actual), keys_of(result.expected));
}

std::vector<fs::path> exact_cases() {
  std::vector<fs::path> cases;
  for (const fs::path& dir : case_dirs()) {
    const std::string category = dir.parent_path().filename().string();
    const std::string label = category + "/" + dir.filename().string();
    if (std::find(kExactCategories.begin(), kExactCategories.end(), category) !=
            kExactCategories.end() &&
        std::find(kKnownGaps.begin(), kKnownGaps.end(), label) == kKnownGaps.end()) {
      cases.push_back(dir);
    }
  }
  return cases;
}

std::string case_test_name(const ::testing::TestParamInfo<fs::path>& info) {
  return info.param.parent_path().filename().string() + "_" + info.param.filename().string();
}

INSTANTIATE_TEST_SUITE_P(SupportedCategories, ExactCase, ::testing::ValuesIn(exact_cases()),
                         case_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ExactCase);

}  // namespace
}  // namespace anchorfs::callgraph_test
