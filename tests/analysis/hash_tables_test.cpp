// The analysis's two hand-written hash tables: the resolver's FlatMap and the extractor's
// UndoableIndex (exact undo of the latest additions).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>

#include "analysis/python/fact_sink.h"
#include "analysis/python/resolve_flat_map.h"

namespace anchorfs::analysis::python {
namespace {

TEST(FlatMap, EmptyFindsNothing) {
  const FlatMap<uint64_t> m;
  EXPECT_EQ(m.find(0), nullptr);
  EXPECT_EQ(m.size(), 0u);
}

TEST(FlatMap, TryEmplaceKeepsTheFirstValueAndSetOverwrites) {
  FlatMap<uint64_t> m;
  auto [v, inserted] = m.try_emplace(7, 1);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(*v, 1u);
  auto [w, again] = m.try_emplace(7, 2);
  EXPECT_FALSE(again);
  EXPECT_EQ(*w, 1u);
  m.set(7, 3);
  EXPECT_EQ(*m.find(7), 3u);
  EXPECT_EQ(m.size(), 1u);
}

// Keys differing only in their high bits (the resolver's (scope << 32 | name) keys) and many
// rehashes: the map agrees with std::map throughout.
TEST(FlatMap, AgreesWithStdMapThroughGrowth) {
  FlatMap<uint64_t> m;
  std::map<uint64_t, uint32_t> reference;
  std::mt19937_64 random(12);
  for (uint32_t i = 0; i < 50000; ++i) {
    const uint64_t key = (random() % 4 == 0) ? (uint64_t{i % 977} << 32) : random() % 100000;
    const auto [value, inserted] = m.try_emplace(key, i);
    const auto [it, ref_inserted] = reference.try_emplace(key, i);
    ASSERT_EQ(inserted, ref_inserted);
    ASSERT_EQ(*value, it->second);
  }
  EXPECT_EQ(m.size(), reference.size());
  for (const auto& [key, value] : reference) {
    const uint32_t* found = m.find(key);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(*found, value);
  }
  size_t visited = 0;
  m.for_each([&](uint64_t key, uint32_t value) {
    EXPECT_EQ(reference.at(key), value);
    ++visited;
  });
  EXPECT_EQ(visited, reference.size());
  EXPECT_EQ(m.find(100001), nullptr);
}

TEST(FlatMap, ClearForgetsEverythingAndKeepsCapacity) {
  FlatMap<uint32_t> m;
  m.reserve(1000);
  const size_t bytes = m.bytes();
  for (uint32_t k = 0; k < 500; ++k) m.try_emplace(k, k);
  m.clear();
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.bytes(), bytes);
  for (uint32_t k = 0; k < 500; ++k) EXPECT_EQ(m.find(k), nullptr);
  EXPECT_TRUE(m.try_emplace(3, 9).second);
}

TEST(UndoableIndex, FindOrAddNumbersKeysInOrder) {
  UndoableIndex<std::string> index;
  bool added = false;
  EXPECT_EQ(index.find_or_add("a", added), 0u);
  EXPECT_TRUE(added);
  EXPECT_EQ(index.find_or_add("b", added), 1u);
  EXPECT_EQ(index.find_or_add("a", added), 0u);
  EXPECT_FALSE(added);
  EXPECT_EQ(index.at(1), "b");
}

// Undoing the latest additions leaves exactly the table of the first `count` keys, with or
// without a rehash in between.
TEST(UndoableIndex, TruncateRestoresTheEarlierTable) {
  for (const uint32_t extra : {10u, 5000u}) {
    UndoableIndex<uint64_t> index;
    bool added = false;
    for (uint64_t k = 0; k < 300; ++k) index.find_or_add(k << 40, added);
    const uint32_t count = index.size();
    const uint64_t generation = index.generation();
    for (uint64_t k = 0; k < extra; ++k) index.find_or_add((k + 1000) << 40, added);
    index.truncate(count, generation);
    ASSERT_EQ(index.size(), count);
    for (uint64_t k = 0; k < 300; ++k) {
      EXPECT_EQ(index.find_or_add(k << 40, added), k);
      EXPECT_FALSE(added);
    }
    EXPECT_EQ(index.find_or_add(uint64_t{1000} << 40, added), count);
    EXPECT_TRUE(added);
  }
}

TEST(UndoableIndex, ClearStartsAfresh) {
  UndoableIndex<uint64_t> index;
  bool added = false;
  for (uint64_t k = 0; k < 100; ++k) index.find_or_add(k, added);
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find_or_add(42, added), 0u);
  EXPECT_TRUE(added);
}

}  // namespace
}  // namespace anchorfs::analysis::python
