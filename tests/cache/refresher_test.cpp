// Refresher: one rebuild per settled burst, polling when watches run out, retries after failure.
#include "refresh/refresher.h"

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "analysis/source_tree.h"
#include "refresh/tree_watcher.h"
#include "refresh_support.h"

namespace anchorfs::refresh::testing {
namespace {

using std::chrono::milliseconds;

// What each rebuild was told: the changed paths, or nullopt when they were not known.
struct ToldPaths {
  std::mutex mutex;
  std::vector<std::optional<std::set<std::string>>> told;

  // A rebuild that records what it is told, then (under `mutex`) runs `then`, which may throw to
  // fail it.
  RebuildAtFn rebuild(std::function<void()> then = {}) {
    return [this, then = std::move(then)](
               const std::vector<std::string>* changed) -> std::optional<std::string> {
      std::lock_guard lock(mutex);
      told.emplace_back();
      if (changed != nullptr) told.back().emplace(changed->begin(), changed->end());
      if (then) then();
      return "rebuilt";
    };
  }
};

class RefresherTest : public ScratchTree {
 protected:
  RefreshOptions options() {
    RefreshOptions o;
    o.quiet = milliseconds(150);
    o.rescan_interval = milliseconds(200);
    o.retry_after = milliseconds(100);
    o.rescan_on_start = false;
    o.log = [this](const std::string& line) {
      std::lock_guard lock(mutex_);
      log_.push_back(line);
    };
    return o;
  }
  std::vector<std::string> log() {
    std::lock_guard lock(mutex_);
    return log_;
  }
  bool logged(const std::string& needle) {
    for (const std::string& line : log()) {
      if (line.find(needle) != std::string::npos) {
        return true;
      }
    }
    return false;
  }
  std::string read(const std::string& relative) {
    std::ifstream in(root_ + "/" + relative);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> log_;
};

TEST_F(RefresherTest, OneChangeGivesOneRefresh) {
  put(root_, "pkg/a.py", "x = 1\n");
  std::atomic<int> rebuilds{0};
  Refresher refresher(
      root_,
      [&]() -> std::optional<std::string> {
        ++rebuilds;
        return "rebuilt";
      },
      options());
  refresher.start();
  put(root_, "pkg/a.py", "x = 2\n");
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  EXPECT_EQ(rebuilds.load(), 1);
  EXPECT_EQ(refresher.stats().refreshes, 1u);
  EXPECT_FALSE(refresher.stats().polling);
  EXPECT_GE(refresher.stats().last_seconds, 0.1);  // it waited for the burst to settle
  EXPECT_TRUE(logged("pkg/a.py")) << (log().empty() ? "" : log()[0]);
  EXPECT_TRUE(logged("rebuilt"));
}

// Each rebuild is told the paths the events named since the last one that succeeded (what lets
// it patch its last scan), and none when they are not known: a rescan asked for (a change no
// event announced), a retry after a failure.
TEST_F(RefresherTest, RebuildsAreToldTheChangedPathsWhenEveryEventNamedThem) {
  put(root_, "pkg/a.py", "x = 1\n");
  put(root_, "pkg/b.py", "y = 1\n");
  ToldPaths paths;
  auto& told = paths.told;
  bool fail_next = false;
  RebuildAtFn rebuild = paths.rebuild([&] {
    if (fail_next) {
      fail_next = false;
      throw std::runtime_error("failed once");
    }
  });
  Refresher refresher(root_, std::move(rebuild), options());
  refresher.start();
  put(root_, "pkg/a.py", "x = 2\n");
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  {
    std::lock_guard lock(paths.mutex);
    ASSERT_EQ(told.size(), 1u);
    ASSERT_TRUE(told[0].has_value());
    EXPECT_TRUE(told[0]->contains("pkg/a.py"));
    EXPECT_FALSE(told[0]->contains("pkg/b.py"));
    fail_next = true;
  }
  put(root_, "pkg/b.py", "y = 2\n");
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  refresher.request_rescan();
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  put(root_, "pkg/a.py", "x = 3\n");
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  std::lock_guard lock(paths.mutex);
  ASSERT_GE(told.size(), 4u);
  ASSERT_TRUE(told[1].has_value());  // the change that failed: named
  EXPECT_TRUE(told[1]->contains("pkg/b.py"));
  EXPECT_FALSE(told[1]->contains("pkg/a.py"));  // built already
  for (size_t i = 2; i + 1 < told.size(); ++i) {
    EXPECT_FALSE(told[i].has_value()) << i;  // the retry, the rescan asked for
  }
  ASSERT_TRUE(told.back().has_value());
  EXPECT_EQ(*told.back(), std::set<std::string>{"pkg/a.py"});
}

// A read that meets a change before the refresher read its event asks for a rescan at that path
// (fs::ServerOptions::on_source_changed): when the events before the rebuild named it, the
// rebuild is still told the paths; a path no event named makes it list the tree.
TEST_F(RefresherTest, ARescanAskedForAtAPathAnEventNamedStillTellsThePaths) {
  put(root_, "pkg/a.py", "x = 1\n");
  put(root_, "pkg/b.py", "y = 1\n");
  ToldPaths paths;
  std::mutex& mutex = paths.mutex;
  std::condition_variable named_more;
  std::set<std::string> named;
  RefreshOptions o = options();
  o.quiet = std::chrono::seconds(2);  // the test asks for its rescan inside the burst
  o.on_changes = [&](std::span<const std::string> changed) {
    {
      std::lock_guard lock(mutex);
      named.insert(changed.begin(), changed.end());
    }
    named_more.notify_all();
  };
  Refresher refresher(root_, paths.rebuild(), o);
  refresher.start();
  for (const char* path : {"pkg/a.py", "pkg/b.py"}) {
    put(root_, "pkg/a.py", std::string("x = 2 # ") + path + "\n");
    {
      std::unique_lock lock(mutex);
      ASSERT_TRUE(named_more.wait_for(lock, std::chrono::seconds(20),
                                      [&] { return named.contains("pkg/a.py"); }));
      named.clear();
    }
    refresher.request_rescan(path);  // b.py: no event named it
    ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(20)));
  }
  std::lock_guard lock(mutex);
  const auto& told = paths.told;
  ASSERT_EQ(told.size(), 2u);
  ASSERT_TRUE(told[0].has_value());
  EXPECT_TRUE(told[0]->contains("pkg/a.py"));
  EXPECT_FALSE(told[1].has_value());
}

// The records a refresh owes (on_quiet) wait for a quiet tree: none after each refresh, one for a
// run of refreshes once the refresher stops (unmount), and none when nothing was published.
TEST_F(RefresherTest, QuietWorkWaitsForAQuietTreeOrTheStop) {
  put(root_, "pkg/a.py", "x = 1\n");
  std::atomic<int> quiet{0};
  RefreshOptions o = options();
  o.on_quiet = [&] { ++quiet; };
  o.quiet_work_after = std::chrono::hours(1);
  Refresher refresher(root_, []() -> std::optional<std::string> { return "rebuilt"; }, o);
  refresher.start();
  for (int i = 2; i <= 3; ++i) {
    put(root_, "pkg/a.py", "x = " + std::to_string(i) + "\n");
    ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  }
  EXPECT_EQ(refresher.stats().refreshes, 2u);
  EXPECT_EQ(quiet.load(), 0);
  refresher.stop();
  EXPECT_EQ(quiet.load(), 1);

  Refresher unchanged(root_, []() -> std::optional<std::string> { return std::nullopt; }, o);
  unchanged.start();
  put(root_, "pkg/a.py", "x = 4\n");
  ASSERT_TRUE(unchanged.wait_until_idle(std::chrono::seconds(30)));
  unchanged.stop();
  EXPECT_EQ(quiet.load(), 1);
}

TEST_F(RefresherTest, ABurstOfChangesRefreshesOnceItSettles) {
  std::atomic<int> rebuilds{0};
  Refresher refresher(
      root_,
      [&]() -> std::optional<std::string> {
        ++rebuilds;
        return "rebuilt";
      },
      options());
  refresher.start();
  for (int i = 0; i < 400; ++i) {  // like a branch switch: many files, many directories
    put(root_, "d" + std::to_string(i % 20) + "/f" + std::to_string(i) + ".py", "v = 1\n");
  }
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  EXPECT_LE(rebuilds.load(), 2);  // without debouncing it would be dozens
  EXPECT_GE(rebuilds.load(), 1);
}

// A live mount serves a change untagged until its rebuild (RefreshOptions::on_changes): the
// first change is named at once, before its burst settles, and every change of a burst is named
// before the rebuild runs.
TEST_F(RefresherTest, ChangedPathsAreNamedBeforeTheirRebuild) {
  put(root_, "pkg/a.py", "x = 1\n");
  put(root_, "pkg/b.py", "y = 1\n");
  std::mutex mutex;
  std::condition_variable named_more;
  std::set<std::string> named;
  std::set<std::string> named_at_rebuild;
  RefreshOptions o = options();
  o.on_changes = [&](std::span<const std::string> changed) {
    {
      std::lock_guard lock(mutex);
      named.insert(changed.begin(), changed.end());
    }
    named_more.notify_all();
  };
  const RebuildFn rebuild = [&]() -> std::optional<std::string> {
    std::lock_guard lock(mutex);
    named_at_rebuild = named;
    return "rebuilt";
  };
  {
    RefreshOptions slow = o;
    slow.quiet = std::chrono::seconds(30);
    slow.max_delay = std::chrono::seconds(30);
    Refresher refresher(root_, rebuild, slow);
    refresher.start();
    put(root_, "pkg/a.py", "x = 2\n");
    std::unique_lock lock(mutex);
    EXPECT_TRUE(named_more.wait_for(lock, std::chrono::seconds(20),
                                    [&] { return named.contains("pkg/a.py"); }));
    EXPECT_EQ(refresher.stats().refreshes, 0u) << "named before its burst settled";
  }
  named.clear();
  Refresher refresher(root_, rebuild, o);
  refresher.start();
  put(root_, "pkg/a.py", "x = 3\n");
  put(root_, "pkg/b.py", "y = 3\n");
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  std::lock_guard lock(mutex);
  EXPECT_TRUE(named_at_rebuild.contains("pkg/a.py"));
  EXPECT_TRUE(named_at_rebuild.contains("pkg/b.py"));
}

TEST_F(RefresherTest, NothingChangedMeansNoRefresh) {
  std::atomic<int> rebuilds{0};
  Refresher refresher(
      root_,
      [&]() -> std::optional<std::string> {
        ++rebuilds;
        return std::nullopt;
      },
      options());
  refresher.start();
  put(root_, "a.py", "");
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  EXPECT_EQ(refresher.stats().unchanged, 1u);
  EXPECT_EQ(refresher.stats().refreshes, 0u);
  EXPECT_TRUE(log().empty());
}

TEST_F(RefresherTest, WatchLimitFallsBackToPeriodicRescans) {
  put(root_, "deep/er/a.py", "x = 1\n");
  std::mutex seen_mutex;
  std::string seen = read("deep/er/a.py");
  RefreshOptions o = options();
  o.max_watches = 1;  // only the root: changes below deep/ produce no events
  Refresher refresher(
      root_,
      [&]() -> std::optional<std::string> {
        std::lock_guard lock(seen_mutex);
        const std::string now = read("deep/er/a.py");
        if (now == seen) {
          return std::nullopt;
        }
        seen = now;
        return "rescanned";
      },
      o);
  refresher.start();
  EXPECT_TRUE(refresher.stats().polling);
  EXPECT_TRUE(logged("watch limit"));
  put(root_, "deep/er/a.py", "x = 2\n");
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));  // one rescan after the put
  EXPECT_EQ(refresher.stats().refreshes, 1u);
  EXPECT_TRUE(logged("after a rescan"));
}

TEST_F(RefresherTest, AFailedRebuildIsRetriedWithoutFurtherChanges) {
  std::atomic<int> attempts{0};
  Refresher refresher(
      root_,
      [&]() -> std::optional<std::string> {
        if (++attempts == 1) {
          throw std::runtime_error("file changed under the scan");
        }
        return "rebuilt";
      },
      options());
  refresher.start();
  put(root_, "a.py", "x = 1\n");
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));  // not idle while retrying
  EXPECT_EQ(refresher.stats().refreshes, 1u);
  EXPECT_EQ(refresher.stats().failures, 1u);
  EXPECT_TRUE(logged("refresh failed (file changed under the scan)"));
}

TEST_F(RefresherTest, ChangesMadeBeforeStartAreFoundByTheStartUpRescan) {
  put(root_, "a.py", "x = 1\n");
  const std::string built_from = read("a.py");  // what the caller's initial build saw
  put(root_, "a.py", "x = 2\n");                // changed before the watches exist
  RefreshOptions o = options();
  o.rescan_on_start = true;
  Refresher refresher(
      root_,
      [&]() -> std::optional<std::string> {
        if (read("a.py") == built_from) {
          return std::nullopt;
        }
        return "caught up";
      },
      o);
  refresher.start();
  ASSERT_TRUE(refresher.wait_for_refreshes(1, std::chrono::seconds(30)));
  EXPECT_TRUE(logged("caught up"));
}

// The mount's way: the first scan places each directory's watch before listing it, and the
// refresher adopts those watches instead of rescanning at start-up.
std::unique_ptr<TreeWatcher> watched_scan(const std::string& root) {
  auto watcher = std::make_unique<TreeWatcher>(root, WatcherOptions{}, TreeWatcher::Unwalked{});
  analysis::scan_tree(root, {.on_directory = [&](const std::string& path, int dir_fd) {
                               watcher->watch_directory(path, dir_fd);
                             }});
  return watcher;
}

TEST_F(RefresherTest, AdoptedWatchesFromTheScanCatchChangesMadeAfterIt) {
  put(root_, "pkg/sub/a.py", "x = 1\n");
  std::unique_ptr<TreeWatcher> watcher = watched_scan(root_);
  EXPECT_EQ(watcher->watch_count(), 3u);  // the root, pkg, pkg/sub
  put(root_, "pkg/sub/a.py", "x = 2\n");  // after the scan, before the refresher runs
  Refresher refresher(
      root_, []() -> std::optional<std::string> { return "caught up"; }, options());
  refresher.start(std::move(watcher));
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  EXPECT_EQ(refresher.stats().refreshes, 1u);
  EXPECT_TRUE(logged("pkg/sub/a.py"));
}

TEST_F(RefresherTest, AdoptedWatchesMakeNoStartUpRescan) {
  put(root_, "pkg/a.py", "x = 1\n");
  std::unique_ptr<TreeWatcher> watcher = watched_scan(root_);
  RefreshOptions o = options();
  o.rescan_on_start = true;  // what a refresher making its own watches would need
  std::atomic<int> rebuilds{0};
  Refresher refresher(
      root_,
      [&]() -> std::optional<std::string> {
        ++rebuilds;
        return std::nullopt;
      },
      o);
  refresher.start(std::move(watcher));
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  EXPECT_EQ(rebuilds.load(), 0);
  put(root_, "pkg/new/b.py", "y = 1\n");  // a directory made later is watched as before
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  EXPECT_GE(rebuilds.load(), 1);
}

TEST_F(RefresherTest, WaitUntilIdleCoversEveryChangeMadeBeforeIt) {
  std::atomic<int> rebuilds{0};
  Refresher refresher(
      root_,
      [&]() -> std::optional<std::string> {
        ++rebuilds;
        return "rebuilt";
      },
      options());
  refresher.start();
  ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
  EXPECT_EQ(rebuilds.load(), 0);  // nothing changed yet
  for (int round = 1; round <= 3; ++round) {
    put(root_, "a.py", "x = " + std::to_string(round) + "\n");
    ASSERT_TRUE(refresher.wait_until_idle(std::chrono::seconds(30)));
    EXPECT_EQ(rebuilds.load(), round);
    EXPECT_EQ(refresher.stats().refreshes, static_cast<uint64_t>(round));
  }
}

TEST_F(RefresherTest, StopsPromptlyWhenIdle) {
  Refresher refresher(
      root_, []() -> std::optional<std::string> { return "x"; }, options());
  refresher.start();
  const auto start = std::chrono::steady_clock::now();
  refresher.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(refresher.stats().refreshes, 0u);
}

}  // namespace
}  // namespace anchorfs::refresh::testing
