// The brace-language kit: the facts encoding round-trips and rejects garbage; anchor positions;
// line counts.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/code/anchors.h"
#include "analysis/code/child_list.h"
#include "analysis/code/code_facts.h"
#include "analysis/code/text_layout.h"

namespace anchorfs::analysis::code {
namespace {

CodeFacts sample() {
  CodeFacts facts;
  facts.parsed_cleanly = true;
  facts.has_file_anchor = true;
  facts.file_anchor = 3;
  facts.newline = "\r\n";
  facts.lines = 40;
  facts.package = "geometry";
  facts.build_condition = "linux && !cgo";
  Definition shape;
  shape.kind = EntityKind::Class;
  shape.name = "Shape";
  shape.line = 3;
  shape.has_anchor = true;
  shape.anchor_offset = 10;
  shape.role = "interface";
  shape.bases = {"Named", "io.Closer"};
  shape.exported = true;
  Definition area;
  area.parent = 1;
  area.name = "Area";
  area.line = 5;
  area.anchor_indent = "\t";
  area.owner = "*Square";
  area.arity = 2;
  area.variadic = true;
  facts.definitions.push_back(shape);
  facts.definitions.push_back(area);
  facts.imports.push_back({"example.com/m/util", "", "u", 2, false});
  facts.imports.push_back({"./x", "*", "", 3, true, 1});
  facts.calls.push_back({2, CallForm::Member, "s.side", "Scale", 6, 1});
  facts.calls.push_back({0, CallForm::Construct, "", "Square", 9});
  facts.typed_names.push_back({2, "s", "Square"});
  return facts;
}

TEST(CodeFacts, EncodingRoundTrips) {
  const CodeFacts facts = sample();
  const std::unique_ptr<CodeFacts> back = deserialize(serialize(facts, "go1"), "go1");
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(*back, facts);
  EXPECT_EQ(back->definition(2).name, "Area");
  EXPECT_EQ(back->definition(2).parent, 1u);
  EXPECT_EQ(back->definition(2).anchor_indent, "\t");
}

TEST(CodeFacts, EveryTruncationAndAnotherMagicAreRejected) {
  const std::string bytes = serialize(sample(), "go1");
  EXPECT_EQ(deserialize(bytes, "go2"), nullptr);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(deserialize(bytes.substr(0, n), "go1"), nullptr) << n;
  }
  EXPECT_EQ(deserialize(bytes + "x", "go1"), nullptr);
}

TEST(CodeFacts, ReferencesToMissingOrLaterDefinitionsAreRejected) {
  CodeFacts facts = sample();
  facts.definitions[1].parent = 2;  // a parent after its child
  EXPECT_EQ(deserialize(serialize(facts, "m"), "m"), nullptr);
  facts = sample();
  facts.calls[0].scope = 9;
  EXPECT_EQ(deserialize(serialize(facts, "m"), "m"), nullptr);
  facts = sample();
  facts.imports[1].scope = 3;
  EXPECT_EQ(deserialize(serialize(facts, "m"), "m"), nullptr);
}

// Lines are counted a block of bytes at a time: every length and break position around a block.
TEST(TextLayout, LineCountAtEveryLengthAndBreakPosition) {
  for (size_t length = 0; length < 50; ++length) {
    for (size_t step = 1; step < 20; ++step) {
      std::string text(length, 'x');
      uint32_t breaks = 0;
      for (size_t i = step - 1; i < length; i += step) {
        text[i] = '\n';
        ++breaks;
      }
      const uint32_t expected = breaks + (!text.empty() && text.back() != '\n' ? 1 : 0);
      EXPECT_EQ(line_count(text), expected) << length << " " << step;
    }
  }
}

TEST(Anchors, OwnLineStartsOnlyAfterWhitespace) {
  const std::string text = "a;\n  \tb;\nc; d;";
  EXPECT_EQ(own_line_start(text, 6), 3u);
  EXPECT_EQ(indent_at(text, 3), "  \t");
  EXPECT_EQ(own_line_start(text, 9), 9u);
  EXPECT_EQ(own_line_start(text, 12), std::nullopt);
}

TEST(Anchors, FileAnchorSkipsByteOrderMarkAndShebangButNotInnerAttributes) {
  EXPECT_EQ(file_anchor("package a\n", true), 0u);
  EXPECT_EQ(file_anchor("\xEF\xBB\xBFpackage a\n", false), 3u);
  EXPECT_EQ(file_anchor("#!/usr/bin/env node\r\nx()\n", true), 21u);
  EXPECT_EQ(file_anchor("#!/usr/bin/env node\r\nx()\n", false), 0u);
  EXPECT_EQ(file_anchor("#![no_std]\nfn f() {}\n", true), 0u);
  EXPECT_EQ(file_anchor("#!/bin/sh", true), std::nullopt);
}

extern "C" const TSLanguage* tree_sitter_c();
extern "C" const TSLanguage* tree_sitter_go();

// A parse of `text` and its root's children, named and anonymous, as a walk lists them
// (child_list_test checks the listing against a cursor's).
class ListedRoot {
 public:
  ListedRoot(const TSLanguage* language, const std::string& text) : parser_(ts_parser_new()) {
    ts_parser_set_language(parser_, language);
    tree_ =
        ts_parser_parse_string(parser_, nullptr, text.data(), static_cast<uint32_t>(text.size()));
    const TSNode root = ts_tree_root_node(tree_);
    children.resize(anchorfs_child_list(root, false, nullptr, nullptr, 0));
    anchorfs_child_list(root, false, children.data(), nullptr,
                        static_cast<uint32_t>(children.size()));
  }
  ListedRoot(const ListedRoot&) = delete;
  ListedRoot& operator=(const ListedRoot&) = delete;
  ~ListedRoot() {
    ts_tree_delete(tree_);
    ts_parser_delete(parser_);
  }

  std::span<const TSNode> before(size_t i) const { return {children.data(), i}; }

  std::vector<TSNode> children;

 private:
  TSParser* parser_;
  TSTree* tree_;
};

// The comments a definition takes along, found from its listed siblings as by tree-sitter's
// sibling search.
TEST(Anchors, AttachedStartFromListedSiblingsMatchesTheSiblingSearch) {
  const std::string text =
      "int a;\n\n/* doc */\n// more\nint f(void) { return 0; }\n;\n/* c */ int g;\n"
      "/* far */\n\nint h;\n";
  const ListedRoot file(tree_sitter_c(), text);
  std::vector<std::string> starts;
  for (size_t i = 0; i < file.children.size(); ++i) {
    const TSNode child = file.children[i];
    const TSNode listed = attached_start(child, text, {"comment"}, file.before(i));
    EXPECT_TRUE(ts_node_eq(listed, attached_start(child, text, {"comment"})));
    if (ts_node_is_named(child) && std::string_view(ts_node_type(child)) != "comment") {
      starts.emplace_back(text.substr(ts_node_start_byte(listed), 5));
    }
  }
  // f takes both comments above it; the lone `;` (a statement) and g keep theirs; h's is
  // detached by a blank line.
  EXPECT_EQ(starts, (std::vector<std::string>{"int a", "/* do", ";\n/* ", "/* c ", "int h"}));
}

// A top-level Go declaration's run (gofmt's blank-line rule), found from its listed siblings
// (the Go walk's code::ChildLists) as by tree-sitter's sibling search.
TEST(Anchors, RunStartFromListedSiblingsMatchesTheSiblingSearch) {
  const std::string text =
      "// Package p.\npackage p\n\n// A is.\ntype A int\nfunc (A) m() {}\n// B\nfunc B() {}\n"
      "\nvar c = 1\n\n/* d */\n\n// e\nfunc e() {}\nfunc f() {}\n";
  const ListedRoot file(tree_sitter_go(), text);
  std::vector<std::string> starts;
  for (size_t i = 0; i < file.children.size(); ++i) {
    const TSNode child = file.children[i];
    const std::string_view type = ts_node_type(child);
    if (type != "function_declaration" && type != "method_declaration" &&
        type != "type_declaration" && type != "var_declaration") {
      continue;
    }
    const TSNode listed = run_start(child, text, {"comment"}, "package_clause", file.before(i));
    EXPECT_TRUE(ts_node_eq(listed, run_start(child, text, {"comment"}, "package_clause")));
    starts.emplace_back(text.substr(ts_node_start_byte(listed), 4));
  }
  // A, m and B run together under A's comment; c stands alone; e takes its comment (not the
  // detached one) and f runs on from e.
  EXPECT_EQ(starts, (std::vector<std::string>{"// A", "// A", "// A", "var ", "// e", "// e"}));
}

}  // namespace
}  // namespace anchorfs::analysis::code
