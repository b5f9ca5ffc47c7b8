// `cache stats`, `cache trim` and `cache clear`: inspecting the shared store without modifying
// it, finding and removing legacy per-repository stores, touching nothing else.
#include <filesystem>

#include "cache/store_info.h"
#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

using StoreAdminTest = CacheTest;

TEST_F(StoreAdminTest, InspectsTheSharedStoreWithEntriesSizeAndCounters) {
  EXPECT_EQ(inspect_store(cache_root_), std::nullopt);
  {
    auto a = open_cache();
    EXPECT_EQ(a->load(key_for(1)), std::nullopt);
    a->store(key_for(1), facts_for(1));
    a->store(key_for(2), facts_for(2));
  }
  {
    auto b = open_cache();
    EXPECT_EQ(b->load(key_for(2)), facts_for(2));
  }
  const auto store = inspect_store(cache_root_);
  ASSERT_TRUE(store.has_value());
  EXPECT_TRUE(store->healthy) << store->problem;
  EXPECT_EQ(store->entries, 2u);
  EXPECT_GT(store->bytes_on_disk, 0u);
  EXPECT_GT(store->accounted_bytes, 400u);
  EXPECT_EQ(store->counts.fact_hits, 1u);
  EXPECT_EQ(store->counts.fact_misses, 1u);
  EXPECT_EQ(store->location, shared_store_dir(cache_root_));
}

TEST_F(StoreAdminTest, ReportsADamagedStoreWithoutRepairingIt) {
  std::string dir;
  {
    auto cache = open_cache();
    cache->store(key_for(1), facts_for(1));
    dir = cache->store_dir();
  }
  std::filesystem::resize_file(dir + "/data.mdb", 5000);
  const auto store = inspect_store(cache_root_);
  ASSERT_TRUE(store.has_value());
  EXPECT_FALSE(store->healthy);
  EXPECT_NE(store->problem.find("truncated"), std::string::npos) << store->problem;
  EXPECT_EQ(std::filesystem::file_size(dir + "/data.mdb"), 5000u);
}

TEST_F(StoreAdminTest, FindsAndRemovesLegacyPerRepositoryStoresOnly) {
  const std::string legacy = cache_root_ + "/0123456789abcdef";
  std::filesystem::create_directories(legacy);
  write_file(legacy + "/data.mdb", std::string(10000, 'x'));
  write_file(legacy + "/lock.mdb", std::string(100, 'x'));
  const std::string kept = cache_root_ + "/fedcba9876543210";
  std::filesystem::create_directories(kept);
  write_file(kept + "/precious", "keep me");
  EXPECT_EQ(legacy_store_dirs(cache_root_), (std::vector<std::string>{legacy, kept}));
  EXPECT_EQ(legacy_store_bytes(cache_root_), 10100u);
  EXPECT_TRUE(clear_legacy_store(legacy));
  EXPECT_FALSE(clear_legacy_store(kept));  // something not ours is in it
  EXPECT_EQ(read_file(kept + "/precious"), "keep me");
  EXPECT_FALSE(std::filesystem::exists(legacy));
}

TEST_F(StoreAdminTest, ClearAllRemovesOnlyStores) {
  {
    auto a = open_cache();
    a->store(key_for(1), facts_for(1));
  }
  std::filesystem::create_directories(cache_root_ + "/not-a-store");
  write_file(cache_root_ + "/notes.txt", "keep me");
  std::filesystem::create_directories(cache_root_ + "/0123456789abcdef");
  write_file(cache_root_ + "/0123456789abcdef/precious", "keep me too");

  EXPECT_EQ(clear_all_stores(cache_root_), 1u);
  EXPECT_EQ(list_dir(cache_root_),
            (std::vector<std::string>{"0123456789abcdef", "not-a-store", "notes.txt"}));
  EXPECT_EQ(read_file(cache_root_ + "/0123456789abcdef/precious"), "keep me too");
  auto a = open_cache();
  EXPECT_EQ(a->load(key_for(1)), std::nullopt);
}

}  // namespace
}  // namespace anchorfs::cache::testing
