// Files with local syntax errors, in every language: tagged outside their error regions, never
// inside one or between one and what it governs; strip exact; the tagged text parses to the same
// tree, errors included; a file that fails entirely stays untagged.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "analysis/language.h"
#include "render/stats.h"
#include "render/tag_plan.h"
#include "tests/languages/language_support.h"
#include "tests/support/files.h"

namespace anchorfs::languages_test {
namespace {

using analysis::test::find_entity;
using analysis::test::TempRepo;

// One file in the middle of an edit: what must still take a block and what must not.
struct MidEdit {
  std::string path;
  std::string text;
  std::vector<std::string> anchored;    // entity ids (path:Name) that keep their anchor
  std::vector<std::string> unanchored;  // entity ids at an error: no block
};

std::vector<MidEdit> mid_edits() {
  return {
      {"shop/store.go",
       "package shop\n\n// Before is whole.\nfunc Before() int { return 1 }\n\n"
       "func Typing() int {\n\tx := \n}\n\n"
       "// After is whole.\nfunc After() int { return Before() }\n",
       {"shop/store.go:Before", "shop/store.go:After"},
       {}},
      {"lib/store.rs",
       "/// Before is whole.\npub fn before() -> i32 { 1 }\n\n"
       "pub fn typing() -> i32 {\n    let x = ;\n}\n\npub fn after() -> i32 { before() }\n",
       {"lib/store.rs:before", "lib/store.rs:after"},
       {}},
      {"src/Store.java",
       "package shop;\n\npublic class Store {\n  int before() { return 1; }\n\n"
       "  int typing() {\n    int x = \n  }\n\n  int after() { return before(); }\n}\n",
       {"src/Store.java:Store.before", "src/Store.java:Store.after"},
       {}},
      {"web/store.js",
       "function before() { return 1; }\n\nfunction typing() {\n  const x = ;\n}\n\n"
       "function after() { return before(); }\n",
       {"web/store.js:before", "web/store.js:after"},
       {}},
      {"py/store.py",
       "def before():\n    return 1\n\n\ndef typing():\n    x = (\n\n\n"
       "def after():\n    return before()\n",
       {"py/store.py:before"},
       {}},
      // Variance annotations on a type alias's parameters: TypeScript accepts them.
      {"web/variance.ts",
       "export function before(): number { return 1; }\n\ntype F<out T> = () => T;\n\n"
       "export function after(): number { return before(); }\n",
       {"web/variance.ts:before", "web/variance.ts:after"},
       {}},
      // A broken decorator or attribute governs the definition below it: no block between them.
      {"py/decorated.py",
       "def before():\n    return 1\n\n\n@app.route(\ndef handler():\n    return before()\n",
       {"py/decorated.py:before"},
       {"py/decorated.py:handler"}},
      {"lib/attr.rs",
       "pub fn before() -> i32 { 1 }\n\n#[derive(Debug\npub struct Broken { a: i32 }\n",
       {"lib/attr.rs:before"},
       {"lib/attr.rs:Broken"}},
  };
}

class SyntaxErrorTags : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_.write("go.mod", "module example.com/m\n\ngo 1.19\n");
    repo_.write("Cargo.toml", "[package]\nname = \"m\"\nversion = \"0.1.0\"\n");
    for (const MidEdit& file : mid_edits()) repo_.write(file.path, file.text);
    repo_.write("web/lost.js", "))))}}}}((((\n");
  }

  const analysis::FileInfo& info(const analysis::Graph& graph, std::string_view path) {
    const analysis::EntityIndex e = find_entity(graph, path);
    for (const analysis::FileInfo& f : graph.files) {
      if (f.entity == e) return f;
    }
    ADD_FAILURE() << "no file " << path;
    return graph.files.front();
  }

  TempRepo repo_;
};

TEST_F(SyntaxErrorTags, EachFileIsTaggedOutsideItsErrors) {
  const analysis::Analysis analysis = repo_.analyze();
  const analysis::Graph& graph = analysis.graph;
  for (const MidEdit& file : mid_edits()) {
    SCOPED_TRACE(file.path);
    const analysis::FileInfo& f = info(graph, file.path);
    EXPECT_TRUE(f.taggable);
    EXPECT_GT(f.error_regions, 0u);
    for (const std::string& id : file.anchored) {
      const analysis::EntityIndex e = find_entity(graph, id);
      ASSERT_NE(e, analysis::kNoEntity) << id;
      EXPECT_TRUE(graph.entities[e].anchor.has_value()) << id;
    }
    for (const std::string& id : file.unanchored) {
      const analysis::EntityIndex e = find_entity(graph, id);
      if (e != analysis::kNoEntity) {
        EXPECT_FALSE(graph.entities[e].anchor.has_value()) << id;
      }
    }
  }
  // Links from and to the entities outside the errors as usual.
  EXPECT_TRUE(analysis::test::has_edge(graph, analysis::Relation::Calls, "shop/store.go:After",
                                       "shop/store.go:Before"));
  EXPECT_TRUE(analysis::test::has_edge(graph, analysis::Relation::Calls, "web/variance.ts:after",
                                       "web/variance.ts:before"));
}

TEST_F(SyntaxErrorTags, AFileThatFailsEntirelyStaysUntagged) {
  const analysis::Analysis analysis = repo_.analyze();
  const analysis::Graph& graph = analysis.graph;
  const analysis::FileInfo& lost = info(graph, "web/lost.js");
  for (analysis::EntityIndex e = lost.entity;
       e < graph.entities.size() && graph.entities[e].file == lost.entity; ++e) {
    EXPECT_FALSE(graph.entities[e].anchor.has_value()) << graph.id(e);
  }
}

TEST_F(SyntaxErrorTags, TaggedTextStripsExactlyAndParsesToTheSameTreeErrorsIncluded) {
  const analysis::Analysis analysis = repo_.analyze();
  const analysis::Graph& graph = analysis.graph;
  size_t tagged = 0;
  for (render::View view : {render::View::Topo, render::View::Inv, render::View::Dense}) {
    for (render::Style style : {render::Style::Paper, render::Style::Lean}) {
      render::ViewOptions options;
      options.view = view;
      options.style = style;
      for (const auto& [path, text] : tagged_files(repo_.root(), graph, options)) {
        const analysis::FileInfo& f = info(graph, path);
        const analysis::LanguageFrontEnd* language = analysis::front_end_named(f.language);
        ASSERT_NE(language, nullptr);
        const std::string original = test_support::read_file(repo_.root() + "/" + path);
        SCOPED_TRACE(path + " in " + std::string(render::view_name(view)) + "/" +
                     std::string(render::style_name(style)));
        tagged += text != original;
        EXPECT_EQ(render::strip(text), original);
        EXPECT_EQ(syntax_without_comments(language->grammar(path), text),
                  syntax_without_comments(language->grammar(path), original))
            << text;
      }
    }
  }
  EXPECT_GT(tagged, 0u);
}

TEST_F(SyntaxErrorTags, StatsCountFilesWithErrorsAndTheirTaggedEntities) {
  const analysis::Analysis analysis = repo_.analyze();
  render::ViewOptions options;
  const render::RepoStats stats = render::compute_stats(analysis.graph, analysis.stats, 0, options,
                                                        std::vector<render::ViewPlans>{});
  EXPECT_EQ(stats.files_with_errors, mid_edits().size() + 1);  // web/lost.js: nothing anchored
  EXPECT_GT(stats.error_file_entities_anchored, 0u);
  EXPECT_LT(stats.error_file_entities_anchored, stats.error_file_entities);
  EXPECT_NE(render::format_table(stats).find("syntax errors"), std::string::npos);
}

}  // namespace
}  // namespace anchorfs::languages_test
