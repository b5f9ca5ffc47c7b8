// sort_edges: the graph's edge order and deduplication, on both sides of its radix threshold;
// radix_sort: the packed integer pairs the resolvers sort, in std::sort's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "analysis/graph.h"
#include "analysis/radix_sort.h"

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

// Packed (high, low) pairs as the resolvers make them: small ids in both halves (most digits
// shared), or any 64-bit value, with repeats when the range is small.
TEST(RadixSort, OrdersLikeStdSortAtEverySizeAndWidth) {
  for (const size_t count : {0, 1, 5, 1023, 1024, 5000, 300000}) {
    for (const uint64_t range : {uint64_t{3}, uint64_t{70000}, UINT64_MAX}) {
      std::mt19937_64 random(count + range);
      std::uniform_int_distribution<uint64_t> half(0, std::min<uint64_t>(range, UINT32_MAX));
      std::uniform_int_distribution<uint64_t> any(0, range);
      std::vector<uint64_t> values;
      for (size_t i = 0; i < count; ++i) {
        values.push_back(range == UINT64_MAX ? any(random) : (half(random) << 32) | half(random));
      }
      std::vector<uint64_t> expected = values;
      std::sort(expected.begin(), expected.end());
      radix_sort(values);
      EXPECT_EQ(values, expected) << count << " values below " << range;
    }
  }
}

}  // namespace
}  // namespace anchorfs::analysis
