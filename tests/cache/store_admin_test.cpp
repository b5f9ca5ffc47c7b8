// `cache stats`, `cache trim` and `cache clear`: inspecting the shared store without modifying
// it, finding and removing legacy per-repository stores, touching nothing else.
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cache/dir_lock.h"
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

// A mount sharing the store records its data file's identity after every commit ("verified.*",
// written and renamed into the directory): `cache clear` racing such a commit must still remove
// the whole store, and the live process go on writing to the files it holds. Each trial clears
// while a second thread commits without pause; a clear that reads the directory once misses the
// record made after its read and leaves the directory (the failure CI met in session 14).
TEST_F(StoreAdminTest, ClearRemovesTheStoreWhileALiveCacheKeepsCommitting) {
  constexpr int kTrials = 40;
  for (int trial = 0; trial < kTrials; ++trial) {
    auto live = open_cache();
    std::atomic<int> commits{0};
    std::atomic<bool> stop{false};
    std::thread writer([&] {
      for (uint64_t i = 0; !stop.load(); ++i) {
        live->store(key_for(i), facts_for(i));
        live->flush();
        commits.fetch_add(1);
      }
    });
    while (commits.load() < 2) std::this_thread::yield();
    const size_t removed = clear_all_stores(cache_root_);
    stop.store(true);
    writer.join();
    ASSERT_EQ(removed, 1u) << "trial " << trial << ": "
                           << ::testing::PrintToString(list_dir(shared_store_dir(cache_root_)));
    ASSERT_FALSE(std::filesystem::exists(shared_store_dir(cache_root_))) << "trial " << trial;
  }
  EXPECT_TRUE(warnings().empty()) << warnings().front();
}

// Whether a flock request of this process is waiting (/proc/locks lists waiters after "->").
bool a_flock_of_ours_waits() {
  const std::string ours = fmt::format(" {} ", ::getpid());
  std::ifstream locks("/proc/locks");  // sized 0: read it as a stream
  for (std::string line; std::getline(locks, line);) {
    if (line.find("-> FLOCK") != std::string::npos && line.find(ours) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// A process opening the store while `cache clear` holds its lock finds the directory gone when
// the lock comes: it makes a new store rather than open one in a directory no path names.
TEST_F(StoreAdminTest, OpeningBehindAClearMakesTheStoreAgain) {
  {
    auto first = open_cache();
    first->store(key_for(1), facts_for(1));
  }
  const std::string dir = shared_store_dir(cache_root_);
  std::unique_ptr<LmdbFactCache> opened;
  std::thread opener;
  {
    const DirLock clearing(dir);
    opener = std::thread([&] { opened = open_cache(); });
    while (!a_flock_of_ours_waits()) std::this_thread::yield();
    for (const std::string& name : list_dir(dir)) std::filesystem::remove(dir + "/" + name);
    std::filesystem::remove(dir);
  }
  opener.join();
  ASSERT_NE(opened, nullptr) << ::testing::PrintToString(warnings());
  EXPECT_EQ(opened->load(key_for(1)), std::nullopt);
  opened->store(key_for(2), facts_for(2));
  opened->flush();
  EXPECT_EQ(open_cache()->load(key_for(2)), facts_for(2));
  EXPECT_TRUE(std::filesystem::exists(dir + "/data.mdb"));
}

}  // namespace
}  // namespace anchorfs::cache::testing
