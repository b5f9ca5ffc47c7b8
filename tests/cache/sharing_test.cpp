// Two processes (two mounts of one repository) sharing a store at the same time.
#include <sys/wait.h>
#include <unistd.h>

#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

using SharingTest = CacheTest;

constexpr uint64_t kPerProcess = 600;
constexpr int kRounds = 6;

// Stores entries [first, first + kPerProcess) over several flushes, reading the other
// process's range as it goes; returns false if anything read back was wrong.
bool exercise(LmdbFactCache& cache, uint64_t first, uint64_t other_first) {
  bool ok = true;
  const uint64_t per_round = kPerProcess / kRounds;
  for (int round = 0; round < kRounds; ++round) {
    for (uint64_t n = 0; n < per_round; ++n) {
      const uint64_t i = first + static_cast<uint64_t>(round) * per_round + n;
      cache.store(key_for(i), facts_for(i));
      const uint64_t j = other_first + static_cast<uint64_t>(round) * per_round + n;
      if (auto got = cache.load(key_for(j)); got && *got != facts_for(j)) {
        ok = false;
      }
    }
    cache.flush();
  }
  return ok;
}

TEST_F(SharingTest, TwoProcessesWriteAndReadOneStoreConcurrently) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    int code = 1;
    try {
      auto cache = open_cache();
      const char byte = 'r';
      if (cache && ::write(ready[1], &byte, 1) == 1) {
        code = exercise(*cache, kPerProcess, 0) ? 0 : 2;
      }
    } catch (...) {
      code = 3;
    }
    ::_exit(code);
  }
  ::close(ready[1]);
  auto cache = open_cache();
  ASSERT_NE(cache, nullptr);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);  // both have the store open from here on
  ::close(ready[0]);
  EXPECT_TRUE(exercise(*cache, 0, kPerProcess));
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);

  // This process sees the other's commits without reopening, and so does a fresh open.
  for (uint64_t i = 0; i < 2 * kPerProcess; ++i) {
    ASSERT_EQ(cache->load(key_for(i)), facts_for(i)) << i;
  }
  cache.reset();
  auto reopened = open_cache();
  EXPECT_EQ(reopened->info().entries, 2 * kPerProcess);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(SharingTest, ALargerCapSetByAnotherProcessIsAdopted) {
  CacheOptions small = options();
  small.max_bytes = 1 << 20;
  auto reader = LmdbFactCache::open(small);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int code = 1;
    try {
      CacheOptions mine = small;
      mine.max_bytes = 64 << 20;
      mine.warn = nullptr;
      auto writer = LmdbFactCache::open(mine);
      for (uint64_t i = 0; i < 2000; ++i) {
        writer->store(key_for(i), facts_for(i, 1000));
      }
      writer->flush();
      code = writer->info().entries == 2000 ? 0 : 2;
    } catch (...) {
      code = 3;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  for (uint64_t i = 0; i < 2000; i += 37) {
    ASSERT_EQ(reader->load(key_for(i)), facts_for(i, 1000)) << i;
  }
  EXPECT_TRUE(warnings().empty());
}

}  // namespace
}  // namespace anchorfs::cache::testing
