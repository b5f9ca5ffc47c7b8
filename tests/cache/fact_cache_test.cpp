// LmdbFactCache basics: hits and misses, batching, persistence, versions, map growth, threads.
#include <sys/stat.h>

#include <atomic>
#include <thread>
#include <vector>

#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

using FactCacheTest = CacheTest;

TEST_F(FactCacheTest, MissThenHitFromQueueThenFromDisk) {
  auto cache = open_cache();
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->load(digest_for(1)), std::nullopt);
  cache->store(digest_for(1), facts_for(1));
  EXPECT_EQ(cache->load(digest_for(1)), facts_for(1));  // queued, not yet committed
  EXPECT_EQ(cache->disk_hits(), 0u);
  cache->flush();
  EXPECT_EQ(cache->load(digest_for(1)), facts_for(1));
  EXPECT_EQ(cache->disk_hits(), 1u);
  EXPECT_EQ(cache->load(digest_for(2)), std::nullopt);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(FactCacheTest, DigestHalvesBothMatter) {
  auto cache = open_cache();
  cache->store({7, 8}, "seven-eight");
  cache->flush();
  EXPECT_EQ(cache->load({7, 8}), "seven-eight");
  EXPECT_EQ(cache->load({7, 9}), std::nullopt);
  EXPECT_EQ(cache->load({8, 7}), std::nullopt);
}

TEST_F(FactCacheTest, EmptyAndBinaryFactsRoundTrip) {
  const std::string binary("\0\x01\xff\n\0end", 8);
  {
    auto cache = open_cache();
    cache->store(digest_for(1), "");
    cache->store(digest_for(2), binary);
    cache->store(digest_for(3), std::string(3 << 20, 'x'));  // larger than a page: overflow pages
  }
  auto cache = open_cache();
  EXPECT_EQ(cache->load(digest_for(1)), "");
  EXPECT_EQ(cache->load(digest_for(2)), binary);
  EXPECT_EQ(cache->load(digest_for(3)), std::string(3 << 20, 'x'));
}

TEST_F(FactCacheTest, PersistsAcrossReopenAndDestructorFlushes) {
  {
    auto cache = open_cache();
    for (uint64_t i = 0; i < 300; ++i) {
      cache->store(digest_for(i), facts_for(i));
    }
  }
  auto cache = open_cache();
  for (uint64_t i = 0; i < 300; ++i) {
    ASSERT_EQ(cache->load(digest_for(i)), facts_for(i)) << i;
  }
  EXPECT_EQ(cache->disk_hits(), 300u);
  EXPECT_EQ(cache->info().entries, 300u);
}

TEST_F(FactCacheTest, OtherAnalyserVersionIsIgnoredAndDropped) {
  {
    auto v1 = open_cache("v1");
    v1->store(digest_for(1), "old facts");
  }
  {
    auto v2 = open_cache("v2");
    EXPECT_EQ(v2->load(digest_for(1)), std::nullopt);
    EXPECT_EQ(v2->info().entries, 0u);  // v1's entries were dropped on open
    EXPECT_EQ(v2->info().analyser_version, "v2");
    v2->store(digest_for(1), "new facts");
  }
  auto v2 = open_cache("v2");
  EXPECT_EQ(v2->load(digest_for(1)), "new facts");
  auto v1_again = open_cache("v1");
  EXPECT_EQ(v1_again->load(digest_for(1)), std::nullopt);
}

TEST_F(FactCacheTest, MapGrowsWhenFull) {
  CacheOptions small = options();
  small.initial_map_bytes = 64 << 10;
  {
    auto cache = LmdbFactCache::open(small);
    for (uint64_t i = 0; i < 3000; ++i) {
      cache->store(digest_for(i), facts_for(i, 1000));
    }
    cache->flush();
    EXPECT_EQ(cache->info().entries, 3000u);
    EXPECT_GT(cache->info().bytes_on_disk, 3000u * 1000u);
  }
  auto cache = LmdbFactCache::open(small);
  for (uint64_t i = 0; i < 3000; i += 97) {
    ASSERT_EQ(cache->load(digest_for(i)), facts_for(i, 1000)) << i;
  }
  EXPECT_TRUE(warnings().empty());
}

TEST_F(FactCacheTest, OverTheLimitOnlyEntriesInUseSurvive) {
  CacheOptions limited = options();
  limited.max_entries = 100;
  {
    auto cache = LmdbFactCache::open(limited);
    for (uint64_t i = 0; i < 90; ++i) {
      cache->store(digest_for(i), facts_for(i));
    }
    cache->flush();
    EXPECT_EQ(cache->info().entries, 90u);  // under the limit: nothing dropped
  }
  {
    auto cache = LmdbFactCache::open(limited);  // a later run: uses 10 old entries, adds 20
    for (uint64_t i = 0; i < 10; ++i) {
      ASSERT_EQ(cache->load(digest_for(i)), facts_for(i));
    }
    for (uint64_t i = 1000; i < 1020; ++i) {
      cache->store(digest_for(i), facts_for(i));
    }
    cache->flush();
    EXPECT_EQ(cache->info().entries, 30u);
  }
  auto cache = LmdbFactCache::open(limited);
  for (uint64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(cache->load(digest_for(i)), facts_for(i)) << i;
  }
  for (uint64_t i = 1000; i < 1020; ++i) {
    EXPECT_EQ(cache->load(digest_for(i)), facts_for(i)) << i;
  }
  EXPECT_EQ(cache->load(digest_for(50)), std::nullopt);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(FactCacheTest, ConcurrentLoadsStoresAndFlushesFromManyThreads) {
  constexpr uint64_t kThreads = 8;
  constexpr uint64_t kPerThread = 250;
  auto cache = open_cache();
  std::atomic<bool> wrong{false};
  std::atomic<bool> done{false};
  std::thread flusher([&] {
    while (!done) {
      cache->flush();
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> workers;
  for (uint64_t t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      for (uint64_t n = 0; n < kPerThread; ++n) {
        const uint64_t mine = t * kPerThread + n;
        cache->store(digest_for(mine), facts_for(mine));
        // Read back a neighbour's entry: either absent so far or exactly right.
        const uint64_t other = ((t + 1) % kThreads) * kPerThread + n;
        if (auto got = cache->load(digest_for(other)); got && *got != facts_for(other)) {
          wrong = true;
        }
        if (cache->load(digest_for(mine)) != facts_for(mine)) {
          wrong = true;
        }
      }
    });
  }
  for (auto& w : workers) {
    w.join();
  }
  done = true;
  flusher.join();
  cache->flush();
  EXPECT_FALSE(wrong);
  cache.reset();
  auto reopened = open_cache();
  for (uint64_t i = 0; i < kThreads * kPerThread; ++i) {
    ASSERT_EQ(reopened->load(digest_for(i)), facts_for(i)) << i;
  }
  EXPECT_EQ(reopened->info().entries, kThreads * kPerThread);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(FactCacheTest, StoreDirectoryIsPrivate) {
  const mode_t old_umask = ::umask(0);
  auto cache = open_cache();
  ::umask(old_umask);
  cache->store(digest_for(1), facts_for(1));
  cache->flush();
  struct stat st {};
  ASSERT_EQ(::stat(cache->store_dir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  for (const char* name : {"data.mdb", "lock.mdb"}) {
    ASSERT_EQ(::stat((cache->store_dir() + "/" + name).c_str(), &st), 0) << name;
    EXPECT_EQ(st.st_mode & 07777, 0600u) << name;
  }
}

TEST_F(FactCacheTest, LoosePermissionsOfAnExistingStoreAreTightened) {
  std::string dir;
  {
    auto cache = open_cache();
    dir = cache->store_dir();
  }
  ::chmod(dir.c_str(), 0755);
  ::chmod((dir + "/data.mdb").c_str(), 0644);
  auto cache = open_cache();
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  ASSERT_EQ(::stat((dir + "/data.mdb").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST_F(FactCacheTest, InfoDescribesTheStore) {
  auto cache = open_cache("version-xyz");
  cache->store(digest_for(1), facts_for(1));
  cache->store(digest_for(2), facts_for(2));
  cache->flush();
  const StoreInfo info = cache->info();
  EXPECT_EQ(info.location, cache->store_dir());
  EXPECT_EQ(info.repo_path, resolve_path(repo_));
  EXPECT_EQ(info.analyser_version, "version-xyz");
  EXPECT_EQ(info.entries, 2u);
  EXPECT_GT(info.bytes_on_disk, 0u);
  EXPECT_TRUE(info.healthy);
  EXPECT_EQ(cache->store_dir().rfind(resolve_path(cache_root_) + "/", 0), 0u);
}

}  // namespace
}  // namespace anchorfs::cache::testing
