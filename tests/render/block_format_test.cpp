// Tag block format: layout, field order, same-file compaction, omission rule, escaping.
#include <gtest/gtest.h>

#include "graph_builder.h"
#include "render/view.h"
#include "render_helpers.h"

namespace anchorfs::render::testing {
namespace {

// The DESIGN.md example: pkg/views.py View.dispatch calling View.get and HttpResponse.__init__,
// called from pkg/urls.py:resolve_view. Files are listed by path.
struct DesignExample {
  analysis::Graph graph;
  EntityIndex http_file, http_response, http_init;
  EntityIndex urls_file, resolve_view;
  EntityIndex views_file, view, view_get, view_dispatch, helper;
};

DesignExample design_example() {
  GraphBuilder b;
  DesignExample x;
  x.http_file = b.file("pkg/http.py", Anchor{0, ""});
  x.http_response = b.cls("HttpResponse", Anchor{10, ""});
  x.http_init = b.function("HttpResponse.__init__", Anchor{20, "    "}, x.http_response);
  x.urls_file = b.file("pkg/urls.py", Anchor{0, ""});
  x.resolve_view = b.function("resolve_view", Anchor{30, ""});
  x.views_file = b.file("pkg/views.py", Anchor{0, ""});
  x.view = b.cls("View", Anchor{10, ""});
  x.view_get = b.function("View.get", Anchor{20, "    "}, x.view);
  x.view_dispatch = b.function("View.dispatch", Anchor{40, "    "}, x.view);
  x.helper = b.function("helper", Anchor{90, ""});
  b.calls(x.view_dispatch, x.view_get).calls(x.view_dispatch, x.http_init);
  b.calls(x.resolve_view, x.view_dispatch);
  b.edge(x.urls_file, x.views_file, Relation::Imports);
  b.edge(x.views_file, x.http_file, Relation::Imports);
  x.graph = b.build();
  return x;
}

TEST(BlockFormat, FunctionBlockMatchesTheDesignExample) {
  DesignExample x = design_example();
  auto plans = render(x.graph, View::Topo);
  EXPECT_EQ(block_at(plans, 2, 40),
            "    # === Function Annotation ===\n"
            "    # function: pkg/views.py:View.dispatch\n"
            "    # PARENT: View\n"
            "    # CALLS: View.get, pkg/http.py:HttpResponse.__init__\n"
            "    # CALLED_BY: pkg/urls.py:resolve_view\n"
            "    # === Function Annotation ===\n");
}

TEST(BlockFormat, ClassBlockListsChildrenByIdWithShortNames) {
  DesignExample x = design_example();
  auto plans = render(x.graph, View::Topo);
  EXPECT_EQ(block_at(plans, 2, 10),
            "# === Class Annotation ===\n"
            "# class: pkg/views.py:View\n"
            "# CHILDREN: View.dispatch, View.get\n"
            "# === Class Annotation ===\n");
}

TEST(BlockFormat, FileBlockUsesPlainPathsForFiles) {
  DesignExample x = design_example();
  auto plans = render(x.graph, View::Topo);
  EXPECT_EQ(block_at(plans, 2, 0),
            "# === File Annotation ===\n"
            "# file: pkg/views.py\n"
            "# IMPORTS: pkg/http.py\n"
            "# IMPORTED_BY: pkg/urls.py\n"
            "# === File Annotation ===\n");
}

TEST(BlockFormat, CrossFileReferencesUseFullIds) {
  DesignExample x = design_example();
  auto plans = render(x.graph, View::Topo);
  EXPECT_EQ(block_at(plans, 0, 20),
            "    # === Function Annotation ===\n"
            "    # function: pkg/http.py:HttpResponse.__init__\n"
            "    # PARENT: HttpResponse\n"
            "    # CALLED_BY: pkg/views.py:View.dispatch\n"
            "    # === Function Annotation ===\n");
  EXPECT_EQ(block_at(plans, 1, 30),
            "# === Function Annotation ===\n"
            "# function: pkg/urls.py:resolve_view\n"
            "# CALLS: pkg/views.py:View.dispatch\n"
            "# === Function Annotation ===\n");
}

TEST(BlockFormat, NoBlockWhenOnlyNameAndParentWouldShow) {
  DesignExample x = design_example();
  auto plans = render(x.graph, View::Topo);
  // helper: nothing at all; HttpResponse has a child, so it keeps its block.
  EXPECT_EQ(block_at(plans, 2, 90), "");
  EXPECT_NE(block_at(plans, 0, 10), "");
  GraphBuilder b;
  b.file("a.py", Anchor{0, ""});
  EntityIndex k = b.cls("K", Anchor{5, ""});
  b.function("K.m", Anchor{9, "  "}, k);
  auto lone = render(b.build(), View::Topo);
  // The file says nothing (children of files are not listed); K.m has only its PARENT.
  ASSERT_EQ(lone[0].insertions.size(), 1u);
  EXPECT_EQ(lone[0].insertions[0].offset, 5u);
}

TEST(BlockFormat, SameFileReferencesComeFirstThenById) {
  GraphBuilder b;
  b.file("a.py");
  EntityIndex target = b.function("zeta", Anchor{10, ""});
  EntityIndex local_late = b.function("omega", Anchor{20, ""});
  EntityIndex local_early = b.function("beta", Anchor{30, ""});
  b.file("0first.py");  // sorts before a.py by path, but is elsewhere
  EntityIndex remote = b.function("alpha", Anchor{10, ""});
  b.calls(local_late, target).calls(remote, target).calls(local_early, target);
  auto plans = render(b.build(), View::Topo);
  EXPECT_NE(block_at(plans, 0, 10).find("# CALLED_BY: beta, omega, 0first.py:alpha\n"),
            std::string::npos)
      << block_at(plans, 0, 10);
}

TEST(BlockFormat, FileLevelCallsAndSelfReferences) {
  GraphBuilder b;
  EntityIndex file = b.file("m.py");
  EntityIndex main = b.function("main", Anchor{12, ""});
  b.calls(file, main);
  auto plans = render(b.build(), View::Topo);
  EXPECT_EQ(block_at(plans, 0, 0),
            "# === File Annotation ===\n# file: m.py\n# CALLS: main\n# === File Annotation ===\n");
  EXPECT_EQ(block_at(plans, 0, 12),
            "# === Function Annotation ===\n# function: m.py:main\n# CALLED_BY: m.py\n"
            "# === Function Annotation ===\n");
}

TEST(BlockFormat, UsesTheFileNewlineAndTheEntityIndent) {
  GraphBuilder b;
  b.file("w.py", Anchor{0, ""}, "\r\n");
  EntityIndex k = b.cls("K", Anchor{4, "\t"});
  EntityIndex f = b.function("K.f", Anchor{8, "\t\t"}, k);
  b.calls(f, f);
  auto plans = render(b.build(), View::Topo);
  EXPECT_EQ(block_at(plans, 0, 8),
            "\t\t# === Function Annotation ===\r\n\t\t# function: w.py:K.f\r\n\t\t# PARENT: K\r\n"
            "\t\t# CALLS: K.f\r\n\t\t# CALLED_BY: K.f\r\n\t\t# === Function Annotation ===\r\n");
}

TEST(BlockFormat, OddBytesInIdsAreEscapedSoNoLineCanBreak) {
  GraphBuilder b;
  b.file("we\nird\\\x01\xff/\xc3\xa9t\xc3\xa9.py");
  EntityIndex f = b.function("f", Anchor{0, ""});
  b.file("z.py");
  EntityIndex g = b.function("g", Anchor{0, ""});
  b.calls(g, f);
  auto plans = render(b.build(), View::Topo);
  std::string text = block_at(plans, 1, 0);
  EXPECT_NE(text.find("# CALLS: we\\x0aird\\\\\\x01\\xff/\xc3\xa9t\xc3\xa9.py:f\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

TEST(BlockFormat, NoBlocksWithoutAnchorOrInUntaggableFiles) {
  GraphBuilder b;
  b.file("a.py", std::nullopt);
  EntityIndex f = b.function("f", std::nullopt);
  EntityIndex g = b.function("g", Anchor{7, ""});
  b.file("b.py", Anchor{0, ""}, "\n", /*taggable=*/false);
  EntityIndex h = b.function("h", Anchor{3, ""});
  b.calls(f, g).calls(h, g).calls(g, h);
  auto plans = render(b.build(), View::Topo);
  ASSERT_EQ(plans[0].insertions.size(), 1u);  // only g: f and the file have no anchor
  EXPECT_NE(plans[0].insertions[0].text.find("# CALLED_BY: f, b.py:h\n"), std::string::npos);
  EXPECT_TRUE(plans[1].insertions.empty());
}

TEST(BlockFormat, BlocksAtOneOffsetMergeFileFirstThenSourceOrder) {
  GraphBuilder b;
  EntityIndex file = b.file("a.py", Anchor{0, ""});
  EntityIndex f = b.function("f", Anchor{0, ""});
  b.calls(file, f);
  auto plans = render(b.build(), View::Topo);
  ASSERT_EQ(plans[0].insertions.size(), 1u);
  const std::string& text = plans[0].insertions[0].text;
  EXPECT_LT(text.find("# file: a.py"), text.find("# function: a.py:f"));
}

}  // namespace
}  // namespace anchorfs::render::testing

namespace anchorfs::render::testing {
namespace {

TEST(BlockFormat, EntitiesSharingAnIdAreListedOnce) {
  // def inner() in both branches of an `if`: two entities, one id.
  GraphBuilder b;
  b.file("h.py");
  EntityIndex outer = b.function("outer", Anchor{0, ""});
  EntityIndex first = b.function("outer.inner", Anchor{10, "    "}, outer);
  EntityIndex second = b.function("outer.inner", Anchor{20, "    "}, outer);
  EntityIndex user = b.function("user", Anchor{30, ""});
  b.calls(user, first).calls(user, second);
  auto plans = render(b.build(), View::Topo);
  EXPECT_NE(block_at(plans, 0, 0).find("# CHILDREN: outer.inner\n"), std::string::npos);
  EXPECT_NE(block_at(plans, 0, 30).find("# CALLS: outer.inner\n"), std::string::npos);
}

}  // namespace
}  // namespace anchorfs::render::testing
