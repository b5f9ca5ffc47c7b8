// GraphIndex::distance: directory steps between two entities' files, through odd paths too.
#include "render/graph_index.h"

#include <gtest/gtest.h>

#include "graph_builder.h"

namespace anchorfs::render::testing {
namespace {

TEST(GraphIndexTest, DistanceCountsDirectoryStepsThroughTheDeepestSharedDirectory) {
  GraphBuilder builder;
  const EntityIndex top = builder.file("x.py");
  const EntityIndex c = builder.file("a/b/c.py");
  const EntityIndex in_c = builder.function("f");
  const EntityIndex c2 = builder.file("a/b/c2.py");
  const EntityIndex e = builder.file("a/b/d/e.py");
  const EntityIndex f = builder.file("a/bc/f.py");  // shares the letters "a/b", not "a/b"
  const EntityIndex g = builder.file("ab/g.py");
  const EntityIndex h = builder.file("a//h.py");  // directory "a/": two components
  const EntityIndex i = builder.file("/abs/i.py");
  const EntityIndex j = builder.file("/abt/j.py");
  const EntityIndex k = builder.file("a/b/d/k.py");
  analysis::Graph graph = builder.build();
  graph.files.pop_back();  // k's File entity is described by no FileInfo
  const GraphIndex index(graph);

  EXPECT_EQ(index.distance(c, in_c), 0u);
  EXPECT_EQ(index.distance(in_c, c2), 1u);
  EXPECT_EQ(index.distance(c, e), 2u);
  EXPECT_EQ(index.distance(e, in_c), 2u);
  EXPECT_EQ(index.distance(c, f), 3u);
  EXPECT_EQ(index.distance(c, g), 4u);
  EXPECT_EQ(index.distance(top, e), 4u);
  EXPECT_EQ(index.distance(top, g), 2u);
  EXPECT_EQ(index.distance(h, c), 3u);
  EXPECT_EQ(index.distance(h, f), 3u);
  EXPECT_EQ(index.distance(i, j), 5u);
  EXPECT_EQ(index.distance(i, top), 3u);
  EXPECT_EQ(index.distance(k, in_c), 2u);
  EXPECT_EQ(index.distance(e, k), 1u);
  // Symmetric whichever side is deeper.
  EXPECT_EQ(index.distance(f, c), index.distance(c, f));
  EXPECT_EQ(index.distance(g, top), index.distance(top, g));

  // A refresh's index without links measures the same.
  const GraphIndex partial(graph, GraphIndex::WithoutLinks{});
  EXPECT_EQ(partial.distance(c, f), 3u);
  EXPECT_EQ(partial.distance(h, c), 3u);
}

}  // namespace
}  // namespace anchorfs::render::testing
