// SnapshotBuilder: rebuilds from the tree as it is, re-analysing only when sources changed.
#include "refresh/snapshot_builder.h"

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/language.h"
#include "cache_test_support.h"
#include "cached_python_tree.h"

namespace anchorfs::refresh::testing {
namespace {

class SnapshotBuilderTest : public CachedPythonTree {
 protected:
  void SetUp() override {
    CachedPythonTree::SetUp();
    put(root_, "README.md", "hello\n");
  }
};

TEST_F(SnapshotBuilderTest, FirstBuildTagsTheRepository) {
  SnapshotBuilder builder(options_);
  const Built built = builder.build();
  ASSERT_NE(built.snapshot, nullptr);
  EXPECT_TRUE(built.changed);
  EXPECT_TRUE(built.reanalysed);
  EXPECT_EQ(built.stats.source_files, 3u);
  EXPECT_NE(served_bytes(*built.snapshot, "pkg/a.py").find("CALLED_BY: pkg/b.py:user"),
            std::string::npos)
      << served_bytes(*built.snapshot, "pkg/a.py");
  EXPECT_EQ(served_bytes(*built.snapshot, "README.md"), "hello\n");
  EXPECT_NE(describe(built).find("3 source files"), std::string::npos) << describe(built);
}

// The builder leaves the rendered view to keep_records() (called once the view is served): the
// next mount of the unchanged tree then loads it, serving the same bytes.
TEST_F(SnapshotBuilderTest, KeptViewServesTheNextMountTheSameBytes) {
  SnapshotBuilder first(options_);
  const Built cold = first.build();
  first.keep_records();
  SnapshotBuilder second(options_);
  const Built warm = second.build();
  EXPECT_TRUE(warm.stats.graph_from_cache);
  EXPECT_EQ(warm.entities, cold.entities);
  EXPECT_EQ(warm.edges, cold.edges);
  for (const char* path : {"pkg/a.py", "pkg/b.py", "pkg/__init__.py", "README.md"}) {
    EXPECT_EQ(served_bytes(*warm.snapshot, path), served_bytes(*cold.snapshot, path)) << path;
  }
}

TEST_F(SnapshotBuilderTest, ViewNoneServesTheTreeWithoutAnalysingIt) {
  options_.view.view = render::View::None;
  SnapshotBuilder builder(options_);
  const Built built = builder.build();
  EXPECT_FALSE(built.analysed);
  EXPECT_EQ(built.stats.source_files, 3u);
  EXPECT_EQ(built.stats.parsed, 0u);
  EXPECT_EQ(built.entities, 0u);
  EXPECT_EQ(served_bytes(*built.snapshot, "pkg/a.py"), "def helper():\n    return 1\n");
  EXPECT_EQ(cache_->info().entries, 0u);  // nothing was parsed, so nothing was cached
  EXPECT_NE(describe(built).find("3 source files (not analysed: view none"), std::string::npos)
      << describe(built);

  // A refresh after an edit serves the new bytes, still without analysing.
  put(root_, "pkg/a.py", "def helper():\n    return 2\n");
  const Built refreshed = builder.build();
  EXPECT_TRUE(refreshed.changed);
  EXPECT_FALSE(refreshed.analysed);
  EXPECT_EQ(refreshed.stats.parsed, 0u);
  EXPECT_EQ(served_bytes(*refreshed.snapshot, "pkg/a.py"), "def helper():\n    return 2\n");
  EXPECT_EQ(cache_->info().entries, 0u);
}

TEST_F(SnapshotBuilderTest, UnchangedTreeGivesTheSameSnapshot) {
  SnapshotBuilder builder(options_);
  const Built first = builder.build();
  const Built second = builder.build();
  EXPECT_FALSE(second.changed);
  EXPECT_EQ(second.snapshot, first.snapshot);
}

TEST_F(SnapshotBuilderTest, NonSourceChangesReuseTheTags) {
  SnapshotBuilder builder(options_);
  builder.build();
  put(root_, "README.md", "hello, longer now\n");
  put(root_, ".git/HEAD", "ref: refs/heads/other\n");
  const Built built = builder.build();
  EXPECT_TRUE(built.changed);
  EXPECT_FALSE(built.reanalysed);
  EXPECT_EQ(served_bytes(*built.snapshot, "README.md"), "hello, longer now\n");
  EXPECT_NE(served_bytes(*built.snapshot, "pkg/a.py").find("CALLED_BY"), std::string::npos);
}

TEST_F(SnapshotBuilderTest, EditedSourceIsReanalysedOthersComeFromTheCache) {
  SnapshotBuilder builder(options_);
  builder.build();
  put(root_, "pkg/b.py", "def user():\n    return 2\n");  // no longer calls helper
  const Built built = builder.build();
  EXPECT_TRUE(built.reanalysed);
  EXPECT_EQ(built.stats.from_cache, 2u);  // __init__.py and a.py; only b.py was parsed
  // The tags of a.py changed although a.py did not.
  EXPECT_EQ(served_bytes(*built.snapshot, "pkg/a.py").find("CALLED_BY"), std::string::npos)
      << served_bytes(*built.snapshot, "pkg/a.py");
  // A build leaves its facts pending; keep_records (once the view is served) commits them.
  EXPECT_EQ(cache_->info().entries, 0u);
  builder.keep_records();
  EXPECT_EQ(cache_->info().entries, 4u);  // both versions of b.py are kept
}

// A build's facts records are written by keep_records (once the view is served), not beside the
// resolution: a cold mount's CPU until it serves is then only the view's.
TEST_F(SnapshotBuilderTest, FactsRecordsAreWrittenOnlyByKeepRecords) {
  const analysis::LanguageFrontEnd& python = *analysis::front_end_named("python");
  const analysis::FactsKey a{analysis::digest_of("def helper():\n    return 1\n"), python.name(),
                             python.facts_version()};
  SnapshotBuilder builder(options_);
  builder.build();
  EXPECT_FALSE(cache_->load(a));  // pending writes answer loads too: none was made
  builder.keep_records();
  ASSERT_TRUE(cache_->load(a));
  EXPECT_NE(cache_->load(a)->size(), 0u);
}

// Told the changed paths, a build patches its last scan at them instead of listing the tree:
// a file no path names is not seen (a refresher names every change its events saw), one named is;
// told none, a build lists the whole tree again.
TEST_F(SnapshotBuilderTest, ABuildToldTheChangedPathsPatchesItsLastScan) {
  options_.will_refresh = true;
  SnapshotBuilder builder(options_);
  builder.build();
  put(root_, "pkg/b.py", "def user():\n    return 2\n");  // no longer calls helper
  put(root_, "pkg/c.py", "from pkg.a import helper\n\n\ndef other():\n    helper()\n");
  const std::vector<std::string> changed{"pkg/b.py"};
  Built built = builder.build({}, &changed);
  EXPECT_EQ(served_bytes(*built.snapshot, "pkg/c.py"), "<missing>");
  EXPECT_EQ(served_bytes(*built.snapshot, "pkg/a.py").find("CALLED_BY"), std::string::npos)
      << served_bytes(*built.snapshot, "pkg/a.py");
  built = builder.build();
  EXPECT_NE(served_bytes(*built.snapshot, "pkg/a.py").find("pkg/c.py:other"), std::string::npos)
      << served_bytes(*built.snapshot, "pkg/a.py");
}

// A patched scan whose entries are the last scan's selects the same sources (the builder reuses
// its last selection); one told of a source added or removed selects them again.
TEST_F(SnapshotBuilderTest, ABuildToldOfAnAddedOrRemovedSourceSelectsItsSourcesAgain) {
  options_.will_refresh = true;
  SnapshotBuilder builder(options_);
  builder.build();
  put(root_, "pkg/c.py", "from pkg.a import helper\n\n\ndef other():\n    helper()\n");
  const std::vector<std::string> added{"pkg/c.py"};
  Built built = builder.build({}, &added);
  EXPECT_NE(served_bytes(*built.snapshot, "pkg/a.py").find("pkg/c.py:other"), std::string::npos)
      << served_bytes(*built.snapshot, "pkg/a.py");
  put(root_, "pkg/b.py", "def user():\n    return 2\n");  // same entries: the selection kept
  const std::vector<std::string> edited{"pkg/b.py"};
  built = builder.build({}, &edited);
  EXPECT_NE(served_bytes(*built.snapshot, "pkg/a.py").find("pkg/c.py:other"), std::string::npos);
  std::filesystem::remove(root_ + "/pkg/c.py");
  built = builder.build({}, &added);
  EXPECT_EQ(served_bytes(*built.snapshot, "pkg/c.py"), "<missing>");
  EXPECT_EQ(served_bytes(*built.snapshot, "pkg/a.py").find("pkg/c.py"), std::string::npos)
      << served_bytes(*built.snapshot, "pkg/a.py");
}

TEST_F(SnapshotBuilderTest, AddedDeletedAndRenamedFilesAreFollowed) {
  SnapshotBuilder builder(options_);
  builder.build();
  put(root_, "pkg/c.py", "from pkg.a import helper\n\n\ndef other():\n    helper()\n");
  Built built = builder.build();
  EXPECT_NE(served_bytes(*built.snapshot, "pkg/a.py").find("pkg/c.py:other"), std::string::npos);
  std::filesystem::rename(root_ + "/pkg", root_ + "/lib");
  built = builder.build();
  EXPECT_EQ(served_bytes(*built.snapshot, "pkg/a.py"), "<missing>");
  EXPECT_NE(served_bytes(*built.snapshot, "lib/a.py").find("def helper"), std::string::npos);
  std::filesystem::remove(root_ + "/lib/c.py");
  built = builder.build();
  EXPECT_EQ(served_bytes(*built.snapshot, "lib/c.py"), "<missing>");
  EXPECT_EQ(built.stats.from_cache, 3u);  // renamed files keep their contents: no parsing
}

}  // namespace
}  // namespace anchorfs::refresh::testing
