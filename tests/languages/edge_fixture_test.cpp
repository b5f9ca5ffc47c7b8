// Scores every language's graph against hand-derived fixtures: tests/data/graphs/<lang>/<case>/
// holds a small program and `edges.txt`, the exact Imports/Calls/Inherits edges it has.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/source_tree.h"
#include "tests/languages/language_support.h"

namespace anchorfs::languages_test {
namespace {

namespace fs = std::filesystem;

// CALLS precision each language must reach over its cases (the bar), and the recall floor
// (ratchet it up as resolution improves; never lower it to let a regression pass).
constexpr double kMinPrecision = 0.95;
constexpr double kMinRecall = 0.80;

std::vector<std::string> expected_edges(const fs::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

struct Tally {
  size_t expected = 0;
  size_t found = 0;
  size_t correct = 0;
  size_t call_found = 0;
  size_t call_correct = 0;
};

bool is_call(const std::string& line) {
  return line.find(" calls ") != std::string::npos;
}

TEST(EdgeFixtures, EveryCaseMatchesItsHandDerivedEdges) {
  const fs::path corpus(ANCHORFS_GRAPH_FIXTURES);
  std::map<std::string, Tally> tallies;
  size_t cases = 0;
  for (const fs::directory_entry& language : fs::directory_iterator(corpus)) {
    if (!language.is_directory()) continue;
    for (const fs::directory_entry& dir : fs::directory_iterator(language.path())) {
      if (!fs::exists(dir.path() / "edges.txt")) continue;
      ++cases;
      const std::string label = language.path().filename().string() + "/" +
                                dir.path().filename().string();
      SCOPED_TRACE(label);
      analysis::AnalysisOptions options;
      options.threads = 2;
      const analysis::Analysis result =
          analysis::analyze(analysis::scan_tree(dir.path().string()), options);
      const std::vector<std::string> actual = edge_lines(result.graph);
      const std::vector<std::string> expected = expected_edges(dir.path() / "edges.txt");
      const bool known_gap = fs::exists(dir.path() / "KNOWN_GAP");
      if (!known_gap) {
        std::string got;
        for (const std::string& line : actual) got += line + "\n";
        EXPECT_EQ(actual, expected) << "actual edges:\n" << got;
      }
      Tally& tally = tallies[language.path().filename().string()];
      const std::set<std::string> wanted(expected.begin(), expected.end());
      tally.expected += expected.size();
      for (const std::string& line : actual) {
        const bool correct = wanted.count(line) > 0;
        ++tally.found;
        tally.correct += correct;
        if (is_call(line)) {
          ++tally.call_found;
          tally.call_correct += correct;
        }
      }
    }
  }
  EXPECT_GT(cases, 0u);
  for (const auto& [language, tally] : tallies) {
    const double precision =
        tally.call_found == 0 ? 1.0 : double(tally.call_correct) / double(tally.call_found);
    const double recall = tally.expected == 0 ? 1.0 : double(tally.correct) / double(tally.expected);
    std::printf("%-12s edges expected %zu, found %zu, correct %zu; CALLS precision %.3f; recall %.3f\n",
                language.c_str(), tally.expected, tally.found, tally.correct, precision, recall);
    EXPECT_GE(precision, kMinPrecision) << language;
    EXPECT_GE(recall, kMinRecall) << language;
  }
}

}  // namespace
}  // namespace anchorfs::languages_test
