// The memory a file's parse may take is bounded by the file's size, whatever its shape: a
// token-dense file over its bound is served unchanged instead of taking gigabytes.
#include "analysis/parse_budget.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "tests/analysis/temp_repo.h"
#include "tests/support/sanitizer.h"

namespace anchorfs::analysis {
namespace {

using test::find_entity;
using test::TempRepo;

// Peak resident set size of this process so far, in MiB.
long peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;  // KiB on Linux
}

TEST(ParseBudget, GrowsWithTheSourceAndIsCapped) {
  EXPECT_EQ(parse_budget_bytes(0), kMinParseBytes);
  EXPECT_EQ(parse_budget_bytes(1000), kMinParseBytes + 1000 * kParseBytesPerSourceByte);
  EXPECT_EQ(parse_budget_bytes(uint64_t{1} << 40), kMaxParseBytes);
  EXPECT_LE(parse_budget_bytes(kMaxParseBytes), kMaxParseBytes);
}

// Issue 17 item 6: 100 lines of 20,000 calls each (10 MB, no line near the long-line guard)
// took 1.56 GB to analyse. Now its parse stops at its budget and it is served unchanged, while
// the rest of the repository is analysed as usual.
TEST(ParseBudget, TokenDenseFileIsServedUnchangedWithinItsBound) {
  TempRepo repo;
  std::string line;
  for (int i = 0; i < 20000; ++i) line += i == 0 ? "k()" : ", k()";
  std::string dense;
  for (int i = 0; i < 100; ++i) dense += "X" + std::to_string(i) + " = [" + line + "]\n";
  ASSERT_GT(dense.size(), size_t{10} << 20 >> 1);
  repo.write("generated.py", dense);
  repo.write("app.py", "def k():\n    return 1\n\n\ndef main():\n    return k()\n");
  dense.clear();
  dense.shrink_to_fit();

  const Analysis analysis = repo.analyze(2);
  // Without the bound the parse alone peaks at 1.4 GB of syntax tree; with it, at its cap.
  // ASan's redzones and quarantine add to what the process holds.
  constexpr long kBoundMiB = test_support::kAddressSanitizer ? 1400 : 900;
  EXPECT_LT(peak_rss_mib(), kBoundMiB);
  const auto skipped = std::find_if(analysis.skipped.begin(), analysis.skipped.end(),
                                    [](const SkippedFile& s) { return s.path == "generated.py"; });
  EXPECT_NE(skipped, analysis.skipped.end());
  EXPECT_TRUE(test::has_edge(analysis.graph, Relation::Calls, "app.py:main", "app.py:k"));
  const EntityIndex file = find_entity(analysis.graph, "generated.py");
  ASSERT_NE(file, kNoEntity);
  for (const FileInfo& info : analysis.graph.files) {
    if (info.entity == file) {
      EXPECT_FALSE(info.taggable);
    }
  }
}

// 100,000 brackets open at once (libtree-sitter 0.20.7 aborted freeing such a tree): the file is
// served untagged; the rest of the repository is analysed as usual.
TEST(ParseBudget, BracketsNestedTooDeepAreNotParsed) {
  EXPECT_FALSE(nests_too_deep_to_parse(std::string(kMaxOpenBrackets, '[')));
  EXPECT_TRUE(nests_too_deep_to_parse(std::string(kMaxOpenBrackets + 1, '(')));
  EXPECT_FALSE(nests_too_deep_to_parse(std::string(kMaxOpenBrackets, '{') + "}" + "{"));
  TempRepo repo;
  repo.write("deep.py", "x = " + std::string(100000, '[') + "\n");
  repo.write("app.py", "def k():\n    return 1\n\n\ndef main():\n    return k()\n");
  const Analysis analysis = repo.analyze(2);
  EXPECT_TRUE(test::has_edge(analysis.graph, Relation::Calls, "app.py:main", "app.py:k"));
  const EntityIndex file = find_entity(analysis.graph, "deep.py");
  ASSERT_NE(file, kNoEntity);
  for (const FileInfo& info : analysis.graph.files) {
    if (info.entity == file) {
      EXPECT_FALSE(info.taggable);
    }
  }
}

// The block-by-block bound that spares long files the ordered scan decides as that scan does:
// brackets open across blocks, closes with none open ignored, depths one either side of the bound.
TEST(ParseBudget, LongFilesAreJudgedByTheDeepestRunOfOpenBrackets) {
  const auto runs = [](std::initializer_list<std::pair<char, int64_t>> parts) {
    std::string text;
    for (const auto& [c, n] : parts) text.append(static_cast<size_t>(n), c);
    return text;
  };
  const int64_t k = kMaxOpenBrackets;
  EXPECT_TRUE(nests_too_deep_to_parse(runs({{'}', 5000}, {'(', k + 1}})));
  EXPECT_FALSE(nests_too_deep_to_parse(runs({{'}', 5000}, {'(', k}})));
  EXPECT_TRUE(nests_too_deep_to_parse(runs({{'(', 30000}, {')', 10000}, {'[', k - 19999}})));
  EXPECT_FALSE(nests_too_deep_to_parse(runs({{'(', 30000}, {')', 10001}, {'[', k - 19999}})));
  EXPECT_TRUE(nests_too_deep_to_parse(runs({{'x', 7000}, {'{', k / 2}, {'y', 9999}, {'{', k / 2 + 1}})));
  // A long bracket-dense file that never nests deep (a generated bundle's shape).
  std::string flat;
  for (int i = 0; i < 60000; ++i) flat += "f(a[{b: c}]);\n";
  EXPECT_FALSE(nests_too_deep_to_parse(flat));
  EXPECT_TRUE(nests_too_deep_to_parse(flat + std::string(static_cast<size_t>(k) + 1, '(')));
}

// Real code of the same size class stays well inside its budget and is analysed in full.
TEST(ParseBudget, OrdinaryLargeModuleParsesInFull) {
  TempRepo repo;
  std::string code;
  for (int i = 0; i < 4000; ++i) {
    code += "class Shape" + std::to_string(i) + "(Base):\n    def area(self, x, y=2):\n" +
            "        return helper(x, y) + [a * b for a, b in zip(x, y)][0]\n\n\n";
  }
  code += "class Base:\n    pass\n\n\ndef helper(x, y):\n    return x\n";
  repo.write("shapes.py", code);
  const Analysis analysis = repo.analyze(2);
  EXPECT_TRUE(analysis.skipped.empty());
  EXPECT_TRUE(test::has_edge(analysis.graph, Relation::Calls, "shapes.py:Shape3999.area",
                             "shapes.py:helper"));
}

}  // namespace
}  // namespace anchorfs::analysis
