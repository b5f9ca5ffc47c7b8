// find_entry and select_sources on a scanned tree: lookups through sorted children, path order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/source_files.h"
#include "analysis/source_tree.h"
#include "temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

// Names that sort differently as names than as paths ('-' and '.' sort before '/').
void write_tricky_tree(const TempRepo& repo) {
  for (const char* path : {"a.c", "a-b.c", "a/b.c", "a/b/c.c", "ab.c", "a0.c", "a/b-c.h", "a/b.h",
                           "z/compile_commands.json", "compile_commands.json", "lib/x/y/z.py"}) {
    repo.write(path, "int f(void);\n");
  }
}

TEST(FindEntry, FindsEveryEntryOfAScanByItsPath) {
  TempRepo repo;
  write_tricky_tree(repo);
  const SourceTree tree = scan_tree(repo.root());
  ASSERT_GT(tree.entries.size(), 10u);
  for (const TreeEntry& entry : tree.entries) {
    EXPECT_EQ(find_entry(tree, entry.path), &entry) << entry.path;
  }
}

TEST(FindEntry, MissingPathsAndPathsThroughFilesFindNothing) {
  TempRepo repo;
  write_tricky_tree(repo);
  const SourceTree tree = scan_tree(repo.root());
  for (const char* path :
       {"b.c", "a/c.c", "a.c/x", "a/b.c/d", "a//b.c", "/a.c", "lib/x/z.py", "compile_commands"}) {
    EXPECT_EQ(find_entry(tree, path), nullptr) << path;
  }
  EXPECT_EQ(find_entry(SourceTree{}, "a.c"), nullptr);
}

TEST(SelectSources, SortedByPathBytewise) {
  TempRepo repo;
  write_tricky_tree(repo);
  const SourceTree tree = scan_tree(repo.root());
  std::vector<std::string> paths;
  for (const SourceFile& source : select_sources(tree)) {
    paths.push_back(source.path);
    EXPECT_EQ(tree.entries.at(source.entry).path, source.path);
    EXPECT_EQ(source.size, tree.entries.at(source.entry).size);
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"a-b.c", "a.c", "a/b-c.h", "a/b.c", "a/b.h", "a/b/c.c",
                                             "a0.c", "ab.c", "lib/x/y/z.py"}));
}

// A tree whose directories do not reach all their entries (malformed: a scan never makes one)
// still gives every claimed file, in path order: selection does not walk the children.
TEST(SelectSources, AMalformedTreeGivesTheSameSources) {
  TempRepo repo;
  write_tricky_tree(repo);
  SourceTree tree = scan_tree(repo.root());
  std::vector<std::string> expected;
  for (const SourceFile& source : select_sources(tree)) expected.push_back(source.path);
  tree.entries[0].child_count = 1;
  std::vector<std::string> paths;
  for (const SourceFile& source : select_sources(tree)) paths.push_back(source.path);
  EXPECT_EQ(paths, expected);
}

}  // namespace
}  // namespace anchorfs::analysis::test
