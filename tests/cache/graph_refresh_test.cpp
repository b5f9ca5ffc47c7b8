// Refresh and remount through the graph cache: reverting an edit, or building again in a new
// builder (a remount), reuses a stored graph and serves the same bytes as before.

#include <filesystem>

#include "refresh/snapshot_builder.h"
#include "refresh_support.h"

namespace anchorfs::refresh::testing {
namespace {

class GraphRefreshTest : public ScratchTree {
 protected:
  void SetUp() override {
    ScratchTree::SetUp();
    put(root_, "pkg/__init__.py", "");
    put(root_, "pkg/a.py", "def helper():\n    return 1\n");
    put(root_, "pkg/b.py", kCaller);
    cache::CacheOptions cache_options;
    cache_options.repo_root = root_;
    cache_options.cache_dir = root_ + "-cache";
    cache_ = cache::LmdbFactCache::open(cache_options);
    options_.repo = root_;
    options_.threads = 2;
    options_.view.view = render::View::Topo;
    options_.cache = cache_.get();
  }
  void TearDown() override {
    cache_.reset();
    std::filesystem::remove_all(root_ + "-cache");
  }

  static constexpr const char* kCaller =
      "from pkg.a import helper\n\n\ndef user():\n    return helper()\n";
  std::unique_ptr<cache::LmdbFactCache> cache_;
  BuildOptions options_;
};

TEST_F(GraphRefreshTest, RevertingAnEditLoadsTheStoredGraph) {
  SnapshotBuilder builder(options_);
  const Built original = builder.build();
  builder.keep_records();  // as a mount does once it serves
  EXPECT_FALSE(original.stats.graph_from_cache);
  const std::string tagged = served_bytes(*original.snapshot, "pkg/a.py");
  ASSERT_NE(tagged.find("CALLED_BY: pkg/b.py:user"), std::string::npos) << tagged;

  put(root_, "pkg/b.py", "def user():\n    return 2\n");
  const Built edited = builder.build();
  EXPECT_FALSE(edited.stats.graph_from_cache);
  EXPECT_EQ(served_bytes(*edited.snapshot, "pkg/a.py").find("CALLED_BY"), std::string::npos);

  put(root_, "pkg/b.py", kCaller);
  const Built reverted = builder.build();
  EXPECT_TRUE(reverted.reanalysed);
  EXPECT_TRUE(reverted.stats.graph_from_cache);
  EXPECT_EQ(reverted.stats.parsed, 0u);
  EXPECT_NE(describe(reverted).find("graph from cache"), std::string::npos) << describe(reverted);
  EXPECT_EQ(served_bytes(*reverted.snapshot, "pkg/a.py"), tagged);
  EXPECT_EQ(served_bytes(*reverted.snapshot, "pkg/b.py"),
            served_bytes(*original.snapshot, "pkg/b.py"));
}

TEST_F(GraphRefreshTest, ARemountServesTheSameBytesFromTheStoredGraph) {
  Built first;
  {
    SnapshotBuilder builder(options_);
    first = builder.build();
    builder.keep_records();
  }
  SnapshotBuilder remount(options_);
  const Built second = remount.build();
  EXPECT_TRUE(second.stats.graph_from_cache);
  EXPECT_EQ(second.entities, first.entities);
  EXPECT_EQ(second.edges, first.edges);
  for (const char* path : {"pkg/__init__.py", "pkg/a.py", "pkg/b.py"}) {
    EXPECT_EQ(served_bytes(*second.snapshot, path), served_bytes(*first.snapshot, path)) << path;
  }
}

}  // namespace
}  // namespace anchorfs::refresh::testing
