// Anchors: where tag blocks may go (file top, above decorators, with indentation) and where not.
#include <gtest/gtest.h>

#include <utility>

#include "analysis/python/text_layout.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

using python::file_anchor;
using python::first_newline;
using python::LineTable;
using python::protected_prefix_end;
using python::statement_anchor;

TEST(FileAnchor, StartOfFileWithoutPreamble) {
  EXPECT_EQ(file_anchor("import os\n"), 0u);
  EXPECT_EQ(file_anchor(""), 0u);
}

TEST(FileAnchor, AfterShebangAndEncoding) {
  EXPECT_EQ(file_anchor("#!/usr/bin/env python\nx = 1\n"), 22u);
  EXPECT_EQ(file_anchor("# -*- coding: utf-8 -*-\nx = 1\n"), 24u);
  EXPECT_EQ(file_anchor("#!/usr/bin/python\n# vim: set fileencoding=latin-1 :\nx\n"), 52u);
  EXPECT_EQ(file_anchor("# a comment\n# coding=utf-8\nx\n"), 27u);
}

TEST(FileAnchor, AfterByteOrderMark) {
  EXPECT_EQ(file_anchor("\xEF\xBB\xBFx = 1\n"), 3u);
  EXPECT_EQ(file_anchor("\xEF\xBB\xBF#!/bin/py\r\nx = 1\r\n"), 14u);
}

TEST(FileAnchor, NoneWhenThePreambleLineIsUnterminated) {
  EXPECT_FALSE(file_anchor("#!/usr/bin/env python").has_value());
  EXPECT_FALSE(file_anchor("# coding: utf-8").has_value());
}

TEST(FileAnchor, NoneWhenLineTwoDeclaresAnEncodingAfterCode) {
  EXPECT_FALSE(file_anchor("x = 1\n# coding: latin-1\n").has_value());
}

TEST(FileAnchor, LoneCarriageReturnsEndLines) {
  EXPECT_EQ(file_anchor("#!/bin/py\rx = 1\r"), 10u);
}

TEST(Newline, FirstTerminatorWins) {
  EXPECT_EQ(first_newline("a\r\nb\n"), "\r\n");
  EXPECT_EQ(first_newline("a\rb\n"), "\r");
  EXPECT_EQ(first_newline("a\nb\r\n"), "\n");
  EXPECT_EQ(first_newline("no terminator"), "\n");
}

TEST(Lines, AllTerminatorsCount) {
  const LineTable lines("a\nb\r\nc\rd");
  EXPECT_EQ(lines.count(), 4u);
  EXPECT_EQ(lines.line_of(0), 1u);
  EXPECT_EQ(lines.line_of(2), 2u);
  EXPECT_EQ(lines.line_of(5), 3u);
  EXPECT_EQ(lines.line_of(7), 4u);
}

TEST(StatementAnchor, LineStartWithIndentation) {
  const std::string text = "class A:\n  \tdef f(self):\n    pass\n";
  const auto anchor = statement_anchor(text, 12, protected_prefix_end(text));
  ASSERT_TRUE(anchor.has_value());
  EXPECT_EQ(anchor->offset, 9u);
  EXPECT_EQ(anchor->indent, "  \t");
}

TEST(StatementAnchor, NoneAfterBackslashContinuation) {
  const std::string text = "x = 1 + \\\n    2\ndef f(): pass\n";
  EXPECT_TRUE(statement_anchor(text, 16, 0).has_value());
  const std::string continued = "\\\ndef f(): pass\n";
  EXPECT_FALSE(statement_anchor(continued, 2, 0).has_value());
}

TEST(StatementAnchor, NoneWhenCodePrecedesOnTheLine) {
  const std::string text = "x = 1; y = 2\n";
  EXPECT_FALSE(statement_anchor(text, 7, 0).has_value());
}

TEST(StatementAnchor, NoneInsideTheProtectedPreamble) {
  const std::string text = "def f(): pass\n# coding: latin-1\n";
  EXPECT_FALSE(statement_anchor(text, 0, protected_prefix_end(text)).has_value());
}

TEST(EntityAnchors, DecoratorsIndentationAndFileBlock) {
  TempRepo repo;
  const std::string source =
      "#!/usr/bin/env python\n"
      "# -*- coding: utf-8 -*-\n"
      "import functools\n"
      "\n"
      "class Shape:\n"
      "    @property\n"
      "    @functools.lru_cache()\n"
      "    def area(self):\n"
      "        return 1\n"
      "\n"
      "    async def grow(self):\n"
      "        f = lambda: 2\n"
      "        return f\n";
  repo.write("pkg/shapes.py", source);
  const Analysis a = repo.analyze();
  const Graph& g = a.graph;
  ASSERT_EQ(g.files.size(), 1u);
  EXPECT_TRUE(g.files[0].taggable);
  EXPECT_EQ(g.files[0].newline, "\n");

  const Entity& file = g.entities[find_entity(g, "pkg/shapes.py")];
  ASSERT_TRUE(file.anchor.has_value());
  EXPECT_EQ(file.anchor->offset, source.find("import"));

  const Entity& shape = g.entities[find_entity(g, "pkg/shapes.py:Shape")];
  ASSERT_TRUE(shape.anchor.has_value());
  EXPECT_EQ(shape.anchor->offset, source.find("class Shape"));
  EXPECT_EQ(shape.anchor->indent, "");
  EXPECT_EQ(shape.line, 5u);

  const Entity& area = g.entities[find_entity(g, "pkg/shapes.py:Shape.area")];
  ASSERT_TRUE(area.anchor.has_value());
  EXPECT_EQ(area.anchor->offset, source.find("    @property"));
  EXPECT_EQ(area.anchor->indent, "    ");
  EXPECT_EQ(area.line, 8u);

  const Entity& grow = g.entities[find_entity(g, "pkg/shapes.py:Shape.grow")];
  ASSERT_TRUE(grow.anchor.has_value());
  EXPECT_EQ(grow.anchor->offset, source.find("    async def"));

  const EntityIndex lambda = find_entity(g, "pkg/shapes.py:Shape.grow.<lambda1>");
  ASSERT_NE(lambda, kNoEntity);
  EXPECT_FALSE(g.entities[lambda].anchor.has_value());
  EXPECT_EQ(g.entities[lambda].kind, EntityKind::Function);
}

TEST(EntityAnchors, CrlfBomAndTabs) {
  TempRepo repo;
  const std::string source =
      "\xEF\xBB\xBF"
      "def f():\r\n\tdef g():\r\n\t\tpass\r\n\treturn g\r\n";
  repo.write("m.py", source);
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(g.files[0].newline, "\r\n");
  ASSERT_TRUE(g.files[0].taggable);
  const Entity& f = g.entities[find_entity(g, "m.py:f")];
  ASSERT_TRUE(f.anchor.has_value());
  EXPECT_EQ(f.anchor->offset, 3u);
  const Entity& inner = g.entities[find_entity(g, "m.py:f.g")];
  ASSERT_TRUE(inner.anchor.has_value());
  EXPECT_EQ(inner.anchor->offset, source.find("\tdef g"));
  EXPECT_EQ(inner.anchor->indent, "\t");
}

// black writes an empty line between a flow-control line and a definition opening its body, and
// none between that line and a comment: such a definition's block goes above the statement.
TEST(EntityAnchors, DefinitionsOpeningFlowControlBodiesAnchorAboveTheStatement) {
  TempRepo repo;
  const std::string source =
      "def f(x):\n"
      "    if x:\n\n        def a():\n            pass\n\n"
      "    else:\n\n        @staticmethod\n        def b():\n            pass\n\n"
      "    while x:\n        # first\n        def c():\n            pass\n\n"
      "        break\n"
      "    for y in x:  # a comment ending in a colon:\n        def d():\n            pass\n"
      "    with x:   \t\n\n        def e():\n            pass\n";
  repo.write("m.py", source);
  const Graph g = repo.analyze().graph;
  for (const char* id : {"m.py:f.a", "m.py:f.b"}) {
    const Entity& e = g.entities[find_entity(g, id)];
    ASSERT_TRUE(e.anchor.has_value()) << id;
    EXPECT_EQ(e.anchor->offset, source.find("    if x:")) << id;
    EXPECT_EQ(e.anchor->indent, "    ") << id;
  }
  // A comment (even one ending in a colon) keeps the block above the definition; white space
  // after the colon does not.
  const std::pair<const char*, const char*> placed[] = {
      {"m.py:f.c", "        def c"}, {"m.py:f.d", "        def d"}, {"m.py:f.e", "    with x:"}};
  for (const auto& [id, above] : placed) {
    const Entity& e = g.entities[find_entity(g, id)];
    ASSERT_TRUE(e.anchor.has_value()) << id;
    EXPECT_EQ(e.anchor->offset, source.find(above)) << id;
  }
}

TEST(EntityAnchors, EntitiesInSourceOrderWithQualifiedNames) {
  TempRepo repo;
  repo.write("a.py",
             "def outer():\n"
             "    def inner():\n"
             "        pass\n"
             "    return lambda: inner()\n"
             "class C:\n"
             "    class D:\n"
             "        def m(self):\n"
             "            return [lambda: 1, lambda: 2]\n");
  const Graph g = repo.analyze().graph;
  std::vector<std::string> ids;
  for (EntityIndex e = 0; e < g.entities.size(); ++e) ids.push_back(g.id(e));
  const std::vector<std::string> expected = {
      "a.py",     "a.py:outer", "a.py:outer.inner",     "a.py:outer.<lambda1>", "a.py:C",
      "a.py:C.D", "a.py:C.D.m", "a.py:C.D.m.<lambda1>", "a.py:C.D.m.<lambda2>"};
  EXPECT_EQ(ids, expected);
  EXPECT_EQ(g.entities[find_entity(g, "a.py:C.D.m")].parent, find_entity(g, "a.py:C.D"));
}

TEST(EntityAnchors, SyntaxErrorsClearOnlyTheAnchorsTheyReach) {
  TempRepo repo;
  repo.write("bad.py", "def ok():\n    pass\n\ndef broken(:\n    pass\n");
  repo.write("lost.py", ")))(((\n");
  const Analysis a = repo.analyze();
  ASSERT_EQ(a.graph.files.size(), 2u);
  EXPECT_TRUE(a.graph.files[0].taggable);
  EXPECT_GT(a.graph.files[0].error_regions, 0u);
  const EntityIndex ok = find_entity(a.graph, "bad.py:ok");
  ASSERT_NE(ok, kNoEntity);
  EXPECT_TRUE(a.graph.entities[ok].anchor.has_value());
  const EntityIndex broken = find_entity(a.graph, "bad.py:broken");
  if (broken != kNoEntity) {
    EXPECT_FALSE(a.graph.entities[broken].anchor.has_value());
  }
  // A file that is one error region has nothing a block could go above.
  const EntityIndex lost = find_entity(a.graph, "lost.py");
  ASSERT_NE(lost, kNoEntity);
  EXPECT_FALSE(a.graph.entities[lost].anchor.has_value());
  EXPECT_TRUE(a.skipped.empty());
}

}  // namespace
}  // namespace anchorfs::analysis::test
