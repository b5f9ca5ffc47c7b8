// scan_tree on several threads: the same tree as one thread makes, directories listed side by side.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>

#include "analysis/source_tree.h"
#include "tests/analysis/tree_description.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace anchorfs::analysis {
namespace {

class ScanThreads : public ::testing::Test {
 protected:
  void SetUp() override {
    // Directories of several depths and widths, files, symlinks (to a directory too: listed,
    // never entered), a FIFO, and names that sort differently from their creation order.
    for (const std::string d : {"b", "a", "a/z", "a/y", "a/y/x", "c", "c/d", "c/d/e", "c/d/e/f"}) {
      ASSERT_EQ(::mkdir(at(d).c_str(), 0755), 0) << d;
    }
    for (int i = 0; i < 40; ++i) {
      const std::string d = "wide" + std::to_string(i % 7) + "/n" + std::to_string(i);
      ::mkdir(at("wide" + std::to_string(i % 7)).c_str(), 0755);
      ASSERT_EQ(::mkdir(at(d).c_str(), 0755), 0) << d;
      test_support::write_file(at(d + "/m.py"), "x = " + std::to_string(i) + "\n");
    }
    test_support::write_file(at("a/y/x/deep.py"), "def f():\n    pass\n");
    test_support::write_file(at("b/one.go"), "package b\n");
    test_support::write_file(at("c/d/e/f/two.rs"), "fn main() {}\n");
    ASSERT_EQ(::symlink("a", at("link_to_dir").c_str()), 0);
    ASSERT_EQ(::symlink("nowhere", at("c/dangling").c_str()), 0);
    ASSERT_EQ(::mkfifo(at("b/fifo").c_str(), 0644), 0);
  }

  std::string at(const std::string& path) const { return base_ + "/" + path; }

  test_support::TempDir dir_{"anchorfs-scan-threads"};
  std::string base_ = dir_.path();
};

TEST_F(ScanThreads, AnyThreadCountMakesTheTreeOneThreadMakes) {
  const std::string one = test::describe_tree(scan_tree(base_, {.threads = 1}));
  EXPECT_NE(one.find("wide6/n34/m.py"), std::string::npos) << one;
  for (const size_t threads : {2u, 3u, 8u}) {
    for (int run = 0; run < 5; ++run) {
      EXPECT_EQ(test::describe_tree(scan_tree(base_, {.threads = threads})), one)
          << threads << " threads";
    }
  }
}

TEST_F(ScanThreads, EveryDirectoryIsHandedToOnDirectoryOnce) {
  std::mutex mutex;
  std::multiset<std::string> seen;
  const SourceTree tree = scan_tree(base_, {.on_directory =
                                                [&](const std::string& path, int dir_fd) {
                                                  struct stat st {};
                                                  EXPECT_EQ(::fstat(dir_fd, &st), 0);
                                                  EXPECT_TRUE(S_ISDIR(st.st_mode)) << path;
                                                  const std::lock_guard lock(mutex);
                                                  seen.insert(path);
                                                },
                                            .threads = 2});
  std::multiset<std::string> directories;
  for (const TreeEntry& e : tree.entries) {
    if (S_ISDIR(e.mode)) directories.insert(e.path);
  }
  EXPECT_EQ(seen, directories);
}

// Two directories are listed at once: "a"'s callback returns only once "b"'s has been called,
// which a walk on one thread never does while "a"'s is waiting (the wait gives up after a
// minute, so such a walk fails the test instead of hanging it).
TEST_F(ScanThreads, TwoThreadsListTwoDirectoriesAtOnce) {
  std::mutex mutex;
  std::condition_variable called;
  bool b_called = false;
  bool a_saw_b = false;
  scan_tree(base_, {.on_directory =
                        [&](const std::string& path, int) {
                          std::unique_lock lock(mutex);
                          if (path == "b") {
                            b_called = true;
                            called.notify_all();
                          } else if (path == "a") {
                            a_saw_b = called.wait_for(lock, std::chrono::minutes(1),
                                                      [&] { return b_called; });
                          }
                        },
                    .threads = 2});
  EXPECT_TRUE(a_saw_b);
}

}  // namespace
}  // namespace anchorfs::analysis
