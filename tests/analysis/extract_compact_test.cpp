// Python extraction keeps facts small: what it drops, shares and splices
// (analysis/python/fact_sink.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/python/facts.h"
#include "analysis/python/extract.h"
#include "temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

// These tests read the Python front end's own facts.
using namespace python;  // NOLINT(google-build-using-namespace)

std::vector<Stmt> stmts_of(const FileFacts& f, StmtKind kind) {
  std::vector<Stmt> out;
  for (const Stmt& s : f.stmts) {
    if (s.kind == kind) out.push_back(s);
  }
  return out;
}

std::vector<ExprKind> list_kinds(const FileFacts& f, const Expr& e) {
  std::vector<ExprKind> out;
  for (uint32_t i = 0; i < e.list_count; ++i)
    out.push_back(f.exprs[f.lists[e.list_begin + i]].kind);
  return out;
}

bool has_string(const FileFacts& f, std::string_view s) {
  return std::find(f.strings.begin(), f.strings.end(), s) != f.strings.end();
}

TEST(ExtractCompact, ValuesEvaluatedOnlyForNothingAreDropped) {
  const FileFacts f = extract_python(
      "x.only_read_here\n"
      "1 + 2 * y\n"
      "z[k]\n"
      "assert a == b, 'message'\n");
  EXPECT_TRUE(stmts_of(f, StmtKind::Evaluate).empty());
  EXPECT_FALSE(has_string(f, "only_read_here"));  // rolled back with its expression
  EXPECT_TRUE(facts_are_consistent(f));
}

TEST(ExtractCompact, CallsInEvaluatedValuesAreKept) {
  const FileFacts f = extract_python(
      "1 + g(x)\n"
      "z[h(1)]\n");
  const std::vector<Stmt> evaluated = stmts_of(f, StmtKind::Evaluate);
  ASSERT_EQ(evaluated.size(), 2u);
  EXPECT_EQ(list_kinds(f, f.exprs[evaluated[0].b]), std::vector{ExprKind::Call});
  const Expr& subscript = f.exprs[evaluated[1].b];
  ASSERT_EQ(subscript.kind, ExprKind::Subscript);
  EXPECT_EQ(list_kinds(f, subscript), std::vector{ExprKind::Call});
  EXPECT_TRUE(facts_are_consistent(f));
}

TEST(ExtractCompact, WalrusInADroppedOperandStillAssigns) {
  const FileFacts f = extract_python("(y := 1) + 2\n");
  const std::vector<Stmt> assigns = stmts_of(f, StmtKind::Assign);
  ASSERT_EQ(assigns.size(), 1u);
  EXPECT_EQ(f.strings[f.exprs[assigns[0].a].str], "y");
  EXPECT_TRUE(facts_are_consistent(f));
}

TEST(ExtractCompact, OperatorChainsAreOneOpaqueExpression) {
  const FileFacts f = extract_python("v = a*f(x) + b*g(y) - c*h(z)\n");
  const std::vector<Stmt> assigns = stmts_of(f, StmtKind::Assign);
  ASSERT_EQ(assigns.size(), 1u);
  const Expr& value = f.exprs[assigns[0].b];
  ASSERT_EQ(value.kind, ExprKind::Opaque);
  EXPECT_EQ(list_kinds(f, value), (std::vector{ExprKind::Call, ExprKind::Call, ExprKind::Call}));
  EXPECT_EQ(std::count_if(f.exprs.begin(), f.exprs.end(),
                          [](const Expr& e) { return e.kind == ExprKind::Opaque; }),
            1);
}

TEST(ExtractCompact, NamesAreSharedWithinAScopeOnly) {
  const FileFacts f = extract_python(
      "p = b\n"
      "q = b\n"
      "def fn():\n"
      "    return b\n");
  const std::vector<Stmt> assigns = stmts_of(f, StmtKind::Assign);
  ASSERT_EQ(assigns.size(), 2u);
  EXPECT_EQ(assigns[0].b, assigns[1].b);
  const std::vector<Stmt> returns = stmts_of(f, StmtKind::Return);
  ASSERT_EQ(returns.size(), 1u);
  EXPECT_NE(returns[0].b, assigns[0].b);
  EXPECT_EQ(f.strings[f.exprs[returns[0].b].str], "b");
}

TEST(ExtractCompact, FactsAreExactlySizedAndRepeatable) {
  const std::string source =
      "import os\nfor i in range(3):\n    print(os.path.join('a', str(i)))\n";
  const FileFacts first = extract_python(source);
  extract_python("def other(): return [x for x in y if g(x)]\n");  // reuses the thread's buffers
  const FileFacts again = extract_python(source);
  EXPECT_EQ(first, again);
  EXPECT_EQ(again.exprs.capacity(), again.exprs.size());
  EXPECT_EQ(again.lists.capacity(), again.lists.size());
  EXPECT_EQ(again.stmts.capacity(), again.stmts.size());
}

TEST(ExtractCompact, LongOperatorChainsStillCountAgainstTheNestingLimit) {
  // Operands are skipped unwalked only when short: a sum nested past kMaxNesting is noticed.
  std::string sum = "x = a";
  for (int i = 0; i < python::kMaxNesting + 50; ++i) sum += " + a";
  const FileFacts f = extract_python(sum + "\nassert " + sum.substr(4) + "\n");
  EXPECT_FALSE(f.parsed_cleanly);
  EXPECT_TRUE(facts_are_consistent(f));
}

TEST(ExtractCompact, SerializedDeltasRoundTripAnyOrder) {
  // References far back, list starts out of order (scope lists sit between expression lists),
  // large ids: the delta encoding must give every value back exactly.
  FileFacts f;
  f.strings = {"", "a", "b"};
  f.scopes.resize(1);
  f.scopes[0].name = 0;
  f.lists = {0, 1, 1, 0, 3};
  f.scopes[0].decorators_begin = 3;
  f.scopes[0].decorators_count = 2;
  f.exprs = {{ExprKind::Name, kNone, 1, 5, 0},
             {ExprKind::Name, kNone, 2, 5, 0},
             {ExprKind::Call, 0, kNone, 0, 2},
             {ExprKind::Opaque, kNone, kNone, 2, 1},
             {ExprKind::Definition, 0, kNone, 5, 0}};
  f.stmts = {{StmtKind::Evaluate, 0, kNone, 3, kNone},
             {StmtKind::Assign, 0, 0, 2, kNone},
             {StmtKind::ImportFrom, 0, 1, 2, 1},
             {StmtKind::Return, 0, kNone, 0, kNone}};
  ASSERT_TRUE(facts_are_consistent(f));
  const std::string bytes = serialize_facts(f);
  const auto back = deserialize_facts(bytes);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, f);
  EXPECT_EQ(serialize_facts(*back), bytes);
}

}  // namespace
}  // namespace anchorfs::analysis::test
