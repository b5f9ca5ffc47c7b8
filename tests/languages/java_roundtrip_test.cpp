// Java tags change no program: every view and style strips back to the original bytes and
// parses to the original's syntax tree (text blocks, annotations spanning lines, generics,
// nested, local and anonymous classes, enums with bodies, records, module-info, package-info).
#include <gtest/gtest.h>

#include <string>

#include "analysis/analyze.h"
#include "analysis/java/grammar.h"
#include "analysis/source_tree.h"
#include "tests/languages/language_support.h"

namespace anchorfs::languages_test {
namespace {

const std::string kRoot = std::string(ANCHORFS_JAVA_FIXTURES) + "/roundtrip";

analysis::Analysis analyse() {
  analysis::AnalysisOptions options;
  options.threads = 2;
  return analysis::analyze(analysis::scan_tree(kRoot), options);
}

TEST(JavaRoundTrip, TagsChangeNoProgram) {
  const analysis::Analysis result = analyse();
  size_t java_files = 0;
  for (const analysis::FileInfo& info : result.graph.files) {
    if (info.language != "java") continue;
    ++java_files;
    EXPECT_TRUE(info.taggable) << result.graph.id(info.entity);
  }
  EXPECT_EQ(java_files, 7u);
  expect_tags_change_no_program(kRoot, result.graph, "java", tree_sitter_java());
}

TEST(JavaRoundTrip, BlocksSitAboveDocCommentsAndAnnotationsWithTheDefinitionsIndent) {
  const analysis::Analysis result = analyse();
  render::ViewOptions options;
  const auto tagged = tagged_files(kRoot, result.graph, options);
  const std::string& circle = tagged.at("src/main/java/com/example/shapes/Circle.java");
  EXPECT_NE(circle.find("// === Class Annotation ===\n/**\n * A circle."), std::string::npos)
      << circle;
  EXPECT_NE(circle.find("  // === Function Annotation ===\n  @Override\n  public double area()"),
            std::string::npos)
      << circle;
  // The file block goes first, above the licence comment that precedes `package`.
  const std::string& shape = tagged.at("src/main/java/com/example/shapes/Shape.java");
  EXPECT_TRUE(shape.starts_with("// === File Annotation ===\n// file: "
                                "src/main/java/com/example/shapes/Shape.java\n"))
      << shape;
}

}  // namespace
}  // namespace anchorfs::languages_test
