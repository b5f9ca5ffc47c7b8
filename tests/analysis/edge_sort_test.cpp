// sort_edges: the graph's edge order and deduplication, on both sides of its radix threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "analysis/graph.h"

namespace anchorfs::analysis {
namespace {

std::vector<Edge> reference_order(std::vector<Edge> edges) {
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return std::tie(a.relation, a.from, a.to) < std::tie(b.relation, b.from, b.to);
  });
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

// Random edges over `entities` entities (duplicates likely when few), with some at the top of
// the index range so that every 16-bit digit varies.
std::vector<Edge> random_edges(size_t count, uint32_t entities, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> entity(0, entities - 1);
  std::uniform_int_distribution<uint32_t> relation(0, static_cast<uint32_t>(Relation::Registers));
  std::vector<Edge> edges;
  for (size_t i = 0; i < count; ++i) {
    edges.push_back({entity(random), entity(random), static_cast<Relation>(relation(random))});
  }
  edges.push_back({kNoEntity, 0, Relation::Calls});
  edges.push_back({0, kNoEntity - 1, Relation::Contains});
  return edges;
}

TEST(EdgeSort, OrdersByRelationThenEndsAndDropsDuplicatesAtEverySize) {
  for (const size_t count : {0, 1, 5, 1000, 1023, 1024, 5000, 200000}) {
    for (const uint32_t entities : {3u, 70000u, 4000000000u}) {
      std::vector<Edge> edges = random_edges(count, entities, static_cast<uint32_t>(count));
      const std::vector<Edge> expected = reference_order(edges);
      sort_edges(edges);
      EXPECT_EQ(edges, expected) << count << " edges over " << entities << " entities";
    }
  }
}

TEST(EdgeSort, KeepsAnAlreadySortedListAsItIs) {
  std::vector<Edge> edges = reference_order(random_edges(50000, 100000, 7));
  const std::vector<Edge> expected = edges;
  sort_edges(edges);
  EXPECT_EQ(edges, expected);
}

}  // namespace
}  // namespace anchorfs::analysis
