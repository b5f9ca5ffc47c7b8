// C and C++ tags: blocks never land inside a macro definition or its continuation lines, a
// comment, a string or raw string, nor between `template <...>` or an attribute and its
// declaration; doc comments stay attached; every view strips back to the original bytes and
// parses to the same syntax tree; `.h` files take the dialect their own text shows.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/cfamily/grammar.h"
#include "analysis/cfamily/lexical.h"
#include "analysis/language.h"
#include "tests/languages/language_support.h"

namespace anchorfs::languages_test {
namespace {

using analysis::test::TempRepo;

constexpr std::string_view kHeader = R"(#ifndef LIST_H
#define LIST_H

struct node {
	struct node *next;
	int value;
};

#define for_each_node(pos, head) \
	for (pos = (head); pos; \
	     pos = pos->next)

/**
 * list_length() - counts nodes.
 * @head: the first node
 */
int list_length(struct node *head);

static inline int list_empty(const struct node *head)
{
	return head == 0;
}

#endif
)";

constexpr std::string_view kSource = R"(#include "list.h"

static const char *banner = "not // a comment\
int fake(void) {}";

int list_length(struct node *head)
{
	struct node *pos;
	int n = 0;

	for_each_node(pos, head)
		n++;
	return n;
}

#if defined(BIG)
int list_sum(struct node *head)
{
	return list_length(head) * 2;
}
#else
int list_sum(struct node *head)
{
	return list_empty(head) ? 0 : list_length(head);
}
#endif

__attribute__((unused))
static int twice(int x) { return 2 * x; }

/* A prototype spread over lines. */
int
list_first(struct node *head)
{
	return head ? twice(head->value) : 0;
}
)";

constexpr std::string_view kCpp = R"(#include <string>

namespace shop {

// A priced thing.
class Item {
 public:
  explicit Item(int price) : price_(price) {}
  int price() const { return price_; }
  [[nodiscard]] int doubled() const { return price() * 2; }

 private:
  int price_;
};

template <typename T>
T cheaper(const T& a, const T& b) {
  return a.price() < b.price() ? a : b;
}

const char* kText = R"x(
int not_a_function() {}
)x";

}  // namespace shop

int total(const shop::Item& a) {
  shop::Item b(3);
  return shop::cheaper(a, b).price() + b.doubled();
}
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

// The line following each line that satisfies `pred`.
template <typename Pred>
std::vector<std::string> lines_after(std::string_view text, Pred pred) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::string> after;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    if (pred(lines[i])) after.push_back(lines[i + 1]);
  }
  return after;
}

// `text` without the `//` lines the fixtures do not have themselves (tag lines).
std::string without_tag_lines(std::string_view text) {
  std::string out;
  for (const std::string& line : lines_of(text)) {
    if (line.find_first_not_of(" \t") != std::string::npos &&
        std::string_view(line).substr(line.find_first_not_of(" \t")).starts_with("//")) {
      continue;
    }
    out += line + "\n";
  }
  return out;
}

const TSLanguage* grammar_for(std::string_view path) {
  return path.ends_with(".cpp") ? tree_sitter_cpp() : tree_sitter_c();
}

class CTags : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write("list.h", kHeader);
    repo_.write("list.c", kSource);
    repo_.write("shop.cpp", kCpp);
    repo_.write("empty.c", "");
    repo_.write("crlf.c",
                "static int one(void)\r\n{\r\n\treturn 1;\r\n}\r\n\r\nint "
                "two(void)\r\n{\r\n\treturn one() + one();\r\n}\r\n");
  }
  TempRepo repo_;
};

TEST_F(CTags, EveryViewStripsToTheOriginalAndParsesToTheSameTree) {
  const analysis::Analysis result = repo_.analyze();
  expect_tags_change_no_program(repo_.root(), result.graph, "c", grammar_for);
}

TEST_F(CTags, BlocksKeepMacrosTemplatesAttributesAndDocCommentsWhole) {
  const analysis::Analysis result = repo_.analyze();
  for (render::Style style : {render::Style::Paper, render::Style::Lean}) {
    render::ViewOptions options;
    options.style = style;
    const std::map<std::string, std::string> tagged =
        tagged_files(repo_.root(), result.graph, options);
    const std::string& header = tagged.at("list.h");
    const std::string& source = tagged.at("list.c");
    const std::string& cpp = tagged.at("shop.cpp");
    EXPECT_NE(source, kSource) << "the fixture gets tags";
    EXPECT_NE(cpp, kCpp);
    auto continued = [](const std::string& line) { return line.ends_with("\\"); };
    EXPECT_EQ(lines_after(header, continued), lines_after(kHeader, continued)) << header;
    EXPECT_EQ(lines_after(source, continued), lines_after(kSource, continued)) << source;
    auto opens = [](std::string_view prefix) {
      return [prefix](const std::string& line) {
        const size_t start = line.find_first_not_of(" \t");
        return start != std::string::npos &&
               std::string_view(line).substr(start).starts_with(prefix);
      };
    };
    EXPECT_EQ(lines_after(cpp, opens("template <")), lines_after(kCpp, opens("template <")));
    EXPECT_EQ(lines_after(source, opens("__attribute__")),
              lines_after(kSource, opens("__attribute__")));
    // Each branch's definition keeps its block inside the branch: with tag lines removed the
    // directives are followed by what followed them, and the #else branch holds a block.
    EXPECT_EQ(lines_after(without_tag_lines(source), opens("#if")),
              lines_after(kSource, opens("#if")));
    EXPECT_EQ(lines_after(without_tag_lines(source), opens("#else")),
              lines_after(kSource, opens("#else")));
    const size_t branch = source.find("#else\n");
    ASSERT_NE(branch, std::string::npos);
    EXPECT_NE(source.substr(branch, source.find("#endif") - branch).find("// "), std::string::npos);
    // The kernel-doc comment still sits directly above its prototype, the tag block above both.
    EXPECT_NE(header.find(" * @head: the first node\n */\nint list_length("), std::string::npos)
        << header;
    EXPECT_NE(source.find("\"not // a comment\\\nint fake(void) {}\";"), std::string::npos);
    EXPECT_NE(cpp.find("R\"x(\nint not_a_function() {}\n)x\""), std::string::npos);
  }
}

TEST_F(CTags, EntitiesOfBothDialectsAndTheirEdges) {
  const analysis::Analysis result = repo_.analyze();
  const analysis::Graph& graph = result.graph;
  for (const char* id :
       {"list.h:node", "list.h:for_each_node", "list.h:list_empty", "list.c:list_sum",
        "list.c:twice", "list.c:list_first", "shop.cpp:shop", "shop.cpp:shop.Item",
        "shop.cpp:shop.Item.Item", "shop.cpp:shop.Item.doubled", "shop.cpp:shop.cheaper",
        "shop.cpp:total", "crlf.c:two"}) {
    EXPECT_NE(analysis::test::find_entity(graph, id), analysis::kNoEntity) << id;
  }
  const std::vector<std::string> edges = edge_lines(graph);
  for (const char* edge :
       {"list.c imports list.h", "list.c:list_length calls list.h:for_each_node",
        "list.c:list_first calls list.c:twice",
        "shop.cpp:shop.Item.doubled calls shop.cpp:shop.Item.price",
        "shop.cpp:total calls shop.cpp:shop.Item.Item",
        "shop.cpp:total calls shop.cpp:shop.cheaper",
        "shop.cpp:total calls shop.cpp:shop.Item.doubled", "crlf.c:two calls crlf.c:one"}) {
    EXPECT_NE(std::find(edges.begin(), edges.end(), edge), edges.end()) << edge;
  }
  // The two list_sum definitions are alternatives of one #if: a call to list_sum would get none,
  // and list_length's calls from both are kept.
  EXPECT_EQ(std::count(edges.begin(), edges.end(), "list.c:list_sum calls list.c:list_length"), 1);
}

TEST(CHeaderDialect, AHeaderIsCppWhenItsOwnTokensSaySo) {
  using analysis::cfamily::looks_like_cpp;
  EXPECT_TRUE(looks_like_cpp("namespace a {\nint f();\n}\n"));
  EXPECT_TRUE(looks_like_cpp("template <typename T> T id(T x);\n"));
  EXPECT_TRUE(looks_like_cpp("class A : public B {\n public:\n  A();\n};\n"));
  EXPECT_TRUE(looks_like_cpp("struct S {\n private:\n  int x;\n};\n"));
  // The kernel's C: asm clobber lists, `new` and `class` as names, C++ words in comments,
  // strings and directives.
  EXPECT_FALSE(
      looks_like_cpp("static inline void barrier(void) { asm volatile(\"\" ::: \"memory\"); }\n"));
  EXPECT_FALSE(looks_like_cpp("int f(struct page *new, int class);\n"));
  EXPECT_FALSE(looks_like_cpp("/* class A { public: }; */\nconst char *s = \"namespace x {\";\n"));
  EXPECT_FALSE(looks_like_cpp("#define DECLARE(name) class name {\nint x;\n"));
  EXPECT_FALSE(looks_like_cpp("#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n"));
}

TEST(CLexical, LineStartsInsideLiteralsCommentsAndContinuationsAreUnsafe) {
  using analysis::cfamily::unsafe_line_starts;
  const std::vector<bool> unsafe = unsafe_line_starts(
      "int a;\n/* x\ny */\n#define M \\\n  1\nconst char *s = R\"(\nq)\";\n// c \\\nd\nint b;\n",
      true);
  const std::vector<bool> expected = {false, false, true, false, true, false,
                                      true,  false, true, false, false};
  EXPECT_EQ(unsafe, expected);
}

// The scan skips a code line's ordinary bytes a block at a time; a `'` still reads the number
// state those bytes set: a digit separator opens no character literal, a quote after a name does.
TEST(CLexical, AQuoteIsADigitSeparatorOnlyInsideANumber) {
  using analysis::cfamily::unsafe_line_starts;
  // `1'000` is one number: the `/*` after it opens a comment that line 1 continues.
  EXPECT_EQ(unsafe_line_starts("int a = 1'000; /* c\n*/ int b;\n", true),
            (std::vector<bool>{false, true, false}));
  // `x1'/*'` is a name and a character literal holding `/*`: no comment.
  EXPECT_EQ(unsafe_line_starts("int y = f(x1'/*');\nint z;\n", false),
            (std::vector<bool>{false, false, false}));
  // A number on an earlier line leaves no state behind: `'` opens a literal again.
  EXPECT_EQ(unsafe_line_starts("int a = 1\n'/*';\nint b;\n", false),
            (std::vector<bool>{false, false, false, false}));
}

TEST(CHeaderDialect, ADirectiveCarriedOnByACommentOrABackslashHidesItsWords) {
  using analysis::cfamily::looks_like_cpp;
  EXPECT_FALSE(looks_like_cpp("#define A /* c\n*/ class B {};\n"));
  EXPECT_FALSE(looks_like_cpp("#define A \\\n  class B {};\n"));
  EXPECT_TRUE(looks_like_cpp("#define A 1\nclass B {};\n"));
  EXPECT_TRUE(looks_like_cpp("/* # */ int x;\nclass B {};\n"));
}

TEST(CLexical, AFunctionLikeMacroHeadIsReadAsThePreprocessorReadsIt) {
  using analysis::cfamily::function_like_macro;
  const auto err = function_like_macro("  # define dev_err(dev, fmt, ...) \\");
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->name, "dev_err");
  EXPECT_EQ(err->arity, 2u);
  EXPECT_TRUE(err->variadic);
  const auto gnu = function_like_macro("#define pr(fmt, args...) printk(fmt, ##args)");
  ASSERT_TRUE(gnu.has_value());
  EXPECT_EQ(gnu->arity, 2u);
  EXPECT_TRUE(gnu->variadic);
  const auto none = function_like_macro("#define barrier() asm volatile(\"\")");
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->arity, 0u);
  EXPECT_FALSE(none->variadic);
  EXPECT_FALSE(function_like_macro("#define WIDTH (8)"));  // object-like: a space before `(`
  EXPECT_FALSE(function_like_macro("#define F(a, 1) a"));
  EXPECT_FALSE(function_like_macro("#undef F"));
  EXPECT_FALSE(function_like_macro("int definef(int a);"));
}

TEST(CHostile, DeepNestingIsServedUntaggedAndGarbageWithoutCrashing) {
  TempRepo repo;
  std::string deep = "int f(void) { return ";
  deep += std::string(3000, '(') + "1" + std::string(3000, ')') + "; }\n";
  repo.write("deep.c", deep);
  repo.write("garbage.c", "\xff}{)(struct (( #define \\\n\xfe\xff");
  repo.write("garbage.cpp", "template <<<< class ::: R\"(unterminated");
  const analysis::Analysis result = repo.analyze();
  for (const analysis::FileInfo& file : result.graph.files) {
    if (result.graph.id(file.entity) == "deep.c") {
      EXPECT_FALSE(file.taggable);
    }
  }
  expect_tags_change_no_program(repo.root(), result.graph, "c", grammar_for);
}

// Test code is a file under a test directory (at the top or anywhere below) or one whose stem
// ends in _test or _unittest; a directory merely named like one (latest/, contest/) is not.
TEST(CTestPaths, TestDirectoriesAndStemsOnly) {
  const analysis::LanguageFrontEnd* c = analysis::front_end_named("c");
  ASSERT_NE(c, nullptr);
  for (const std::string_view path :
       {"test/a.c", "tests/a.c", "testing/x.h", "unittests/y.cc", "lib/test/a.c",
        "tools/testing/selftests/bpf/x.c", "src/unittests/deep/z.cpp", "lib/list_test.c",
        "src/map_unittest.cc", "a_test.h"}) {
    EXPECT_TRUE(c->is_test_path(path)) << path;
  }
  for (const std::string_view path :
       {"kernel/sched/core.c", "latest/a.c", "contest/b.c", "lib/mytests/c.c", "x/tests.c",
        "test.c", "lib/testing.c", "a_test_helpers.c", "attest/x.c"}) {
    EXPECT_FALSE(c->is_test_path(path)) << path;
  }
}

}  // namespace
}  // namespace anchorfs::languages_test
