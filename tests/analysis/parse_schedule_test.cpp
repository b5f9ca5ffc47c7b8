// ParseSchedule: every file handed out once, largest first, large files held to their budget.
#include "analysis/parse_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace anchorfs::analysis {
namespace {

std::vector<size_t> drain_one_at_a_time(ParseSchedule& schedule) {
  std::vector<size_t> order;
  while (const auto i = schedule.next()) {
    order.push_back(*i);
    schedule.finished(*i);
  }
  return order;
}

TEST(ParseSchedule, AloneItGoesLargestFirstWithTiesByIndex) {
  const std::vector<uint64_t> sizes = {5, 900, 30, 900, 0, 7};
  ParseSchedule schedule(sizes, 100);
  EXPECT_EQ(drain_one_at_a_time(schedule), (std::vector<size_t>{1, 3, 2, 5, 0, 4}));
  EXPECT_FALSE(schedule.next());
}

TEST(ParseSchedule, LargeFilesShareTheBudgetAndSmallOnesFillIn) {
  const std::vector<uint64_t> sizes = {600, 10, 500, 20, 300, 30};
  ParseSchedule schedule(sizes, 1000);
  EXPECT_EQ(schedule.next(), 0u);  // 600
  EXPECT_EQ(schedule.next(), 1u);  // 600 + 500 over budget: the smallest instead
  schedule.finished(1);
  EXPECT_EQ(schedule.next(), 3u);  // still over: next smallest
  schedule.finished(0);
  EXPECT_EQ(schedule.next(), 2u);  // 500 alone
  EXPECT_EQ(schedule.next(), 4u);  // 500 + 300 fits
  EXPECT_EQ(schedule.next(), 5u);  // 800 + 30 fits too
  EXPECT_FALSE(schedule.next());
}

TEST(ParseSchedule, AFileOverTheBudgetStillRunsAlone) {
  const std::vector<uint64_t> sizes = {5000, 1, 2};
  ParseSchedule schedule(sizes, 100);
  EXPECT_EQ(schedule.next(), 0u);
  EXPECT_EQ(schedule.next(), 1u);
  EXPECT_EQ(schedule.next(), 2u);
  EXPECT_FALSE(schedule.next());
}

// TypeScript's lib/: six bundles of 6-11.5 MB, every one over the budget, and a small file.
TEST(ParseSchedule, OnceOnlyFilesOverTheBudgetAreLeftTheLargestGoesFirst) {
  const std::vector<uint64_t> sizes = {6, 11, 10, 8, 12, 1};
  ParseSchedule schedule(sizes, 2);
  EXPECT_EQ(schedule.next(), 4u);  // 12
  EXPECT_EQ(schedule.next(), 5u);  // over budget beside it: the small file fills in
  schedule.finished(5);
  EXPECT_EQ(schedule.next(), 1u);  // nothing small left: 11, not 6
  schedule.finished(4);
  EXPECT_EQ(schedule.next(), 2u);  // 10
  schedule.finished(1);
  EXPECT_EQ(schedule.next(), 3u);  // 8
  EXPECT_EQ(schedule.next(), 0u);  // 6 last
  EXPECT_FALSE(schedule.next());
}

TEST(ParseSchedule, ManyThreadsGetEveryFileExactlyOnce) {
  std::vector<uint64_t> sizes;
  for (uint64_t i = 0; i < 2000; ++i) sizes.push_back((i * 7919) % 1500);
  constexpr uint64_t kBudget = 2000;
  ParseSchedule schedule(sizes, kBudget);
  std::vector<std::atomic<int>> seen(sizes.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      while (const auto i = schedule.next()) {
        seen[*i].fetch_add(1);
        schedule.finished(*i);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < sizes.size(); ++i) EXPECT_EQ(seen[i].load(), 1) << i;
}

}  // namespace
}  // namespace anchorfs::analysis
