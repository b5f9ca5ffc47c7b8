// Java resolution over many files: typed names and call sites resolve file by file on several
// threads, and the edges are the same whatever the thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/languages/language_support.h"

namespace anchorfs::languages_test {
namespace {

using analysis::test::TempRepo;

// Package p: a base class and `files` classes B<i> deriving from it, each with an overload pair
// and a method returning itself. Package q: A<i>, which reaches B<i> through an on-demand import
// (a use recorded by a lookup, not a declaration) and calls through a typed local, a `var`
// typed by a call chain, an overload chosen by argument type, an inherited method, and its
// neighbour A<i+1>.
void write_packages(const TempRepo& repo, int files) {
  repo.write("src/p/Base.java", "package p;\n\npublic class Base {\n"
                                "  public int base() { return 0; }\n}\n");
  for (int i = 0; i < files; ++i) {
    const std::string n = std::to_string(i);
    const std::string next = std::to_string((i + 1) % files);
    repo.write("src/p/B" + n + ".java",
               "package p;\n\npublic class B" + n + " extends Base {\n"
               "  public B" + n + " self() { return this; }\n"
               "  public int twice() { return 2; }\n"
               "  public int pick(int x) { return x; }\n"
               "  public int pick(String s) { return " + n + "; }\n}\n");
    repo.write("src/q/A" + n + ".java",
               "package q;\n\nimport p.*;\n\npublic class A" + n + " {\n"
               "  public int run() {\n"
               "    B" + n + " b = new B" + n + "();\n"
               "    var c = b.self();\n"
               "    return c.twice() + b.pick(\"x\") + b.base() + new A" + next + "().run();\n"
               "  }\n}\n");
  }
}

TEST(JavaResolve, ManyFilesGiveTheSameEdgesWhateverTheThreadCount) {
  TempRepo repo;
  constexpr int kFiles = 60;
  write_packages(repo, kFiles);
  const std::vector<std::string> one = edge_lines(repo.analyze(1).graph);
  const std::vector<std::string> two = edge_lines(repo.analyze(2).graph);
  EXPECT_EQ(one, two);
  // Not vacuous: every kind of edge above was resolved, on files spread over the tree.
  for (const std::string n : {"0", "23", "59"}) {
    const std::string next = n == "59" ? "0" : std::to_string(std::stoi(n) + 1);
    const std::string a = "src/q/A" + n + ".java";
    const std::string b = "src/p/B" + n + ".java";
    for (const std::string& edge :
         {a + ":A" + n + ".run calls " + b + ":B" + n,  // its implicit constructor
          a + ":A" + n + ".run calls " + b + ":B" + n + ".self",
          a + ":A" + n + ".run calls " + b + ":B" + n + ".twice",
          a + ":A" + n + ".run calls " + b + ":B" + n + ".pick",
          a + ":A" + n + ".run calls src/p/Base.java:Base.base",
          a + ":A" + n + ".run calls src/q/A" + next + ".java:A" + next + ".run",
          a + " imports " + b, b + ":B" + n + " inherits src/p/Base.java:Base"}) {
      EXPECT_TRUE(std::find(two.begin(), two.end(), edge) != two.end()) << edge;
    }
  }
}

}  // namespace
}  // namespace anchorfs::languages_test
