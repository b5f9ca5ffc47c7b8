// Go tags: where blocks go (above doc comments and //go: directives, never between a cgo
// preamble and `import "C"`), and that every view strips back to the original bytes and parses
// to the same syntax tree.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/go/grammar.h"
#include "render/tag_plan.h"
#include "tests/languages/language_support.h"

namespace anchorfs::languages_test {
namespace {

using analysis::test::TempRepo;

constexpr std::string_view kServer = R"(// Copyright notice.

//go:build linux || darwin

// Package shop sells things.
package shop

import (
	"fmt"
	str "strings"
)

const banner = `line one
func notAFunction() {}
line three`

// Store keeps items.
type Store[K comparable, V any] struct {
	items map[K]V
}

// Put adds an item.
//
//go:noinline
func (s *Store[K, V]) Put(k K, v V) {
	s.items[k] = v
	s.log(k)
}

func (s *Store[K, V]) log(k K) {
	fmt.Println(str.ToUpper(fmt.Sprint(k)), banner)
}

type (
	// Reader reads.
	Reader interface {
		Read() string
	}
	named struct {
		Reader
		name string
	}
)

//go:noinline
func New() *Store[string, int] {
	s := &Store[string, int]{items: map[string]int{}}
	s.Put("a", 1)
	return s
}
)";

constexpr std::string_view kCgo = R"(package shop

/*
#include <stdlib.h>
static int twice(int x) { return 2 * x; }
*/
import "C"

// Twice doubles through C.
func Twice(x int) int {
	return int(C.twice(C.int(x))) + helper()
}

func helper() int { return New().size() }

func (s *Store[K, V]) size() int { return len(s.items) }
)";

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = text.find('\n', begin);
    lines.emplace_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  return lines;
}

// The line following each line that starts with `prefix` (ignoring indentation).
std::vector<std::string> lines_after(std::string_view text, std::string_view prefix) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::string> after;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    const size_t start = lines[i].find_first_not_of(" \t");
    if (start != std::string::npos && std::string_view(lines[i]).substr(start).starts_with(prefix)) {
      after.push_back(lines[i + 1]);
    }
  }
  return after;
}

// The line before each line equal to `line`.
std::vector<std::string> lines_before(std::string_view text, std::string_view line) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::string> before;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i] == line) before.push_back(lines[i - 1]);
  }
  return before;
}

std::string graph_id(const analysis::Graph& graph, const analysis::FileInfo& file) {
  return graph.id(file.entity);
}

class GoTags : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write("go.mod", "module example.com/shop\n\ngo 1.19\n");
    repo_.write("store.go", kServer);
    repo_.write("cgo.go", kCgo);
    repo_.write("empty.go", "package shop\n");
    repo_.write("broken.go", "package shop\n\nfunc broken( {\n");
    repo_.write("bom.go", "\xEF\xBB\xBFpackage shop\n\nfunc bom() int { return helper() }\n");
  }
  TempRepo repo_;
};

TEST_F(GoTags, EveryViewStripsToTheOriginalAndParsesToTheSameTree) {
  const analysis::Analysis result = repo_.analyze();
  expect_tags_change_no_program(repo_.root(), result.graph, "go", tree_sitter_go());
}

TEST_F(GoTags, DirectivesAndTheCgoPreambleKeepTheirNeighbours) {
  const analysis::Analysis result = repo_.analyze();
  for (render::Style style : {render::Style::Paper, render::Style::Lean}) {
    render::ViewOptions options;
    options.style = style;
    const std::map<std::string, std::string> tagged = tagged_files(repo_.root(), result.graph, options);
    const std::string& store = tagged.at("store.go");
    const std::string& cgo = tagged.at("cgo.go");
    EXPECT_NE(store, kServer) << "the fixture gets tags";
    EXPECT_NE(cgo, kCgo);
    EXPECT_EQ(lines_after(store, "//go:"), lines_after(kServer, "//go:")) << store;
    EXPECT_EQ(lines_before(cgo, "import \"C\""), std::vector<std::string>{"*/"}) << cgo;
    // The build constraint still precedes the package clause with only comments before it.
    const size_t constraint = store.find("//go:build");
    ASSERT_NE(constraint, std::string::npos);
    for (const std::string& line : lines_of(std::string_view(store).substr(0, constraint))) {
      EXPECT_TRUE(line.empty() || line.starts_with("//")) << line;
    }
    // The raw string is untouched.
    EXPECT_NE(store.find("const banner = `line one\nfunc notAFunction() {}\nline three`"),
              std::string::npos);
    // The blocks of a grouped type's specs go above the group (a comment between two specs ends
    // gofmt's alignment): none inside the parentheses.
    EXPECT_NE(store.find("\n// DERIVED: named\n"), std::string::npos) << store;
    const size_t group = store.find("\ntype (\n");
    ASSERT_NE(group, std::string::npos);
    const std::string_view inside(store.data() + group, store.find("\n)\n", group) - group);
    EXPECT_EQ(inside.find("// CALL"), std::string_view::npos) << inside;
    EXPECT_EQ(inside.find("// DERIVED"), std::string_view::npos) << inside;
  }
}

// What gofmt and go doc need (issue 27): every block is followed by an empty line, so it joins no
// doc comment; a top-level block follows an empty line (gofmt puts one before a comment after a
// declaration), so `}` then `func` carries its blocks above the run.
constexpr std::string_view kRuns = R"(// Package runs has no license header: its doc comment comes first.
package runs

func a() int {
	return b()
}
func b() int {
	return c()
}
func c() int { return 0 }

// d is documented.
func d() int {
	type local struct{ n int }
	return a() + local{}.n
}

var total = d()
)";

TEST(GoPlacement, BlocksAreSeparatedAndFollowABlankLine) {
  TempRepo repo;
  repo.write("runs.go", kRuns);
  repo.write("user.go", "package runs\n\nfunc user() int { return a() + b() + c() + d() }\n");
  const analysis::Analysis result = repo.analyze();
  for (render::Style style : {render::Style::Paper, render::Style::Lean}) {
    render::ViewOptions options;
    options.style = style;
    const std::string tagged = tagged_files(repo.root(), result.graph, options).at("runs.go");
    EXPECT_EQ(render::strip(tagged), kRuns);
    const std::vector<render::ByteRange> blocks = render::tag_block_ranges(tagged);
    ASSERT_GE(blocks.size(), 5u) << tagged;  // the file, a, b, c, d
    for (const render::ByteRange& block : blocks) {
      EXPECT_EQ(tagged.substr(block.end - 2, 2), "\n\n") << "separated: " << tagged;
      const bool top_level = tagged[block.begin] == '/';
      if (block.begin > 0 && top_level) {
        EXPECT_TRUE(tagged.substr(0, block.begin).ends_with("\n\n")) << tagged;
      }
    }
    // The file block does not join the package doc; b's and c's blocks sit above a's.
    const size_t package_doc = tagged.find("// Package runs");
    ASSERT_NE(package_doc, std::string::npos);
    EXPECT_GT(package_doc, 0u) << "the file block goes above the package doc";
    EXPECT_TRUE(tagged.substr(0, package_doc).ends_with("\n\n")) << tagged;
    const bool paper = style == render::Style::Paper;
    const size_t func_a = tagged.find("func a()");
    for (std::string_view name : {"b", "c"}) {
      const std::string header =
          paper ? "// function: runs.go:" + std::string(name) + "\n" : "// @function " + std::string(name) + "\n";
      EXPECT_LT(tagged.find(header), func_a) << tagged;
    }
    EXPECT_NE(tagged.find("\n}\nfunc b() int {\n"), std::string::npos) << tagged;
  }
}

TEST_F(GoTags, MethodsBelongToTheirTypeAndTheBrokenFileIsServedUnchanged) {
  const analysis::Analysis result = repo_.analyze();
  const analysis::Graph& graph = result.graph;
  EXPECT_NE(analysis::test::find_entity(graph, "store.go:Store.Put"), analysis::kNoEntity);
  EXPECT_NE(analysis::test::find_entity(graph, "store.go:named"), analysis::kNoEntity);
  // Declared in another file than its type: a top-level definition with the same id form.
  const analysis::EntityIndex size = analysis::test::find_entity(graph, "cgo.go:Store.size");
  ASSERT_NE(size, analysis::kNoEntity);
  EXPECT_EQ(graph.entities[size].parent, analysis::test::find_entity(graph, "cgo.go"));
  for (const analysis::FileInfo& file : graph.files) {
    if (graph.id(file.entity) == "broken.go") {  // its one definition is where the error is
      EXPECT_GT(file.error_regions, 0u);
      const analysis::EntityIndex broken = analysis::test::find_entity(graph, "broken.go:broken");
      if (broken != analysis::kNoEntity) {
        EXPECT_FALSE(graph.entities[broken].anchor.has_value());
      }
    }
    if (graph.id(file.entity) == "store.go") {
      EXPECT_TRUE(file.taggable);
    }
  }
}

TEST(GoHostile, DeepChainsAndNestingAreServedWithoutCrashing) {
  TempRepo repo;
  std::string chain = "package deep\n\nfunc f() {\n\tx";
  for (int i = 0; i < 20000; ++i) chain += ".m()";
  chain += "\n}\n";
  std::string parens = "package deep\n\nvar v = ";
  parens += std::string(20000, '(') + "1" + std::string(20000, ')') + "\n";
  repo.write("chain.go", chain);
  repo.write("parens.go", parens);
  repo.write("garbage.go", "\xff}{)(func type ((\xfe\xff");
  const analysis::Analysis result = repo.analyze();
  EXPECT_EQ(result.graph.files.size(), 3u);
  for (const analysis::FileInfo& file : result.graph.files) {
    if (graph_id(result.graph, file) == "parens.go") {
      EXPECT_FALSE(file.taggable);  // deeper than the walk goes: served unchanged
    }
  }
}

}  // namespace
}  // namespace anchorfs::languages_test
