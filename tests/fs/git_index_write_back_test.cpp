// A git index written through a writable mount goes back to the checkout as git there trusts it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "fs/generation.h"
#include "fs/git_index.h"
#include "fs/git_view.h"
#include "fs_test_support.h"

namespace anchorfs::fs {
namespace {

// Every entry's recorded stat in `index`, by path.
std::map<std::string, IndexedStat> records(std::string_view index) {
  std::map<std::string, IndexedStat> out;
  rewrite_index_stats(index, [&](std::string_view path, const IndexedStat& stat) {
    out.emplace(std::string(path), stat);
    return std::optional<IndexedStat>{};
  });
  return out;
}

// Runs a shell command in `at` with git's user and system configuration left out; its status.
int shell(const std::string& at, const std::string& command) {
  const std::string full = "cd '" + at + "' && GIT_CONFIG_GLOBAL=/dev/null " +
                           "GIT_CONFIG_NOSYSTEM=1 GIT_CEILING_DIRECTORIES=/tmp " + command;
  return std::system(full.c_str());
}

// A file changed below the second after git recorded it (a clone, an edit putting the same
// bytes back and the removal of a hard link, all within one second): the checkout's index record
// differs from the file's times only in nanoseconds, which git in the checkout (built without
// USE_NSEC) and hence the mount trust. The mount serves the record with the view's size and inode
// number; git in the mount trusts that too and writes it back unchanged (`git stash` always
// writes the index). The checkout must get its own record back, not the view's size, which git
// there took for a change without reading the file (fuzz seed 4011: ` M inner/use.py`).
TEST(GitIndexWriteBack, AnEntryGitKeptAsServedGetsTheCheckoutsRecordBack) {
  test::TempDir dir{"anchorfs-index-write-back"};
  const std::string root = dir.path();
  test::write_file(dir / "use.py", "def use():\n    return 3\n");
  test::write_file(dir / "notes.txt", "plain\n");
  ASSERT_EQ(shell(root, "git init -q && git add -A && "
                        "git -c user.name=A -c user.email=a@b commit -qm one >/dev/null"),
            0);
  // The file's modification time moves within its second after git recorded it: shown here by
  // moving the record's instead (the file's ctime cannot be set back into the same second).
  const std::string index_path = root + "/.git/index";
  const std::optional<std::string> shifted = rewrite_index_stats(
      test::read_file(index_path), [](std::string_view path, const IndexedStat& recorded) {
        if (path != "use.py") return std::optional<IndexedStat>{};
        IndexedStat moved = recorded;
        moved.mtime_ns = recorded.mtime_ns == 0 ? 1 : recorded.mtime_ns - 1;
        return std::optional<IndexedStat>(moved);
      });
  ASSERT_TRUE(shifted.has_value());
  test::write_file(index_path, *shifted);
  const IndexedStat checkout_record = records(*shifted).at("use.py");

  GitViewOptions options;
  options.filter_command = "anchorfs git-filter";
  options.filter_patterns = {"*.py"};
  analysis::SourceTree tree = analysis::scan_tree(root);
  VirtualFiles files = graft_git_view(tree, options);
  const Generation generation(make_snapshot(std::move(tree),
                                            test::to_plans({{"use.py", {{0, "# T\n"}}}}),
                                            render::PlanMapsByPath{}, std::move(files)));
  const Snapshot& snapshot = generation.snapshot();
  ASSERT_EQ(snapshot.git_indexes().size(), 1u);
  const std::string served = *generation.content(snapshot.git_indexes().front().entry);
  const IndexedStat as_served = records(served).at("use.py");
  ASSERT_EQ(as_served.size, checkout_record.size + 4);  // trusted: the view's size ("# T\n")
  ASSERT_EQ(as_served.ino, generation.inode(*snapshot.find("use.py")));

  // Git in the mount renames its index.lock, holding what it read, over the index.
  const std::optional<std::string> stored = checkout_bytes_of_overlay(snapshot, ".git/index", served);
  ASSERT_TRUE(stored.has_value());
  const std::map<std::string, IndexedStat> back = records(*stored);
  EXPECT_EQ(back.at("use.py"), checkout_record);
  EXPECT_EQ(back.at("notes.txt"), records(*shifted).at("notes.txt"));

  // And git in the checkout finds nothing changed, by stat alone.
  test::write_file(index_path, *stored);
  EXPECT_EQ(shell(root, "test -z \"$(git diff-files --name-only)\""), 0);
}

}  // namespace
}  // namespace anchorfs::fs
