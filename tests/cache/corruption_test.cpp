// Damaged stores: truncated or scribbled files are set aside and rebuilt, never trusted.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <random>

#include "cache/verified_identity.h"
#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

constexpr uint64_t kEntries = 400;

class CorruptionTest : public CacheTest {
 protected:
  // Fills a store with kEntries entries and closes it; returns the store directory.
  std::string filled_store() {
    auto cache = open_cache();
    for (uint64_t i = 0; i < kEntries; ++i) {
      cache->store(key_for(i), facts_for(i, 500));
    }
    cache->flush();
    return cache->store_dir();
  }

  size_t set_aside_files(const std::string& dir) {
    size_t count = 0;
    for (const std::string& name : list_dir(dir)) {
      count += name.starts_with("data.mdb.corrupt-") ? 1 : 0;
    }
    return count;
  }

  // After damage: every load is a miss or exactly right; then the store works normally again.
  void expect_never_wrong_then_usable() {
    {
      auto cache = open_cache();
      ASSERT_NE(cache, nullptr);
      for (uint64_t i = 0; i < kEntries; ++i) {
        if (auto got = cache->load(key_for(i))) {
          ASSERT_TRUE(*got == facts_for(i, 500)) << "wrong facts for entry " << i;
        } else {
          cache->store(key_for(i), facts_for(i, 500));
        }
      }
      cache->flush();
    }
    auto cache = open_cache();
    for (uint64_t i = 0; i < kEntries; ++i) {
      ASSERT_TRUE(cache->load(key_for(i)) == facts_for(i, 500)) << "entry " << i;
    }
  }
};

TEST_F(CorruptionTest, TruncatedDataFileIsSetAsideAndRebuilt) {
  const std::string dir = filled_store();
  const std::string data = dir + "/data.mdb";
  struct stat st {};
  ASSERT_EQ(::stat(data.c_str(), &st), 0);
  ASSERT_EQ(::truncate(data.c_str(), st.st_size / 2), 0);

  auto cache = open_cache();
  ASSERT_NE(cache, nullptr);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("corrupt"), std::string::npos) << warnings()[0];
  EXPECT_EQ(warnings()[0].find('\n'), std::string::npos);
  EXPECT_EQ(set_aside_files(dir), 1u);
  EXPECT_EQ(cache->load(key_for(0)), std::nullopt);
  EXPECT_EQ(cache->info().entries, 0u);
  cache.reset();
  expect_never_wrong_then_usable();
  EXPECT_EQ(warnings().size(), 1u);
}

TEST_F(CorruptionTest, EmptiedDataFileIsSetAsideAndRebuilt) {
  const std::string dir = filled_store();
  ASSERT_EQ(::truncate((dir + "/data.mdb").c_str(), 0), 0);
  expect_never_wrong_then_usable();
  EXPECT_EQ(warnings().size(), 1u);
  EXPECT_EQ(set_aside_files(dir), 1u);
}

TEST_F(CorruptionTest, FullyScribbledDataFileIsSetAsideAndRebuilt) {
  const std::string dir = filled_store();
  const std::string data = dir + "/data.mdb";
  std::string bytes = read_file(data);
  std::mt19937_64 random(42);
  for (char& c : bytes) {
    c = static_cast<char>(random() & 0xff);
  }
  write_file(data, bytes);
  expect_never_wrong_then_usable();
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("set aside"), std::string::npos);
}

TEST_F(CorruptionTest, ScribbledMetaPagesAreDetected) {
  const std::string dir = filled_store();
  const std::string data = dir + "/data.mdb";
  std::string bytes = read_file(data);
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::mt19937_64 random(7);
  for (size_t i = 0; i < 2 * page; ++i) {
    bytes[i] = static_cast<char>(random() & 0xff);
  }
  write_file(data, bytes);
  expect_never_wrong_then_usable();
  EXPECT_EQ(warnings().size(), 1u);
}

// A store opens without its page walk only while its data file is exactly as a verified store's
// last commit left it (cache/verified_identity.h); damage written since changes the file's
// identity, so the walk runs and finds it.
TEST_F(CorruptionTest, DamageAfterTheLastVerifiedCommitIsStillFoundByTheWalk) {
  const std::string dir = filled_store();
  const std::string data = dir + "/data.mdb";
  {
    auto cache = open_cache();
    cache->store(key_for(kEntries), facts_for(kEntries, 500));
    cache->flush();
  }
  ASSERT_TRUE(identity_of_path(data).has_value());
  EXPECT_EQ(recorded_identity(dir), identity_of_path(data)) << "the last commit was not recorded";
  std::string bytes = read_file(data);
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::mt19937_64 random(3);
  for (size_t i = 0; i < 2 * page; ++i) bytes[i] = static_cast<char>(random() & 0xff);
  write_file(data, bytes);
  EXPECT_NE(recorded_identity(dir), identity_of_path(data));
  expect_never_wrong_then_usable();
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("corrupt"), std::string::npos) << warnings()[0];
}

// A file changed behind an open store's back (here only its times) is not vouched for by that
// store's next commit: the record stays stale and the next open walks.
TEST_F(CorruptionTest, ACommitAfterAnOutsideChangeRecordsNothing) {
  const std::string dir = filled_store();
  const std::string data = dir + "/data.mdb";
  auto cache = open_cache();
  ASSERT_EQ(recorded_identity(dir), identity_of_path(data));
  ASSERT_EQ(::utimensat(AT_FDCWD, data.c_str(), nullptr, 0), 0);  // moves mtime and ctime
  cache->store(key_for(kEntries), facts_for(kEntries, 500));
  cache->flush();
  EXPECT_NE(recorded_identity(dir), identity_of_path(data));
  cache.reset();
  expect_never_wrong_then_usable();
  EXPECT_TRUE(warnings().empty());
}

// Random bursts anywhere: whether or not a burst lands somewhere that matters, the cache
// never crashes and never returns facts other than the ones stored.
TEST_F(CorruptionTest, RandomScribblesNeverCrashOrGiveWrongFacts) {
  const std::string dir = filled_store();
  const std::string data = dir + "/data.mdb";
  const std::string pristine = read_file(data);
  size_t detected = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    std::string bytes = pristine;
    std::mt19937_64 random(seed);
    for (int burst = 0; burst < 8; ++burst) {
      const size_t at = random() % bytes.size();
      const size_t length = 1 + random() % 64;
      for (size_t i = at; i < std::min(bytes.size(), at + length); ++i) {
        bytes[i] = static_cast<char>(random() & 0xff);
      }
    }
    ::unlink((dir + "/lock.mdb").c_str());
    write_file(data, bytes);
    const size_t before = warnings().size();
    expect_never_wrong_then_usable();
    detected += warnings().size() > before ? 1 : 0;
  }
  EXPECT_GT(detected, 0u);
}

TEST_F(CorruptionTest, ValueDamagedWhileOpenIsNeverServedAndTheStoreIsRebuilt) {
  auto cache = open_cache();
  const std::string marker = "MARKER-" + std::string(300, 'm');
  cache->store(key_for(1), marker);
  cache->store(key_for(2), facts_for(2));
  cache->flush();

  const std::string data = cache->store_dir() + "/data.mdb";
  const size_t at = read_file(data).find(marker);
  ASSERT_NE(at, std::string::npos);
  patch_file(data, at + 100, "X");  // same inode: LMDB's map sees the damage at once

  EXPECT_EQ(cache->load(key_for(1)), std::nullopt);
  EXPECT_FALSE(cache->info().healthy);
  cache->store(key_for(3), facts_for(3));
  cache->flush();
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("failed verification"), std::string::npos) << warnings()[0];
  EXPECT_TRUE(cache->info().healthy);
  EXPECT_EQ(cache->load(key_for(1)), std::nullopt);  // rebuilt empty, then refilled
  EXPECT_EQ(cache->load(key_for(3)), facts_for(3));
  cache->store(key_for(1), marker);
  cache->flush();
  cache.reset();
  auto reopened = open_cache();
  EXPECT_EQ(reopened->load(key_for(1)), marker);
  EXPECT_EQ(reopened->load(key_for(3)), facts_for(3));
  EXPECT_EQ(warnings().size(), 1u);
}

TEST_F(CorruptionTest, OnlyTheLatestSetAsideFileIsKept) {
  const std::string dir = filled_store();
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(::truncate((dir + "/data.mdb").c_str(), 100), 0);
    auto cache = open_cache();
    cache->store(key_for(1), facts_for(1));
  }
  EXPECT_EQ(warnings().size(), 3u);
  EXPECT_EQ(set_aside_files(dir), 1u);
}

}  // namespace
}  // namespace anchorfs::cache::testing
