// `cache stats` and `cache clear`: listing stores, removing one or all, touching nothing else.
#include <filesystem>

#include "cache/store_info.h"
#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

using StoreAdminTest = CacheTest;

TEST_F(StoreAdminTest, ListsEveryStoreWithItsRepositoryVersionAndSize) {
  const std::string other = scratch_ + "/other";
  std::filesystem::create_directories(other);
  {
    auto a = open_cache("v1");
    a->store(digest_for(1), facts_for(1));
    a->store(digest_for(2), facts_for(2));
    CacheOptions o = options("v9");
    o.repo_root = other;
    auto b = LmdbFactCache::open(o);
    b->store(digest_for(3), facts_for(3));
  }
  const std::vector<StoreInfo> stores = list_stores(cache_root_);
  ASSERT_EQ(stores.size(), 2u);
  const StoreInfo& first = stores[0].repo_path == resolve_path(other) ? stores[1] : stores[0];
  const StoreInfo& second = &first == &stores[0] ? stores[1] : stores[0];
  EXPECT_EQ(first.repo_path, resolve_path(repo_));
  EXPECT_EQ(first.analyser_version, "v1");
  EXPECT_EQ(first.entries, 2u);
  EXPECT_GT(first.bytes_on_disk, 0u);
  EXPECT_TRUE(first.healthy);
  EXPECT_EQ(first.location, store_dir_for(cache_root_, repo_));
  EXPECT_EQ(second.repo_path, resolve_path(other));
  EXPECT_EQ(second.analyser_version, "v9");
  EXPECT_EQ(second.entries, 1u);
}

TEST_F(StoreAdminTest, ReportsADamagedStoreWithoutRepairingIt) {
  std::string dir;
  {
    auto cache = open_cache();
    cache->store(digest_for(1), facts_for(1));
    dir = cache->store_dir();
  }
  std::filesystem::resize_file(dir + "/data.mdb", 5000);
  const std::vector<StoreInfo> stores = list_stores(cache_root_);
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_FALSE(stores[0].healthy);
  EXPECT_NE(stores[0].problem.find("truncated"), std::string::npos) << stores[0].problem;
  EXPECT_EQ(std::filesystem::file_size(dir + "/data.mdb"), 5000u);
}

TEST_F(StoreAdminTest, ClearsOneRepositorysStore) {
  const std::string other = scratch_ + "/other";
  std::filesystem::create_directories(other);
  {
    auto a = open_cache();
    a->store(digest_for(1), facts_for(1));
    CacheOptions o = options();
    o.repo_root = other;
    auto b = LmdbFactCache::open(o);
    b->store(digest_for(1), facts_for(1));
  }
  EXPECT_TRUE(clear_store(cache_root_, repo_));
  EXPECT_FALSE(std::filesystem::exists(store_dir_for(cache_root_, repo_)));
  EXPECT_FALSE(clear_store(cache_root_, repo_));
  ASSERT_EQ(list_stores(cache_root_).size(), 1u);
  auto a = open_cache();
  EXPECT_EQ(a->load(digest_for(1)), std::nullopt);
}

TEST_F(StoreAdminTest, ClearAllRemovesOnlyStores) {
  {
    auto a = open_cache();
    a->store(digest_for(1), facts_for(1));
  }
  std::filesystem::create_directories(cache_root_ + "/not-a-store");
  write_file(cache_root_ + "/notes.txt", "keep me");
  std::filesystem::create_directories(cache_root_ + "/0123456789abcdef");
  write_file(cache_root_ + "/0123456789abcdef/precious", "keep me too");

  EXPECT_EQ(clear_all_stores(cache_root_), 1u);
  EXPECT_EQ(list_dir(cache_root_),
            (std::vector<std::string>{"0123456789abcdef", "not-a-store", "notes.txt"}));
  EXPECT_EQ(read_file(cache_root_ + "/0123456789abcdef/precious"), "keep me too");
}

}  // namespace
}  // namespace anchorfs::cache::testing
