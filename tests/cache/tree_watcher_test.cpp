// TreeWatcher: events anywhere below the root, new directories watched, the watch budget.
#include "refresh/tree_watcher.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "refresh_support.h"

namespace anchorfs::refresh::testing {
namespace {

using std::chrono::milliseconds;
using TreeWatcherTest = ScratchTree;

// Collects events until `path` has been seen as a sample or the time is up.
bool sees(TreeWatcher& watcher, const std::string& path) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    const WatchEvents events = watcher.wait(milliseconds(100));
    for (const std::string& sample : events.samples) {
      if (sample == path) {
        return true;
      }
    }
  }
  return false;
}

// Drains whatever is pending; returns the number of events.
size_t drain(TreeWatcher& watcher) {
  size_t count = 0;
  for (;;) {
    const WatchEvents events = watcher.wait(milliseconds(50));
    if (events.count == 0) {
      return count;
    }
    count += events.count;
  }
}

TEST_F(TreeWatcherTest, SeesChangesInNestedDirectories) {
  put(root_, "pkg/sub/a.py", "x = 1\n");
  TreeWatcher watcher(root_);
  EXPECT_TRUE(watcher.complete());
  EXPECT_EQ(watcher.watch_count(), 3u);  // root, pkg, pkg/sub
  put(root_, "pkg/sub/a.py", "x = 2\n");
  EXPECT_TRUE(sees(watcher, "pkg/sub/a.py"));
  std::filesystem::remove(root_ + "/pkg/sub/a.py");
  EXPECT_TRUE(sees(watcher, "pkg/sub/a.py"));
}

TEST_F(TreeWatcherTest, QuietTreeGivesNoEvents) {
  put(root_, "a.py", "x = 1\n");
  TreeWatcher watcher(root_);
  EXPECT_EQ(watcher.wait(milliseconds(200)).count, 0u);
  // Reading is not a change (the mount reads sources all the time).
  std::ifstream(root_ + "/a.py").get();
  EXPECT_EQ(watcher.wait(milliseconds(200)).count, 0u);
}

TEST_F(TreeWatcherTest, DirectoriesCreatedLaterAreWatchedToo) {
  TreeWatcher watcher(root_);
  std::filesystem::create_directories(root_ + "/new/deeper");
  ASSERT_TRUE(sees(watcher, "new"));
  drain(watcher);
  put(root_, "new/deeper/b.py", "y = 1\n");
  EXPECT_TRUE(sees(watcher, "new/deeper/b.py"));
  EXPECT_EQ(watcher.watch_count(), 3u);
}

TEST_F(TreeWatcherTest, DirectoriesMovedInAreWatchedAndMovedOutForgotten) {
  const std::string outside = root_ + "-outside";
  put(outside, "moved/inner/c.py", "z = 1\n");
  TreeWatcher watcher(root_);
  std::filesystem::rename(outside + "/moved", root_ + "/moved");
  ASSERT_TRUE(sees(watcher, "moved"));
  drain(watcher);
  put(root_, "moved/inner/c.py", "z = 2\n");
  EXPECT_TRUE(sees(watcher, "moved/inner/c.py"));
  EXPECT_EQ(watcher.watch_count(), 3u);

  std::filesystem::rename(root_ + "/moved", outside + "/back");
  ASSERT_TRUE(sees(watcher, "moved"));
  drain(watcher);
  EXPECT_EQ(watcher.watch_count(), 1u);
  put(outside, "back/inner/c.py", "z = 3\n");  // no longer ours
  EXPECT_EQ(drain(watcher), 0u);
  std::filesystem::remove_all(outside);
}

TEST_F(TreeWatcherTest, WatchBudgetMakesItIncomplete) {
  put(root_, "a/x.py", "");
  put(root_, "b/y.py", "");
  put(root_, "c/z.py", "");
  TreeWatcher watcher(root_, WatcherOptions{.max_watches = 2, .skip_device = 0, .extra_dirs = {}});
  EXPECT_FALSE(watcher.complete());
  EXPECT_EQ(watcher.watch_count(), 2u);
}

// Whether thread `tid` of this process is blocked in poll(2) (/proc/self/task/TID/syscall starts
// with the number of the system call a blocked thread is in; aarch64 has no SYS_poll, only ppoll).
bool blocked_in_poll(pid_t tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/syscall");
  long number = -1;
  if (!(in >> number)) return false;  // "running"
#ifdef SYS_poll
  if (number == SYS_poll) return true;
#endif
  return number == SYS_ppoll;
}

TEST_F(TreeWatcherTest, WakeInterruptsAWait) {
  TreeWatcher watcher(root_);
  const pid_t waiter = ::gettid();
  bool blocked = false;
  // Wakes only once the waiter sleeps in poll(2): what is tested is ending a wait in progress,
  // not a wake-up left pending before it (bounded, in case the wait never blocks).
  std::thread waker([&] {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!(blocked = blocked_in_poll(waiter)) && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::yield();
    }
    watcher.wake();
  });
  const WatchEvents events = watcher.wait(std::chrono::seconds(60));
  waker.join();
  EXPECT_TRUE(blocked) << "the wait never blocked in poll(2)";
  EXPECT_EQ(events.count, 0u);
}

TEST_F(TreeWatcherTest, AWakeBeforeTheWaitIsNotLost) {
  TreeWatcher watcher(root_);
  watcher.wake();
  const auto start = std::chrono::steady_clock::now();
  const WatchEvents events = watcher.wait(std::chrono::seconds(60));
  EXPECT_EQ(events.count, 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST_F(TreeWatcherTest, SymlinkedDirectoriesAreNotFollowed) {
  const std::string outside = root_ + "-elsewhere";
  put(outside, "d.py", "");
  std::filesystem::create_directory_symlink(outside, root_ + "/link");
  TreeWatcher watcher(root_);
  EXPECT_EQ(watcher.watch_count(), 1u);
  put(outside, "d.py", "changed");
  EXPECT_EQ(drain(watcher), 0u);
  std::filesystem::remove_all(outside);
}

}  // namespace
}  // namespace anchorfs::refresh::testing
