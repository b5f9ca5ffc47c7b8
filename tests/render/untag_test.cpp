// The store rule (render/untag.h): only bytes the view served as tags are removed on store.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "render/line_diff.h"
#include "render/untag.h"

namespace anchorfs::render {
namespace {

const std::string kFunctionBlock =
    "# === Function Annotation ===\n"
    "# function: a.py:f\n"
    "# CALLS: g\n"
    "# === Function Annotation ===\n";
const std::string kClassBlock =
    "    // === Class Annotation ===\n"
    "    // class: A.java:A\n"
    "    // CALLED_BY: B.java:main\n"
    "    // === Class Annotation ===\n";

const std::string kPython = "import os\n\n\ndef f():\n    return g()\n\n\ndef g():\n    return 1\n";

// The plan that puts kFunctionBlock before `def f` (offset 12).
TagPlan python_plan() {
  TagPlan plan;
  plan.insertions = {{12, kFunctionBlock}};
  return plan;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

StoreResult store(const std::string& checkout, const TagPlan& plan, const std::string& written,
                  const ServedBlocks* blocks = nullptr) {
  const FileVersion version{1, 2, checkout.size(), 3, 4};
  return untag_written({.plan = &plan,
                        .served = version,
                        .current = version,
                        .checkout = checkout,
                        .written = written,
                        .appended_from = std::nullopt,
                        .blocks = blocks});
}

std::string stored(const std::string& checkout, const TagPlan& plan, const std::string& written,
                   const ServedBlocks* blocks = nullptr) {
  const StoreResult result = store(checkout, plan, written, blocks);
  EXPECT_EQ(result.status, StoreResult::Status::kStore);
  const std::string bytes = assemble(result, checkout, written);
  // What the writer holds is the stored bytes under the new provenance, always.
  EXPECT_TRUE(result.provenance.has_value());
  if (result.provenance) {
    EXPECT_EQ(render::apply(bytes, *result.provenance), written);
  }
  return bytes;
}

TEST(LineDiff, FindsALongestCommonSubsequence) {
  const std::vector<std::string_view> a{"a", "b", "c", "a", "b", "b", "a"};
  const std::vector<std::string_view> b{"c", "b", "a", "b", "a", "c"};
  const auto pairs = diff_lines(a, b, 100);
  ASSERT_TRUE(pairs.has_value());
  EXPECT_EQ(pairs->size(), 4u);  // the classic example: LCS of length 4
  for (const LinePair& pair : *pairs) EXPECT_EQ(a[pair.a], b[pair.b]);
  EXPECT_FALSE(diff_lines(a, b, 2).has_value());
}

TEST(Untag, TheServedViewStoresTheCheckoutBytes) {
  const TagPlan plan = python_plan();
  EXPECT_EQ(stored(kPython, plan, render::apply(kPython, plan)), kPython);
}

TEST(Untag, AnEditKeepsExactlyItsBytes) {
  const TagPlan plan = python_plan();
  const std::string view = render::apply(kPython, plan);
  EXPECT_EQ(stored(kPython, plan, replaced(view, "return 1", "return 11")),
            replaced(kPython, "return 1", "return 11"));
  // Code inserted between the lines of a block stays, the block goes.
  EXPECT_EQ(stored(kPython, plan, replaced(view, "# CALLS: g\n", "# CALLS: g\nx = 1\n")),
            replaced(kPython, "def f", "x = 1\ndef f"));
  // A block the writer deleted: nothing else lost.
  EXPECT_EQ(stored(kPython, plan, replaced(view, kFunctionBlock, "")), kPython);
}

TEST(Untag, NothingThatOnlyLooksLikeATagIsRemoved) {
  // A README example block and a `# @file` line, served untagged (view none, or any file the
  // view does not tag): every byte stays, edited or not.
  const std::string readme = "# Example\n\n" + kFunctionBlock + "# @file libexample\nend\n";
  EXPECT_EQ(stored(readme, TagPlan{}, readme + "more\n"), readme + "more\n");
  EXPECT_EQ(stored(readme, TagPlan{}, replaced(readme, "end", "END")), replaced(readme, "end", "END"));
  // A new file (nothing served before): its tag-shaped lines are the writer's.
  const TagPlan none;
  const StoreResult created = untag_written({.plan = &none,
                                             .served = std::nullopt,
                                             .current = std::nullopt,
                                             .checkout = "",
                                             .written = readme,
                                             .appended_from = std::nullopt,
                                             .blocks = nullptr});
  EXPECT_EQ(assemble(created, "", readme), readme);
  // A tagged file whose own code holds a tag-shaped string literal: only the served block goes.
  const std::string literal = kPython + "DOC = '''\n" + kFunctionBlock + "'''\n";
  const TagPlan plan = python_plan();
  EXPECT_EQ(stored(literal, plan, replaced(render::apply(literal, plan), "return 1", "return 2")),
            replaced(literal, "return 1", "return 2"));
}

TEST(Untag, ACodeLineJoinedWithATagLineKeepsItsCode) {
  const std::string java = "package p;\n\nclass A {\n" "    int x;\n}\n";
  TagPlan plan;
  plan.insertions = {{22, kClassBlock}};  // after "class A {\n"
  const std::string view = render::apply(java, plan);
  // sed '/class A {/{N;s/\n/ /}'
  const std::string joined = replaced(view, "class A {\n    //", "class A {     //");
  EXPECT_EQ(stored(java, plan, joined), "package p;\n\nclass A {\n    int x;\n}\n");
  // vim's J: the joined line's leading blanks dropped, one space between.
  const std::string j = replaced(view, "class A {\n    //", "class A { //");
  EXPECT_EQ(stored(java, plan, j), java);
  // The last tag line joined with the code line after it.
  const std::string after = replaced(view, "// === Class Annotation ===\n    int x;",
                                     "// === Class Annotation === int x;");
  EXPECT_EQ(stored(java, plan, after), "package p;\n\nclass A {\nint x;\n}\n");
}

TEST(Untag, AnEditedTagLineIsStillATag) {
  const TagPlan plan = python_plan();
  const std::string view = render::apply(kPython, plan);
  EXPECT_EQ(stored(kPython, plan, replaced(view, "# CALLS: g", "# CALLS: g, h")), kPython);
  EXPECT_EQ(stored(kPython, plan, replaced(view, "# function: a.py:f", "# function: a.py:ff")),
            kPython);
  // A line of code in the place of a tag line is code.
  EXPECT_EQ(stored(kPython, plan, replaced(view, "# CALLS: g\n", "print('hello world')\n")),
            replaced(kPython, "def f", "print('hello world')\ndef f"));
}

TEST(Untag, ATruncationInsideABlockLeavesTheCodeBefore) {
  const TagPlan plan = python_plan();
  const std::string view = render::apply(kPython, plan);
  for (size_t cut = 12; cut <= 12 + kFunctionBlock.size(); ++cut) {
    EXPECT_EQ(stored(kPython, plan, view.substr(0, cut)), kPython.substr(0, 12)) << cut;
  }
}

TEST(Untag, AWholeServedBlockCopiedIntoAnotherFileIsRemoved) {
  // cp a.py b.py in the mount: b's writer gets a's view; a's block was served, so it goes.
  const TagPlan a_plan = python_plan();
  ServedBlocks blocks;
  blocks.add(a_plan);
  const std::string b = "x = 1\n";
  TagPlan b_plan;
  b_plan.insertions = {{0, "# === File Annotation ===\n# file: b.py\n# === File Annotation ===\n"}};
  EXPECT_EQ(stored(b, b_plan, render::apply(kPython, a_plan), &blocks), kPython);
  // The same bytes from elsewhere, with no such block served: kept whole.
  EXPECT_EQ(stored(b, b_plan, render::apply(kPython, a_plan)), render::apply(kPython, a_plan));
  // A part of a block is not a block.
  const std::string part = kPython + kFunctionBlock.substr(0, 40);
  EXPECT_EQ(stored(b, b_plan, part, &blocks), part);
}

TEST(Untag, ARewriteFromElsewhereIsAlignedOnlyIfItWasMadeFromTheView) {
  const TagPlan plan = python_plan();
  const std::string view = render::apply(kPython, plan);
  const FileVersion version{1, 2, kPython.size(), 3, 4};
  StoreInput input{.plan = &plan,
                   .served = version,
                   .current = version,
                   .checkout = kPython,
                   .written = "",
                   .appended_from = std::nullopt,
                   .blocks = nullptr,
                   .rewritten = true};
  // cp of a test file whose string literal holds tag-shaped lines over a tagged file: its lines
  // share the view's delimiter lines, but not its code; nothing of it is removed.
  const std::string test = "def test_doc():\n    text = '''\n# === Function Annotation ===\n"
                           "# CALLS: g\n# === Function Annotation ===\n'''\n";
  input.written = test;
  EXPECT_EQ(assemble(untag_written(input), kPython, test), test);
  // An agent's read-edit-write of the view (open 'w'): aligned, edited tag line included.
  const std::string edited = replaced(replaced(view, "# CALLS: g", "# CALLS: g, h"), "return 1", "return 2");
  input.written = edited;
  EXPECT_EQ(assemble(untag_written(input), kPython, edited), replaced(kPython, "return 1", "return 2"));
}

// Found by the editing fuzzer (seed 114): `sed -i` renaming a function in a small file changes
// most of its code lines (the import, the call) and a CALLS line; the block's other lines stay
// where they were, so the file was made from the view and the edited block goes.
TEST(Untag, ASedRenameChangingMostCodeLinesIsStillAlignedByTheBlock) {
  const std::string checkout = "from inner.calc import double\n\n\ndef use():\n    return double(3)\n";
  TagPlan plan;
  plan.insertions = {{checkout.find("def use"),
                      "# === Function Annotation ===\n# function: inner/use.py:use\n"
                      "# CALLS: inner/calc.py:double\n# === Function Annotation ===\n"}};
  const FileVersion version{1, 2, checkout.size(), 3, 4};
  StoreInput input{.plan = &plan,
                   .served = version,
                   .current = version,
                   .checkout = checkout,
                   .written = "",
                   .appended_from = std::nullopt,
                   .blocks = nullptr,
                   .rewritten = true};
  std::string written = render::apply(checkout, plan);
  for (size_t at = 0; (at = written.find("double", at)) != std::string::npos; at += 9) {
    written.replace(at, 6, "double_99");
  }
  input.written = written;
  std::string expected = checkout;
  for (size_t at = 0; (at = expected.find("double", at)) != std::string::npos; at += 9) {
    expected.replace(at, 6, "double_99");
  }
  EXPECT_EQ(assemble(untag_written(input), checkout, written), expected);
}

// Found by the editing fuzzer (seed 101): a note holding a tag-shaped example, copied in and
// renamed over an empty module whose view is its file block only, lost its two delimiter lines
// (each kept half of the served delimiter: "an edited tag line"), as a view without code lines
// counted as "mostly aligned" with anything.
TEST(Untag, ARewriteOverAViewOfTagsOnlyIsAlignedOnlyIfItHoldsOneOfItsLines) {
  const std::string empty;
  TagPlan plan;
  plan.insertions = {{0, "# === File Annotation ===\n# file: pkg/app.py\n"
                         "# IMPORTED_BY: pkg/util.py\n# === File Annotation ===\n"}};
  const std::string view = render::apply(empty, plan);
  const FileVersion version{1, 2, 0, 3, 4};
  StoreInput input{.plan = &plan,
                   .served = version,
                   .current = version,
                   .checkout = empty,
                   .written = "",
                   .appended_from = std::nullopt,
                   .blocks = nullptr,
                   .rewritten = true};
  const std::string note = "# sample\n\n# === Function Annotation ===\n# function: example.py:f\n"
                           "# CALLS: g  # outside\n# === Function Annotation ===\n\nend\n";
  input.written = note;
  EXPECT_EQ(assemble(untag_written(input), empty, note), note);
  // Made from that view (its block kept, an edited line in it, code added): the block goes.
  const std::string edited = replaced(view, "pkg/util.py", "pkg/util.py, pkg/more.py") + "x = 1\n";
  input.written = edited;
  EXPECT_EQ(assemble(untag_written(input), empty, edited), "x = 1\n");
}

TEST(Untag, AWriteIsAlignedWithTheViewItWasMadeFrom) {
  // The view served before a re-tag had a block over `def g` that the current one lacks, and a
  // CALLED_BY line of f's block that changed since.
  const TagPlan current = python_plan();
  TagPlan before;
  before.insertions = {{12, replaced(kFunctionBlock, "# CALLS: g\n", "# CALLS: g\n# CALLED_BY: h\n")},
                       {kPython.find("def g"), "# === Function Annotation ===\n# function: a.py:g\n"
                                               "# CALLED_BY: f\n# === Function Annotation ===\n"}};
  const std::string old_view = render::apply(kPython, before);
  const std::vector<const TagPlan*> plans{&current, &before};
  EXPECT_EQ(closest_served_plan(plans, old_view), 1U);
  EXPECT_EQ(closest_served_plan(plans, render::apply(kPython, current)), 0U);
  // Nothing of either view's tags (a file from elsewhere): the writer's own, first.
  EXPECT_EQ(closest_served_plan(plans, kPython), 0U);
  EXPECT_EQ(closest_served_plan(std::vector<const TagPlan*>{}, old_view), 0U);
  // Aligned with the plan it came from, an edit of the old view stores just the edit; aligned
  // with the current one, the old block over `def g` would have been kept as code.
  const std::string edited = replaced(old_view, "return 1", "return 2");
  EXPECT_EQ(stored(kPython, *plans[closest_served_plan(plans, edited)], edited),
            replaced(kPython, "return 1", "return 2"));
  EXPECT_NE(stored(kPython, current, edited), replaced(kPython, "return 1", "return 2"));
}

TEST(Untag, AChangedCheckoutIsRefusedUnlessAppending) {
  const TagPlan plan = python_plan();
  const std::string view = render::apply(kPython, plan);
  const FileVersion served{1, 2, kPython.size(), 3, 4};
  FileVersion now = served;
  now.ctime_ns = 5;  // cp -p, rsync -t: same size and mtime, new ctime
  const std::string outside = replaced(kPython, "return 1", "return 7");
  const std::string view_with_line = view + "x = 2\n";
  StoreInput input{.plan = &plan,
                   .served = served,
                   .current = now,
                   .checkout = outside,
                   .written = view_with_line,
                   .appended_from = std::nullopt,
                   .blocks = nullptr};
  EXPECT_EQ(untag_written(input).status, StoreResult::Status::kStale);
  input.current = std::nullopt;  // renamed or removed from outside
  EXPECT_EQ(untag_written(input).status, StoreResult::Status::kStale);
  // O_APPEND: the append lands after what the checkout holds now.
  input.current = now;
  input.appended_from = view.size();
  const StoreResult appended = untag_written(input);
  ASSERT_EQ(appended.status, StoreResult::Status::kStore);
  EXPECT_EQ(assemble(appended, outside, input.written), outside + "x = 2\n");
}

TEST(Untag, ARewriteBeyondTheDiffBoundStillLosesWholeBlocks) {
  std::string big;
  for (int i = 0; i < 5000; ++i) big += "v" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  TagPlan plan;
  plan.insertions = {{big.find("v2500 "), kFunctionBlock}, {big.find("v4000 "), kFunctionBlock}};
  std::string rewritten = render::apply(big, plan);
  for (size_t at = 0; (at = rewritten.find(" = ", at)) != std::string::npos; ++at) {
    rewritten.replace(at, 3, "=");
  }
  std::string expected = big;
  for (size_t at = 0; (at = expected.find(" = ", at)) != std::string::npos; ++at) {
    expected.replace(at, 3, "=");
  }
  EXPECT_EQ(stored(big, plan, rewritten), expected);
}

// Random edits of a tagged file that never touch a tag line: the store is the same edit of the
// checkout, byte for byte.
TEST(Untag, RandomCodeEditsStoreExactlyTheEdit) {
  std::mt19937 random(23);
  std::vector<std::string> lines;
  for (int i = 0; i < 60; ++i) lines.push_back("line" + std::to_string(i) + "\n");
  for (int round = 0; round < 200; ++round) {
    std::string checkout;
    TagPlan plan;
    std::vector<std::pair<bool, std::string>> view;  // (is tag, text)
    for (const std::string& line : lines) {
      if (random() % 8 == 0) {
        plan.insertions.push_back({checkout.size(), kFunctionBlock});
        view.emplace_back(true, kFunctionBlock);
      }
      checkout += line;
      view.emplace_back(false, line);
    }
    std::string written;
    std::string expected;
    for (const auto& [tag, text] : view) {
      const auto choice = random() % 10;
      if (tag) {
        written += text;
        continue;
      }
      if (choice == 0) continue;  // deleted
      const std::string edited = choice == 1 ? "edited " + text : text;
      written += edited;
      expected += edited;
      if (choice == 2) {
        written += "new\n";
        expected += "new\n";
      }
    }
    EXPECT_EQ(stored(checkout, plan, written), expected) << round;
  }
}

}  // namespace
}  // namespace anchorfs::render
