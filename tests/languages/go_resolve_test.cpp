// Go resolution over many files: files resolve side by side, and the edges are the same whatever
// the thread count (calls, methods through typed receivers, imports across packages).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/languages/language_support.h"

namespace anchorfs::languages_test {
namespace {

using analysis::test::TempRepo;

// Packages a/ and b/ of module example.com/m, `files` files each: a's file i calls its
// neighbour's function, a method of b's type through a typed local, and b's function i.
void write_module(const TempRepo& repo, int files) {
  repo.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  for (int i = 0; i < files; ++i) {
    const std::string n = std::to_string(i);
    const std::string next = std::to_string((i + 1) % files);
    repo.write("b/b" + n + ".go", "package b\n\ntype T" + n + " struct{}\n\nfunc (t *T" + n +
                                      ") Get() int { return " + n + " }\n\nfunc G" + n +
                                      "() int { return " + n + " }\n");
    repo.write("a/a" + n + ".go", "package a\n\nimport \"example.com/m/b\"\n\nfunc F" + n +
                                      "() int {\n\tvar t b.T" + n + "\n\treturn F" + next +
                                      "() + t.Get() + b.G" + n + "()\n}\n");
  }
}

TEST(GoResolve, ManyFilesGiveTheSameEdgesWhateverTheThreadCount) {
  TempRepo repo;
  constexpr int kFiles = 60;
  write_module(repo, kFiles);
  const std::vector<std::string> one = edge_lines(repo.analyze(1).graph);
  const std::vector<std::string> two = edge_lines(repo.analyze(2).graph);
  EXPECT_EQ(one, two);
  // Not vacuous: every file's three calls and its import were resolved.
  for (const std::string n : {"0", "17", "59"}) {
    const std::string next = n == "59" ? "0" : std::to_string(std::stoi(n) + 1);
    for (const std::string& edge :
         {"a/a" + n + ".go:F" + n + " calls a/a" + next + ".go:F" + next,
          "a/a" + n + ".go:F" + n + " calls b/b" + n + ".go:T" + n + ".Get",
          "a/a" + n + ".go:F" + n + " calls b/b" + n + ".go:G" + n,
          "a/a" + n + ".go imports b/b" + n + ".go"}) {
      EXPECT_TRUE(std::find(two.begin(), two.end(), edge) != two.end()) << edge;
    }
  }
}

}  // namespace
}  // namespace anchorfs::languages_test
