// The brace kit's symbol tables, shared extraction prologue and definition index.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "analysis/code/definition_index.h"
#include "analysis/code/extract.h"
#include "analysis/code/symbols.h"
#include "analysis/code/syntax.h"

extern "C" const TSLanguage* tree_sitter_c();

namespace anchorfs::analysis::code {
namespace {

enum class Kind { Other, Error, Call, Comment, Semicolon };

constexpr SymbolKind<Kind> kNamed[] = {
    {"call_expression", Kind::Call}, {"comment", Kind::Comment}, {";", Kind::Semicolon}};

// Collects the kinds of every node of a C file's tree in document order.
std::vector<Kind> kinds_in(const SymbolTable<Kind>& table, const std::string& source) {
  std::vector<Kind> out;
  const ParsedTree tree(tree_sitter_c(), source);
  EXPECT_TRUE(tree);
  std::vector<TSNode> stack{tree.root()};
  while (!stack.empty()) {
    const TSNode node = stack.back();
    stack.pop_back();
    out.push_back(table.of(node));
    for (uint32_t i = ts_node_child_count(node); i-- > 0;) stack.push_back(ts_node_child(node, i));
  }
  return out;
}

size_t count(const std::vector<Kind>& kinds, Kind k) {
  return static_cast<size_t>(std::count(kinds.begin(), kinds.end(), k));
}

TEST(SymbolTable, NamedNodeTypesMapAndTokensOnlyWhenListed) {
  const std::string source = "// note\nint f(void) { g(); return h(1); }\n";
  const SymbolTable<Kind> plain(tree_sitter_c(), kNamed, Kind::Other, Kind::Error);
  const std::vector<Kind> kinds = kinds_in(plain, source);
  EXPECT_EQ(count(kinds, Kind::Call), 2u);
  EXPECT_EQ(count(kinds, Kind::Comment), 1u);
  EXPECT_EQ(count(kinds, Kind::Semicolon), 0u);  // an anonymous token is no node type
  const SymbolTable<Kind> tokens(tree_sitter_c(), kNamed, Kind::Other, Kind::Error, {";"});
  EXPECT_EQ(count(kinds_in(tokens, source), Kind::Semicolon), 2u);
  EXPECT_EQ(plain.of(TSNode{}), Kind::Error);  // a null node
}

TEST(SymbolTable, ErrorNodesTakeTheErrorKind) {
  const SymbolTable<Kind> table(tree_sitter_c(), kNamed, Kind::Other, Kind::Error);
  EXPECT_GE(count(kinds_in(table, "int f( { ]] ) ;;; }}}\n"), Kind::Error), 1u);
  const SymbolTable<Kind> same(tree_sitter_c(), kNamed, Kind::Other);
  EXPECT_EQ(count(kinds_in(same, "int f( { ]] ) ;;; }}}\n"), Kind::Error), 0u);
}

TEST(Extract, WalksOnlyWhatParsesAndSetsTheLayoutAlways) {
  int walks = 0;
  const CodeFacts facts =
      extract("#!/bin/x\r\nint f(void);\r\n",
              {.grammar = tree_sitter_c(), .shebang = true, .errors_clear_anchors = false},
              [&](TSNode, CodeFacts& f) {
                ++walks;
                f.package = "walked";
              });
  EXPECT_EQ(walks, 1);
  EXPECT_TRUE(facts.parsed_cleanly);
  EXPECT_EQ(facts.package, "walked");
  EXPECT_EQ(facts.newline, "\r\n");
  EXPECT_EQ(facts.lines, 2u);
  EXPECT_TRUE(facts.has_file_anchor);
  EXPECT_EQ(facts.file_anchor, 10u);  // below the shebang line
}

// Two files: a.h defines class A { m } and B : A; b.c a function f with a nested lambda.
struct Files {
  CodeFacts a;
  CodeFacts b;
  std::vector<ResolverFile> list;
  static Definition def(EntityKind kind, uint32_t parent, std::string name, std::string role) {
    Definition d;
    d.kind = kind;
    d.parent = parent;
    d.name = std::move(name);
    d.role = std::move(role);
    return d;
  }
  Files() {
    Definition cls_b = def(EntityKind::Class, 0, "B", "class");
    cls_b.bases = {"A"};
    a.definitions = {Definition{}, def(EntityKind::Class, 0, "A", "class"),
                     def(EntityKind::Function, 1, "m", "method"), cls_b};
    b.definitions = {Definition{}, def(EntityKind::Function, 0, "f", "function"),
                     def(EntityKind::Function, 1, "lambda", "function")};
    list = {{"a.h", &a, 10}, {"b.c", &b, 20}};
  }
};

TEST(DefinitionIndex, NumbersEveryDefinitionOnceAcrossFiles) {
  const Files files;
  const DefinitionIndex index(files.list);
  EXPECT_EQ(index.file_count(), 2u);
  const DefId f = index.id(1, 1);
  EXPECT_EQ(DefinitionIndex::raw(f), (uint64_t{1} << 32) | 1u);  // not shifted by file 0's size
  EXPECT_EQ(index.file_of(f), 1u);
  EXPECT_EQ(index.local_of(f), 1u);
  EXPECT_EQ(index.definition(f).name, "f");
  EXPECT_EQ(index.entity(f), 21u);
  EXPECT_EQ(index.parent(index.id(0, 2)), index.id(0, 1));
  EXPECT_TRUE(index.is_file_scope(index.parent(f)));
  const auto is_class = [](const Definition& d) { return d.kind == EntityKind::Class; };
  EXPECT_EQ(index.enclosing(index.id(0, 2), is_class), index.id(0, 1));
  EXPECT_EQ(index.enclosing(index.id(1, 2), is_class), std::nullopt);
}

TEST(DefinitionIndex, BaseSearchStopsAtTheFirstLevelWithMatchesAndSurvivesCycles) {
  const Files files;
  const DefinitionIndex index(files.list);
  const DefId a = index.id(0, 1);
  const DefId b = index.id(0, 3);
  std::vector<DefId> visited;
  // B's base is A, and (a cycle) A's is B.
  const auto bases = [&](DefId c) { return std::vector<DefId>{c == b ? a : b}; };
  const auto method_m = [&](DefId c, std::vector<DefId>& out) {
    visited.push_back(c);
    if (c == a) out.push_back(index.id(0, 2));
  };
  EXPECT_EQ(index.search_bases(b, 16, bases, method_m), std::vector<DefId>{index.id(0, 2)});
  EXPECT_EQ(visited, (std::vector<DefId>{b, a}));
  visited.clear();
  EXPECT_TRUE(index.search_bases(b, 16, bases, method_m, true).empty());  // first level only
  EXPECT_EQ(visited, std::vector<DefId>{b});
  visited.clear();
  const auto nothing = [&](DefId c, std::vector<DefId>&) { visited.push_back(c); };
  EXPECT_TRUE(index.search_bases(b, 16, bases, nothing).empty());
  EXPECT_EQ(visited, (std::vector<DefId>{b, a}));  // each type once
}

}  // namespace
}  // namespace anchorfs::analysis::code
