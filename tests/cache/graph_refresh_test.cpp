// Refresh and remount through the graph cache: reverting an edit, or building again in a new
// builder (a remount), reuses a stored graph and serves the same bytes as before.
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

#include "refresh/snapshot_builder.h"
#include "refresh_support.h"

namespace anchorfs::refresh::testing {
namespace {

// The bytes a reader of the mount would see for `path` in `snapshot`.
std::string served(const fs::Snapshot& snapshot, const std::string& path) {
  const std::optional<uint32_t> index = snapshot.find(path);
  if (!index) {
    return "<missing>";
  }
  const int fd = ::open((snapshot.root() + "/" + path).c_str(), O_RDONLY | O_CLOEXEC);
  std::string bytes(snapshot.view_size(*index), '\0');
  const bool ok = snapshot.layout(*index).empty() ? ::pread(fd, bytes.data(), bytes.size(), 0) ==
                                                        static_cast<ssize_t>(bytes.size())
                                                  : snapshot.layout(*index).read(fd, 0, bytes);
  ::close(fd);
  return ok ? bytes : "<unreadable>";
}

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
    cache_options.analyser_version = "test";
    cache_ = cache::LmdbFactCache::open(cache_options);
    options_.repo = root_;
    options_.threads = 2;
    options_.view.view = render::View::Topo;
    options_.cache = cache_.get();
  }
  void TearDown() override {
    cache_.reset();
    std::filesystem::remove_all(root_ + "-cache");
    ScratchTree::TearDown();
  }

  static constexpr const char* kCaller =
      "from pkg.a import helper\n\n\ndef user():\n    return helper()\n";
  std::unique_ptr<cache::LmdbFactCache> cache_;
  BuildOptions options_;
};

TEST_F(GraphRefreshTest, RevertingAnEditLoadsTheStoredGraph) {
  SnapshotBuilder builder(options_);
  const Built original = builder.build();
  EXPECT_FALSE(original.stats.graph_from_cache);
  const std::string tagged = served(*original.snapshot, "pkg/a.py");
  ASSERT_NE(tagged.find("CALLED_BY: pkg/b.py:user"), std::string::npos) << tagged;

  put(root_, "pkg/b.py", "def user():\n    return 2\n");
  const Built edited = builder.build();
  EXPECT_FALSE(edited.stats.graph_from_cache);
  EXPECT_EQ(served(*edited.snapshot, "pkg/a.py").find("CALLED_BY"), std::string::npos);

  put(root_, "pkg/b.py", kCaller);
  const Built reverted = builder.build();
  EXPECT_TRUE(reverted.reanalysed);
  EXPECT_TRUE(reverted.stats.graph_from_cache);
  EXPECT_EQ(reverted.stats.parsed, 0u);
  EXPECT_NE(describe(reverted).find("graph from cache"), std::string::npos) << describe(reverted);
  EXPECT_EQ(served(*reverted.snapshot, "pkg/a.py"), tagged);
  EXPECT_EQ(served(*reverted.snapshot, "pkg/b.py"), served(*original.snapshot, "pkg/b.py"));
}

TEST_F(GraphRefreshTest, ARemountServesTheSameBytesFromTheStoredGraph) {
  Built first;
  {
    SnapshotBuilder builder(options_);
    first = builder.build();
  }
  SnapshotBuilder remount(options_);
  const Built second = remount.build();
  EXPECT_TRUE(second.stats.graph_from_cache);
  EXPECT_EQ(second.entities, first.entities);
  EXPECT_EQ(second.edges, first.edges);
  for (const char* path : {"pkg/__init__.py", "pkg/a.py", "pkg/b.py"}) {
    EXPECT_EQ(served(*second.snapshot, path), served(*first.snapshot, path)) << path;
  }
}

}  // namespace
}  // namespace anchorfs::refresh::testing
