// LmdbFactCache basics: hits and misses, batching, persistence, key parts, the cap, threads.
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <thread>
#include <vector>

#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

using FactCacheTest = CacheTest;

TEST_F(FactCacheTest, MissThenHitFromQueueThenFromDisk) {
  auto cache = open_cache();
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->load(key_for(1)), std::nullopt);
  cache->store(key_for(1), facts_for(1));
  EXPECT_EQ(cache->load(key_for(1)), facts_for(1));  // queued, not yet committed
  EXPECT_EQ(cache->disk_hits(), 0u);
  cache->flush();
  EXPECT_EQ(cache->load(key_for(1)), facts_for(1));
  EXPECT_EQ(cache->disk_hits(), 1u);
  EXPECT_EQ(cache->load(key_for(2)), std::nullopt);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(FactCacheTest, DigestHalvesBothMatter) {
  auto cache = open_cache();
  cache->store({{7, 8}, "test", "v1"}, "seven-eight");
  cache->flush();
  EXPECT_EQ(cache->load({{7, 8}, "test", "v1"}), "seven-eight");
  EXPECT_EQ(cache->load({{7, 9}, "test", "v1"}), std::nullopt);
  EXPECT_EQ(cache->load({{8, 7}, "test", "v1"}), std::nullopt);
}

TEST_F(FactCacheTest, EmptyAndBinaryFactsRoundTrip) {
  const std::string binary("\0\x01\xff\n\0end", 8);
  {
    auto cache = open_cache();
    cache->store(key_for(1), "");
    cache->store(key_for(2), binary);
    cache->store(key_for(3), std::string(3 << 20, 'x'));  // larger than a page: overflow pages
  }
  auto cache = open_cache();
  EXPECT_EQ(cache->load(key_for(1)), "");
  EXPECT_EQ(cache->load(key_for(2)), binary);
  EXPECT_EQ(cache->load(key_for(3)), std::string(3 << 20, 'x'));
}

// A record of tens of megabytes (a large tree's rendered view) is copied out into memory advised
// for huge pages (record_copy.h): every byte must still arrive, at every length around the advice.
TEST_F(FactCacheTest, LargeDerivedRecordsReadBackWhole) {
  const auto pattern = [](size_t size) {
    std::string bytes(size, '\0');
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 2654435761u) >> 13);
    return bytes;
  };
  const std::vector<size_t> sizes = {(16u << 20) - 1, 16u << 20, (40u << 20) + 12345};
  {
    auto cache = open_cache();
    for (size_t i = 0; i < sizes.size(); ++i) cache->store_derived({i + 1, 9}, pattern(sizes[i]));
  }
  auto cache = open_cache();
  for (size_t i = 0; i < sizes.size(); ++i) {
    const std::optional<std::string> loaded = cache->load_derived({i + 1, 9});
    ASSERT_TRUE(loaded.has_value()) << sizes[i];
    EXPECT_TRUE(*loaded == pattern(sizes[i])) << sizes[i];
  }
  EXPECT_TRUE(warnings().empty());
}

TEST_F(FactCacheTest, PersistsAcrossReopenAndDestructorFlushes) {
  {
    auto cache = open_cache();
    for (uint64_t i = 0; i < 300; ++i) {
      cache->store(key_for(i), facts_for(i));
    }
  }
  auto cache = open_cache();
  for (uint64_t i = 0; i < 300; ++i) {
    ASSERT_EQ(cache->load(key_for(i)), facts_for(i)) << i;
  }
  EXPECT_EQ(cache->disk_hits(), 300u);
  EXPECT_EQ(cache->info().entries, 300u);
}

TEST_F(FactCacheTest, EntriesOfAnotherFrontEndOrFactsVersionNeverAnswer) {
  {
    auto cache = open_cache();
    cache->store(key_for(1, "v1", "python"), "python v1");
    cache->store(key_for(1, "v1", "rust"), "rust v1");
  }
  auto cache = open_cache();
  EXPECT_EQ(cache->load(key_for(1, "v1", "python")), "python v1");
  EXPECT_EQ(cache->load(key_for(1, "v1", "rust")), "rust v1");
  EXPECT_EQ(cache->load(key_for(1, "v2", "python")), std::nullopt);
  EXPECT_EQ(cache->load(key_for(1, "v1", "go")), std::nullopt);
}

TEST_F(FactCacheTest, ANewFactsVersionOfOneFrontEndKeepsEveryOtherFrontEndsEntries) {
  {
    auto cache = open_cache();
    cache->store(key_for(1, "v1", "python"), "python v1");
    cache->store(key_for(2, "v7", "rust"), "rust v7");
  }
  {
    auto extended = open_cache();  // python moves to v2: its old entries are simply not asked
    EXPECT_EQ(extended->load(key_for(1, "v2", "python")), std::nullopt);
    extended->store(key_for(1, "v2", "python"), "python v2");
  }
  auto cache = open_cache();
  EXPECT_EQ(cache->load(key_for(2, "v7", "rust")), "rust v7");
  EXPECT_EQ(cache->load(key_for(1, "v2", "python")), "python v2");
  EXPECT_EQ(cache->disk_hits(), 2u);
}

TEST_F(FactCacheTest, OneStoreServesEveryRepository) {
  const std::string other = scratch_ + "/other-checkout";
  std::filesystem::create_directories(other);
  {
    auto cache = open_cache();
    cache->store(key_for(1), facts_for(1));
  }
  CacheOptions elsewhere = options();
  elsewhere.repo_root = other;
  auto cache = LmdbFactCache::open(elsewhere);
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->load(key_for(1)), facts_for(1));
  EXPECT_EQ(cache->store_dir(), shared_store_dir(resolve_path(cache_root_)));
}

TEST_F(FactCacheTest, TheCapBoundsTheDataFileAndEvictsLeastRecentlyUsedFirst) {
  CacheOptions capped = options();
  capped.max_bytes = 8 << 20;
  // Entry 0..9 are used on every pass; each pass adds 200 new 4 KiB entries (~1 MB accounted),
  // so the store goes over its cap again and again.
  for (uint64_t pass = 0; pass < 14; ++pass) {
    auto cache = LmdbFactCache::open(capped);
    ASSERT_NE(cache, nullptr);
    for (uint64_t i = 0; i < 10; ++i) {
      if (!cache->load(key_for(i))) cache->store(key_for(i), facts_for(i, 4000));
    }
    for (uint64_t i = 0; i < 200; ++i) {
      const uint64_t n = 1000 + pass * 200 + i;
      cache->store(key_for(n), facts_for(n, 4000));
    }
    cache->flush();
    const StoreInfo info = cache->info();
    ASSERT_LE(info.used_bytes, capped.max_bytes) << "pass " << pass;
    ASSERT_LE(info.bytes_on_disk, capped.max_bytes + (64 << 10)) << "pass " << pass;
  }
  auto cache = LmdbFactCache::open(capped);
  for (uint64_t i = 0; i < 10; ++i) {
    EXPECT_TRUE(cache->load(key_for(i)) == facts_for(i, 4000)) << "recently used entry " << i;
  }
  EXPECT_EQ(cache->load(key_for(1000)), std::nullopt) << "the oldest entry survived";
  EXPECT_TRUE(cache->load(key_for(1000 + 13 * 200 + 199)) ==
              facts_for(1000 + 13 * 200 + 199, 4000));
  EXPECT_EQ(warnings(), std::vector<std::string>{});
}

TEST_F(FactCacheTest, TrimEvictsDownToTheTarget) {
  {
    auto cache = open_cache();
    for (uint64_t i = 0; i < 100; ++i) cache->store(key_for(i), facts_for(i, 3000));
  }
  auto cache = open_cache();
  const uint64_t before = cache->info().used_bytes;
  ASSERT_GT(before, 100u * 3000u);
  EXPECT_GT(cache->trim(before / 2), 0u);
  EXPECT_LE(cache->info().used_bytes, before * 6 / 10);
  EXPECT_LT(cache->info().entries, 100u);
}

TEST_F(FactCacheTest, HitCountersAreKeptInTheStore) {
  {
    auto cache = open_cache();
    EXPECT_EQ(cache->load(key_for(1)), std::nullopt);
    cache->store(key_for(1), facts_for(1));
  }
  {
    auto cache = open_cache();
    EXPECT_EQ(cache->load(key_for(1)), facts_for(1));
    EXPECT_EQ(cache->load(key_for(2)), std::nullopt);
  }
  const HitCounts counts = open_cache()->info().counts;
  EXPECT_EQ(counts.fact_hits, 1u);
  EXPECT_EQ(counts.fact_misses, 2u);
  EXPECT_EQ(counts.fact_remote_hits, 0u);
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
        cache->store(key_for(mine), facts_for(mine));
        // Read back a neighbour's entry: either absent so far or exactly right.
        const uint64_t other = ((t + 1) % kThreads) * kPerThread + n;
        if (auto got = cache->load(key_for(other)); got && *got != facts_for(other)) {
          wrong = true;
        }
        if (cache->load(key_for(mine)) != facts_for(mine)) {
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
    ASSERT_EQ(reopened->load(key_for(i)), facts_for(i)) << i;
  }
  EXPECT_EQ(reopened->info().entries, kThreads * kPerThread);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(FactCacheTest, StoreDirectoryIsPrivate) {
  const mode_t old_umask = ::umask(0);
  auto cache = open_cache();
  ::umask(old_umask);
  cache->store(key_for(1), facts_for(1));
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
  auto cache = open_cache();
  cache->store(key_for(1), facts_for(1));
  cache->store(key_for(2), facts_for(2));
  cache->flush();
  const StoreInfo info = cache->info();
  EXPECT_EQ(info.location, cache->store_dir());
  EXPECT_EQ(info.entries, 2u);
  EXPECT_GT(info.bytes_on_disk, 0u);
  EXPECT_GT(info.accounted_bytes, 2u * 200u);
  EXPECT_EQ(info.max_bytes, kDefaultMaxBytes);
  EXPECT_TRUE(info.healthy);
  EXPECT_EQ(cache->store_dir().rfind(resolve_path(cache_root_) + "/", 0), 0u);
}

}  // namespace
}  // namespace anchorfs::cache::testing
