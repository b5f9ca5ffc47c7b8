// GraphBuffers: an analysis handed a freed graph's buffers builds in them, and builds the same graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "analysis/graph_buffers.h"
#include "analysis/graph_serialize.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

void write_corpus(const TempRepo& repo, int functions) {
  std::string c = "#include \"m.h\"\n";
  for (int f = 0; f < functions; ++f) {
    c += "static int f" + std::to_string(f) + "(void) { return " +
         (f == 0 ? std::string("1") : "f" + std::to_string(f - 1) + "()") + "; }\n";
  }
  repo.write("src/m.c", c);
  repo.write("src/m.h", "int g(void);\n");
  repo.write("pkg/a.py", "def a():\n    return 1\n\n\ndef b():\n    return a()\n");
}

Analysis analyse(const TempRepo& repo, GraphBuffers* buffers) {
  AnalysisOptions options;
  options.threads = 2;
  options.buffers = buffers;
  return analyze(scan_tree(repo.root()), options);
}

// A refresher hands each analysis the buffers of the graph before the one it serves: the entities,
// files and edges land in those very buffers (no fresh pages), whether the tree grew or shrank,
// and the graph is the one an analysis without them makes.
TEST(GraphBuffers, AnAnalysisBuildsInTheBuffersItIsHandedAndMakesTheSameGraph) {
  TempRepo repo;
  GraphBuffers buffers;
  // Over 1024 edges: the radix sort, with its second buffer.
  bool first = true;
  for (const int functions : {1200, 1500, 600, 1400}) {
    SCOPED_TRACE(functions);
    write_corpus(repo, functions);
    const Entity* entities = buffers.entities.data();
    const FileInfo* files = buffers.files.data();
    const Edge* edges = buffers.edges.data();
    const Edge* sorted = buffers.sorted.data();
    Analysis analysis = analyse(repo, &buffers);
    EXPECT_EQ(serialize_analysis(analysis), serialize_analysis(analyse(repo, nullptr)));
    ASSERT_GT(analysis.graph.edges.size(), 1024u);
    if (!std::exchange(first, false)) {
      EXPECT_EQ(analysis.graph.entities.data(), entities);
      EXPECT_EQ(analysis.graph.files.data(), files);
      // The edge sort swaps its two buffers: the graph's edges end in one of the two handed in,
      // the other is left for the next sort.
      const std::vector<const Edge*> handed{edges, sorted};
      EXPECT_NE(std::find(handed.begin(), handed.end(), analysis.graph.edges.data()), handed.end());
      EXPECT_NE(std::find(handed.begin(), handed.end(), buffers.sorted.data()), handed.end());
    }
    buffers.keep(std::move(analysis.graph));
    EXPECT_TRUE(buffers.entities.empty());
    EXPECT_TRUE(buffers.edges.empty());
  }
}

// The room a primed refresher makes beforehand holds a graph as large, with headroom for an edit.
TEST(GraphBuffers, RoomMadeLikeAGraphHoldsItAndAFewMore) {
  TempRepo repo;
  write_corpus(repo, 30);
  const Analysis analysis = analyse(repo, nullptr);
  GraphBuffers buffers;
  buffers.make_room_like(analysis.graph);
  EXPECT_TRUE(buffers.entities.empty());
  EXPECT_GT(buffers.entities.capacity(), analysis.graph.entities.size() + 100);
  EXPECT_GT(buffers.edges.capacity(), analysis.graph.edges.size() + 100);
  EXPECT_GT(buffers.sorted.capacity(), analysis.graph.edges.size() + 100);
  EXPECT_GT(buffers.files.capacity(), analysis.graph.files.size());
}

}  // namespace
}  // namespace anchorfs::analysis::test
