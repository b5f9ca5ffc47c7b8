// run_on_threads: the work runs on that many distinct threads, the caller one of them; failures reach the caller.
// run_beside: the side work on a helper thread while the caller runs the main work, or after it.
#include "analysis/plain_threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "sync/mutex.h"

namespace anchorfs::analysis {
namespace {

std::set<std::thread::id> threads_that_ran(size_t count) {
  sync::Mutex mutex;
  std::set<std::thread::id> seen;
  run_on_threads(count, [&] {
    const sync::MutexLock lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  return seen;
}

TEST(RunOnThreads, EachOfThemRunsTheWorkOnceTheCallerIncluded) {
  const std::set<std::thread::id> seen = threads_that_ran(3);
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_TRUE(seen.contains(std::this_thread::get_id()));
}

TEST(RunOnThreads, NoneOrOneIsTheCallerAlone) {
  EXPECT_EQ(threads_that_ran(0), std::set<std::thread::id>{std::this_thread::get_id()});
  EXPECT_EQ(threads_that_ran(1), std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(RunOnThreads, AFailureOnAHelperReachesTheCallerOnceAllHaveReturned) {
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> returned{0};
  EXPECT_THROW(run_on_threads(2,
                              [&] {
                                const bool helper = std::this_thread::get_id() != caller;
                                returned.fetch_add(1);
                                if (helper) throw std::runtime_error("helper failed");
                              }),
               std::runtime_error);
  EXPECT_EQ(returned.load(), 2);
}

TEST(RunBeside, TheSideRunsOnAHelperWhileTheCallerRunsTheMain) {
  const std::thread::id caller = std::this_thread::get_id();
  std::thread::id main_thread, side_thread;
  run_beside(
      true, [&] { main_thread = std::this_thread::get_id(); },
      [&] { side_thread = std::this_thread::get_id(); });
  EXPECT_EQ(main_thread, caller);
  EXPECT_NE(side_thread, caller);
  EXPECT_NE(side_thread, std::thread::id{});
}

TEST(RunBeside, NotBesideTheSideRunsOnTheCallerAfterTheMain) {
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<std::pair<char, std::thread::id>> order;
  run_beside(
      false, [&] { order.emplace_back('m', std::this_thread::get_id()); },
      [&] { order.emplace_back('s', std::this_thread::get_id()); });
  const std::vector<std::pair<char, std::thread::id>> expected{{'m', caller}, {'s', caller}};
  EXPECT_EQ(order, expected);
}

TEST(RunBeside, FailuresReachTheCallerOnceBothHaveReturnedTheMainsFirst) {
  std::atomic<int> returned{0};
  EXPECT_THROW(run_beside(
                   true, [&] { returned.fetch_add(1); },
                   [&] {
                     returned.fetch_add(1);
                     throw std::runtime_error("side failed");
                   }),
               std::runtime_error);
  EXPECT_EQ(returned.load(), 2);
  try {
    run_beside(
        true, [] { throw std::logic_error("main failed"); },
        [] { throw std::runtime_error("side failed"); });
    ADD_FAILURE() << "nothing thrown";
  } catch (const std::logic_error&) {
    SUCCEED();
  }
}

}  // namespace
}  // namespace anchorfs::analysis
