// Refresh and remount through the graph cache: reverting an edit, or building again in a new
// builder (a remount), reuses a stored graph and serves the same bytes as before.

#include "cached_python_tree.h"

namespace anchorfs::refresh::testing {
namespace {

using GraphRefreshTest = CachedPythonTree;

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
