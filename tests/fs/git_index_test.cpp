// rewrite_index_stats against indexes real git wrote (versions 2, 3, 4; split index refused).
#include "fs/git_index.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "fs_test_support.h"

namespace anchorfs::fs {
namespace {

std::string sh(const std::string& dir, const std::string& command) {
  const std::string full = "cd '" + dir +
                           "' && GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 "
                           "GIT_CEILING_DIRECTORIES=/tmp " +
                           command + " 2>&1";
  std::FILE* pipe = ::popen(full.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int status = ::pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << ": " << out;
  return out;
}

class GitIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sh(dir_.path(), "git init -q");
    test::write_file(dir_ / "a.py", "x = 1\n");
    sh(dir_.path(), "mkdir -p pkg/sub && echo y > pkg/sub/b.py && echo z > pkg/sub/c.txt");
    // An extended flag (intent-to-add) makes version 3 write its extra two bytes.
    sh(dir_.path(), "git add a.py pkg && echo w > d.py && git add -N d.py");
  }
  std::string index() const { return test::read_file(dir_ / ".git/index"); }

  test::TempDir dir_{"anchorfs-git-index"};
};

TEST_F(GitIndexTest, RewritesEveryEntrysStatInEachVersionAndGitAcceptsIt) {
  for (const char* version : {"2", "3", "4"}) {
    sh(dir_.path(), std::string("git update-index --index-version ") + version);
    const std::string original = index();
    std::vector<std::string> seen;
    const auto rewritten =
        rewrite_index_stats(original, [&](std::string_view path, const IndexedStat& recorded) {
          seen.emplace_back(path);
          IndexedStat served = recorded;
          served.size = 4242;
          served.ino = 77;
          return std::optional<IndexedStat>(served);
        });
    ASSERT_TRUE(rewritten) << "version " << version;
    EXPECT_EQ(rewritten->size(), original.size());
    EXPECT_EQ(seen, (std::vector<std::string>{"a.py", "d.py", "pkg/sub/b.py", "pkg/sub/c.txt"}));
    test::write_file(dir_ / ".git/index", *rewritten);
    const std::string debug = sh(dir_.path(), "git ls-files --debug");
    size_t sizes = 0;
    for (size_t at = debug.find("size: 4242"); at != std::string::npos;
         at = debug.find("size: 4242", at + 1)) {
      ++sizes;
    }
    EXPECT_EQ(sizes, 4u) << debug;
    EXPECT_NE(debug.find("ino: 77"), std::string::npos);
    test::write_file(dir_ / ".git/index", original);
  }
}

TEST_F(GitIndexTest, LeavesEntriesTheCallbackKeeps) {
  const std::string original = index();
  const auto same = rewrite_index_stats(
      original, [](std::string_view, const IndexedStat&) { return std::optional<IndexedStat>(); });
  ASSERT_TRUE(same);
  EXPECT_EQ(*same, original);
}

TEST_F(GitIndexTest, RefusesSplitIndexesAndDamagedBytes) {
  auto keep = [](std::string_view, const IndexedStat& recorded) {
    return std::optional<IndexedStat>(recorded);
  };
  std::string damaged = index();
  damaged[20] ^= 1;
  EXPECT_FALSE(rewrite_index_stats(damaged, keep));
  EXPECT_FALSE(rewrite_index_stats(index().substr(0, 40), keep));
  EXPECT_FALSE(rewrite_index_stats("not an index at all", keep));
  sh(dir_.path(), "git update-index --split-index");
  EXPECT_FALSE(rewrite_index_stats(index(), keep));
}

}  // namespace
}  // namespace anchorfs::fs
