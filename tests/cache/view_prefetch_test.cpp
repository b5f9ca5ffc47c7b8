// The view a mount served last, copied while the next mount scans: used only under its own key.
#include "refresh/view_prefetch.h"

#include "cache_test_support.h"
#include "cached_python_tree.h"

namespace anchorfs::refresh::testing {
namespace {

constexpr const char* kPaths[] = {"pkg/a.py", "pkg/b.py", "pkg/__init__.py", "README.md"};

class ViewPrefetchTest : public CachedPythonTree {
 protected:
  void SetUp() override {
    CachedPythonTree::SetUp();
    put(root_, "README.md", "hello\n");
  }

  // A mount that served its view and kept its records (as the daemon does once it serves).
  Built mount_and_keep() {
    SnapshotBuilder builder(options_);
    Built built = builder.build();
    builder.keep_records();
    return built;
  }

  // What a build without any cache serves for the tree as it is now.
  Built uncached() {
    BuildOptions options = options_;
    options.cache = nullptr;
    return SnapshotBuilder(options).build();
  }

  static void expect_same_bytes(const Built& got, const Built& want) {
    for (const char* path : kPaths) {
      EXPECT_EQ(served_bytes(*got.snapshot, path), served_bytes(*want.snapshot, path)) << path;
    }
  }
};

TEST_F(ViewPrefetchTest, NextMountOfTheSameTreeUsesTheCopiedView) {
  const Built cold = mount_and_keep();
  EXPECT_FALSE(cold.view_prefetched);  // nothing named yet
  const uint64_t hits_before = cache_->hits().graph_hits;
  SnapshotBuilder builder(options_);
  const Built warm = builder.build();
  EXPECT_TRUE(warm.view_prefetched);
  EXPECT_TRUE(warm.stats.graph_from_cache);
  EXPECT_EQ(warm.rendered_files, 0u);
  EXPECT_EQ(cache_->hits().graph_hits, hits_before + 1);  // the view, counted once
  EXPECT_EQ(warm.entities, cold.entities);
  EXPECT_EQ(warm.edges, cold.edges);
  expect_same_bytes(warm, cold);
  // A refresh of the same builder never uses a copy (it is the first build's only).
  put(root_, "pkg/b.py", "def user():\n    return 2\n");
  const Built refreshed = builder.build();
  EXPECT_TRUE(refreshed.reanalysed);
  EXPECT_FALSE(refreshed.view_prefetched);
  expect_same_bytes(refreshed, uncached());
}

// The tree changed since the view was named: the copy is another key's, thrown away; the view
// is rendered from this tree, and the slot then names the new one.
TEST_F(ViewPrefetchTest, ChangedTreeRendersItsOwnViewAndMovesTheSlot) {
  mount_and_keep();
  const std::optional<analysis::ResolutionKey> first =
      ViewPrefetch(*cache_, root_, options_.view).pointed();
  ASSERT_TRUE(first.has_value());
  put(root_, "pkg/b.py", "def user():\n    return 2\n");
  const Built edited = mount_and_keep();
  EXPECT_FALSE(edited.view_prefetched);
  EXPECT_FALSE(edited.stats.graph_from_cache);
  expect_same_bytes(edited, uncached());
  const std::optional<analysis::ResolutionKey> second =
      ViewPrefetch(*cache_, root_, options_.view).pointed();
  ASSERT_TRUE(second.has_value());
  EXPECT_NE(*second, *first);
  const Built again = mount_and_keep();
  EXPECT_TRUE(again.view_prefetched);
  expect_same_bytes(again, edited);
}

// The slot names a record the store no longer holds (evicted): the view is looked up as before.
TEST_F(ViewPrefetchTest, SlotNamingAMissingRecordFallsBackToTheLookup) {
  const Built cold = mount_and_keep();
  remember_served_view(*cache_, root_, options_.view, {0x1234, 0x5678});
  cache_->flush();
  const Built warm = SnapshotBuilder(options_).build();
  EXPECT_FALSE(warm.view_prefetched);
  EXPECT_TRUE(warm.stats.graph_from_cache);  // the view record, found by its key
  expect_same_bytes(warm, cold);
}

// A slot whose payload is not a key names nothing.
TEST_F(ViewPrefetchTest, MalformedSlotNamesNothing) {
  const Built cold = mount_and_keep();
  cache_->replace_derived(last_view_slot(root_, options_.view), "not a view key");
  cache_->flush();
  EXPECT_FALSE(ViewPrefetch(*cache_, root_, options_.view).pointed().has_value());
  const Built warm = SnapshotBuilder(options_).build();
  EXPECT_FALSE(warm.view_prefetched);
  EXPECT_TRUE(warm.stats.graph_from_cache);
  expect_same_bytes(warm, cold);
}

// The named record is this tree's key but not a view (damaged, or written by a faulty build): it
// fails decoding like any view record, and the view is rendered again from the analysis.
TEST_F(ViewPrefetchTest, UndecodableNamedRecordIsRenderedAgain) {
  const Built cold = mount_and_keep();
  const std::optional<analysis::ResolutionKey> named =
      ViewPrefetch(*cache_, root_, options_.view).pointed();
  ASSERT_TRUE(named.has_value());
  cache_->replace_derived(*named, "AFVW garbage");
  cache_->flush();
  const Built warm = SnapshotBuilder(options_).build();
  EXPECT_FALSE(warm.view_prefetched);
  EXPECT_GT(warm.rendered_files, 0u);
  expect_same_bytes(warm, cold);
}

// Each repository and each set of view options has a slot of its own.
TEST_F(ViewPrefetchTest, OtherViewOptionsDoNotUseTheSlot) {
  mount_and_keep();
  EXPECT_NE(last_view_slot(root_, options_.view), last_view_slot(root_ + "/pkg", options_.view));
  options_.view.max_links = 3;
  EXPECT_FALSE(ViewPrefetch(*cache_, root_, options_.view).pointed().has_value());
  const Built other = mount_and_keep();
  EXPECT_FALSE(other.view_prefetched);
  EXPECT_TRUE(mount_and_keep().view_prefetched);
}

}  // namespace
}  // namespace anchorfs::refresh::testing
