// apply/strip: linear splicing, and strip(apply(x)) == x on tricky texts.
#include <gtest/gtest.h>

#include <stdexcept>

#include "graph_builder.h"
#include "render/delimiter.h"
#include "render/tag_plan.h"
#include "render/view.h"
#include "render_helpers.h"

namespace anchorfs::render::testing {
namespace {

const std::string kBlock =
    "# === Function Annotation ===\n# function: a.py:f\n# CALLS: g\n# === Function Annotation "
    "===\n";

TEST(Apply, InsertsAtStartMiddleAndEnd) {
  TagPlan plan;
  plan.insertions = {{0, "<A>"}, {3, "<B>"}, {3, "<C>"}, {6, "<D>"}};
  EXPECT_EQ(render::apply("abcdef", plan), "<A>abc<B><C>def<D>");
  EXPECT_EQ(plan.added_bytes(), 12u);
  EXPECT_EQ(render::apply("abcdef", TagPlan{}), "abcdef");
  TagPlan at_end;
  at_end.insertions = {{0, "x"}};
  EXPECT_EQ(render::apply("", at_end), "x");
}

TEST(Apply, RejectsUnsortedOrOutOfRangePlans) {
  TagPlan unsorted;
  unsorted.insertions = {{4, "a"}, {2, "b"}};
  EXPECT_THROW(render::apply("abcdef", unsorted), std::invalid_argument);
  TagPlan beyond;
  beyond.insertions = {{7, "a"}};
  EXPECT_THROW(render::apply("abcdef", beyond), std::invalid_argument);
}

TEST(Strip, RemovesBlocksWithTheirTerminators) {
  EXPECT_EQ(strip(kBlock + "def f():\n    g()\n"), "def f():\n    g()\n");
  std::string crlf =
      "    # === Class Annotation ===\r\n    # class: a.py:K\r\n"
      "    # === Class Annotation ===\r\n    class K: pass\r\n";
  EXPECT_EQ(strip(crlf), "    class K: pass\r\n");
  std::string cr =
      "\t# === File Annotation ===\r\t# file: a.py\r\t# === File Annotation ===\rx=1\r";
  EXPECT_EQ(strip(cr), "x=1\r");
  // A CR block in front of an LF line: the block's last CR and the original LF look like CRLF.
  std::string cr_before_lf = "# === File Annotation ===\r# file: a.py\r# === File Annotation ===\r";
  EXPECT_EQ(strip(cr_before_lf + "\nx=1\n"), "\nx=1\n");
  // The closing delimiter may be the last line, without a terminator.
  EXPECT_EQ(strip("x = 1\n" + kBlock.substr(0, kBlock.size() - 1)), "x = 1\n");
}

TEST(Strip, LeavesLookalikesAlone) {
  // Unclosed, wrong kind, interrupted by code, text on the line, or not a comment.
  std::vector<std::string> texts = {
      "# === Function Annotation ===\n# x\n",
      "# === Function Annotation ===\n# x\n# === Class Annotation ===\n",
      "# === Function Annotation ===\nx = 1\n# === Function Annotation ===\n",
      "# === Function Annotation === \n# === Function Annotation === \n",
      "s = '''\n=== Function Annotation ===\n=== Function Annotation ===\n'''\n",
      "#=== Function Annotation ===\n#=== Function Annotation ===\n",
  };
  for (const std::string& text : texts) {
    EXPECT_EQ(strip(text), text) << text;
  }
}

TEST(Strip, KeepsALeadingByteOrderMark) {
  std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(strip(bom + kBlock + "import os\n"), bom + "import os\n");
}

TEST(Strip, UnclosedDelimiterDoesNotHideALaterBlock) {
  std::string text = "# === Class Annotation ===\n# dangling\n" + kBlock + "pass\n";
  EXPECT_EQ(strip(text), "# === Class Annotation ===\n# dangling\npass\n");
}

TEST(HasTagDelimiter, FindsDelimiterLinesOnly) {
  EXPECT_TRUE(has_tag_delimiter("x\n  # === File Annotation ===\r\ny"));
  EXPECT_TRUE(has_tag_delimiter("\xEF\xBB\xBF# === Class Annotation ==="));
  EXPECT_FALSE(has_tag_delimiter("x = '# === File Annotation ==='\n"));
  EXPECT_FALSE(has_tag_delimiter(""));
  for (BlockKind kind : {BlockKind::Function, BlockKind::Class, BlockKind::File}) {
    const std::string line = "    # " + std::string(delimiter_title(kind)) + "\n";
    EXPECT_TRUE(has_tag_delimiter("def f():\n" + line + "    pass\n")) << line;
    EXPECT_FALSE(has_tag_delimiter("def f():\n    x = 1  " + line)) << line;
  }
}

// Renders a graph whose anchors are computed from `source`, then checks the round trip.
struct RoundTrip {
  std::string source;
  std::string newline;
};

TEST(Strip, RemovesLeanBlocksAndLeavesLookalikes) {
  const std::string lean = "    # @function K.f\n    # CALLS: g\n    # CALLED_BY: h\n";
  EXPECT_EQ(strip(lean + "    def f(self):\n"), "    def f(self):\n");
  EXPECT_EQ(strip("# @file a.py\r# IMPORTED_BY: b.py\r\nx\r\n"), "\nx\r\n");
  // Fields out of contract order, another indent, or a header without a name end the block.
  EXPECT_EQ(strip("# @function f\n# CALLED_BY: h\n# CALLS: g\nx\n"), "# CALLS: g\nx\n");
  EXPECT_EQ(strip("# @function f\n  # CALLS: g\nx\n"), "  # CALLS: g\nx\n");
  EXPECT_EQ(strip("# @function \n# CALLS: g\n"), "# @function \n# CALLS: g\n");
  EXPECT_EQ(strip("# @functions f\n"), "# @functions f\n");
  EXPECT_TRUE(has_tag_delimiter("x = 1\n    # @class K\n"));
  EXPECT_TRUE(has_tag_delimiter("#!/bin/python\n# coding: utf-8\n# CALLS: x\n"));
  EXPECT_FALSE(has_tag_delimiter("a\nb\nc\n# CALLS: x\n"));
  EXPECT_FALSE(has_tag_delimiter("# @property\n@property\n"));
}

// Only lines holding a tag word are checked: a delimiter after thousands of `/** @class */` lines
// (a TypeScript bundle's shape) is found on whichever line ending, and those lines alone are none.
TEST(Strip, FindsADelimiterAmongManyLinesHoldingTagWords) {
  std::string bundle = "\xEF\xBB\xBFvar A = /** @class */ (function () {\n";
  for (int i = 0; i < 5000; ++i) bundle += "    var B = /** @class */ (function (_super) {\r\n  x == y;\r";
  EXPECT_FALSE(has_tag_delimiter(bundle));
  EXPECT_FALSE(has_tag_delimiter(bundle + "x = 1; // @class K\n"));
  for (const std::string_view end : {"\n", "\r\n", "\r", ""}) {
    EXPECT_TRUE(has_tag_delimiter(bundle + "  // @class K" + std::string(end))) << end;
    EXPECT_TRUE(has_tag_delimiter(bundle + "// === Class Annotation ===" + std::string(end))) << end;
    EXPECT_TRUE(has_tag_delimiter(bundle + "x\r# === File Annotation ===" + std::string(end))) << end;
  }
  EXPECT_TRUE(has_tag_delimiter("# @class K"));
  EXPECT_FALSE(has_tag_delimiter("x = 1 # @class K\n# @class"));
}

TEST(Strip, TakesTheSeparatorOfDefinitionBlocksAndOfABlockStartingTheText) {
  const std::string code = "func f() {}\n";
  EXPECT_EQ(strip("// === Function Annotation ===\n// CALLS: g\n// === Function Annotation ===\n\n" +
                  code),
            code);
  EXPECT_EQ(strip("// @function f\n// CALLS: g\n\n" + code), code);
  // Only the block's own terminator: a CR block leaves the "\n" of a following "\r\n".
  EXPECT_EQ(strip("// @function f\r// CALLS: g\r\r\nx\r\n"), "\nx\r\n");
  // A file block starting the text (after a BOM) has one; one further down has none.
  EXPECT_EQ(strip("// @file a.go\n// IMPORTED_BY: b.go\n\n\npackage a\n"), "\npackage a\n");
  EXPECT_EQ(strip("\xEF\xBB\xBF// @file a.go\n// IMPORTED_BY: b.go\n\npackage a\n"),
            "\xEF\xBB\xBFpackage a\n");
  EXPECT_EQ(strip("#!/bin/sh\n# @file a.py\n# IMPORTED_BY: b.py\n\nx\n"), "#!/bin/sh\n\nx\n");
  // Only one empty line goes.
  EXPECT_EQ(strip("    # @function f\n    # CALLS: g\n\n\nx\n"), "\nx\n");
  // A file beginning with empty lines gets its file block below them, where strip takes none.
  EXPECT_TRUE(has_tag_delimiter("\n\n# CALLS: x\n"));
}

TEST(Strip, RoundTripsRenderedPlansOnTrickyTexts) {
  std::string bom = "\xEF\xBB\xBF";
  std::vector<RoundTrip> cases = {
      {"import os\n\nclass K:\n    def f(self):\n        return g()\n\ndef g():\n    pass\n", "\n"},
      {"import os\r\n\r\nclass K:\r\n    def f(self):\r\n        return g()\r\n\r\ndef g():\r\n"
       "    pass",
       "\r\n"},
      {"import os\r\rclass K:\r    def f(self):\r        return g()\r\rdef g():\r    pass\r", "\r"},
      {bom + "import os\nclass K:\n\tdef f(self):\n\t\treturn g()\ndef g():\n\tpass", "\n"},
      {"#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nimport os\nclass K:\n  @staticmethod\n"
       "  def f(self):\n    return g()\ndef g(): pass\n",
       "\n"},
  };
  for (const RoundTrip& c : cases) {
    GraphBuilder b;
    // File block after a BOM, a shebang and an encoding line, as the analysis anchors it.
    Anchor file_anchor = anchor_at(c.source, "import os");
    EntityIndex file = b.file("a.py", file_anchor, c.newline);
    EntityIndex k = b.cls("K", anchor_at(c.source, "class K"));
    EntityIndex f = b.function(
        "K.f",
        anchor_at(c.source, c.source.find("@") != std::string::npos ? "@staticmethod" : "def f"),
        k);
    EntityIndex g = b.function("g", anchor_at(c.source, "def g"));
    b.calls(f, g).calls(file, g);
    b.file("b.py");
    EntityIndex other = b.file("c.py");
    b.edge(other, file, Relation::Imports);
    analysis::Graph graph = b.build();
    for (auto [view, style] : {std::pair{View::Topo, Style::Paper}, {View::Inv, Style::Paper},
                               {View::Dense, Style::Paper}, {View::Topo, Style::Lean},
                               {View::Dense, Style::Lean}}) {
      ViewOptions options;
      options.view = view;
      options.style = style;
      std::vector<TagPlan> plans = render_plans(graph, choose_view(graph, options));
      std::string tagged = render::apply(c.source, plans[0]);
      EXPECT_GT(tagged.size(), c.source.size());
      EXPECT_EQ(tagged.size(), c.source.size() + plans[0].added_bytes());
      EXPECT_EQ(strip(tagged), c.source) << tagged;
      if (c.source.starts_with(bom) && style == Style::Paper) {
        EXPECT_TRUE(tagged.starts_with(bom + "# === File Annotation ===\n")) << tagged;
      }
    }
  }
}

}  // namespace
}  // namespace anchorfs::render::testing

namespace anchorfs::render::testing {
namespace {

// Random texts built from awkward pieces, blocks spliced in at random line starts.
// True when `text` has a line strip could take into a lean block that precedes it.
bool has_field_like_line(std::string_view text) {
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = text.size();
    if (field_line_index(text.substr(pos, end - pos))) return true;
    pos = end + 1;
  }
  return false;
}

TEST(Strip, RoundTripsRandomTextsAndLineStarts) {
  const std::vector<std::string> pieces = {"x = 1",
                                           "    ",
                                           "\t",
                                           "#",
                                           "# ===",
                                           "=== Function Annotation ===",
                                           "\xEF\xBB\xBF",
                                           "\xC3\xA9",
                                           "\r\n",
                                           "\n",
                                           "\r",
                                           "# CALLS: f",
                                           "# @function f",
                                           "  # @class K",
                                           "'''",
                                           "\\",
                                           "class K:",
                                           "  # === Class Annotation",
                                           "Annotation ===",
                                           "\f"};
  const std::vector<std::string> blocks = {
      kBlock,
      "  # === Class Annotation ===\r\n  # class: a.py:K\r\n  # === Class Annotation ===\r\n",
      "\t# === File Annotation ===\r\t# file: a.py\r\t# === File Annotation ===\r",
      "# @function f\n# CALLS: g\n# CALLED_BY: h\n",
      "  # @class K\r\n  # BASE: B\r\n",
      "\t# @file a.py\r\t# IMPORTED_BY: b.py\r"};
  uint64_t state = 12345;
  auto next = [&](uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  int checked = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (uint64_t i = 0, n = next(30); i < n; ++i) text += pieces[next(pieces.size())];
    // Render puts lean blocks above code lines (and the file block within the first three lines,
    // which has_tag_delimiter checks): a field-like comment after a random line start is not
    // a case strip must handle.
    if (has_tag_delimiter(text) || has_field_like_line(text)) continue;
    std::vector<uint64_t> starts = {0};
    for (size_t i = 0; i < text.size(); ++i) {
      bool crlf_middle = text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n';
      if ((text[i] == '\n' || text[i] == '\r') && !crlf_middle) starts.push_back(i + 1);
    }
    // A BOM stays first: nothing goes in front of it.
    if (text.starts_with("\xEF\xBB\xBF")) starts.front() = 3;
    TagPlan plan;
    for (uint64_t start : starts) {
      if (next(2) != 0) continue;
      std::string block = blocks[next(blocks.size())];
      // Front ends never place a block above an empty line where strip would take that line for
      // the block's separator (a definition block, or one starting the text): there, and at
      // random elsewhere, the block is a separated one (TagSyntax::separate_blocks).
      const bool file = block.find("File") != std::string::npos || block.find("@file") != std::string::npos;
      const bool separable = !file || start == starts.front();
      const bool above_empty = start < text.size() && (text[start] == '\n' || text[start] == '\r');
      if (separable && (above_empty || next(2) == 0)) {
        const size_t eol = block.find_first_of("\r\n");
        block += block.compare(eol, 2, "\r\n") == 0 ? "\r\n" : block.substr(eol, 1);
      }
      plan.insertions.push_back({start, block});
    }
    std::string tagged = render::apply(text, plan);
    ASSERT_EQ(strip(tagged), text) << "round " << round;
    ++checked;
  }
  EXPECT_GT(checked, 1500);
}

}  // namespace
}  // namespace anchorfs::render::testing
