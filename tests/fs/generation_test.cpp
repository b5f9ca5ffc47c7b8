// Generations: an inode number names one file version; the diff names what the kernel must drop.
#include "fs/generation.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fs/git_index.h"
#include "fs/git_view.h"
#include "fs/inode_table.h"
#include "fs/snapshot_rebase.h"
#include "fs_test_support.h"

namespace anchorfs::fs {
namespace {

bool contains(const std::vector<uint64_t>& inodes, uint64_t inode) {
  return std::find(inodes.begin(), inodes.end(), inode) != inodes.end();
}

bool contains(const std::vector<std::pair<uint64_t, std::string>>& names, uint64_t parent,
              const std::string& name) {
  return std::find(names.begin(), names.end(), std::make_pair(parent, name)) != names.end();
}

class GenerationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::write_file(dir_ / "keep.py", "same\n");
    test::write_file(dir_ / "edit.py", "old\n");
    test::write_file(dir_ / "gone.py", "bye\n");
    test::write_file(dir_ / "becomes_dir", "file for now\n");
    test::write_file(dir_ / "pkg/inner.py", "inner\n");
    test::write_file(dir_ / "retag.py", "x = 1\n");
  }
  std::shared_ptr<const Snapshot> snap(const test::PlanSpec& plans = {}) const {
    return make_snapshot(analysis::scan_tree(dir_.path()), test::to_plans(plans));
  }
  uint64_t inode_of(const Generation& g, const std::string& path) const {
    return g.inode(*g.snapshot().find(path));
  }
  // Runs a git command in `at`, with no user or system configuration and no repository above.
  static void run_git(const std::string& at, const std::string& command) {
    const std::string full = "cd '" + at + "' && GIT_CONFIG_GLOBAL=/dev/null " +
                             "GIT_CONFIG_NOSYSTEM=1 GIT_CEILING_DIRECTORIES=/tmp " + command +
                             " >/dev/null 2>&1";
    ASSERT_EQ(std::system(full.c_str()), 0) << command;
  }

  test::TempDir dir_{"anchorfs-generation"};
};

TEST_F(GenerationTest, FirstGenerationNumbersEntriesFromTheRoot) {
  Generation g(snap());
  EXPECT_EQ(g.inode(0), kRootInode);
  for (uint32_t i = 0; i < g.snapshot().size(); ++i) {
    EXPECT_EQ(g.inode(i), kRootInode + i);
    EXPECT_EQ(g.entry(g.inode(i)), i);
  }
  EXPECT_FALSE(g.entry(0));
  EXPECT_FALSE(g.entry(kRootInode + g.snapshot().size()));
}

TEST_F(GenerationTest, ChangedFilesGetNewInodesAndTheDiffNamesEveryChange) {
  Generation before(snap({{"retag.py", {{0, "# A\n"}}}}));
  const uint64_t keep = inode_of(before, "keep.py");
  const uint64_t edit = inode_of(before, "edit.py");
  const uint64_t gone = inode_of(before, "gone.py");
  const uint64_t was_file = inode_of(before, "becomes_dir");
  const uint64_t pkg = inode_of(before, "pkg");
  const uint64_t inner = inode_of(before, "pkg/inner.py");
  const uint64_t retag = inode_of(before, "retag.py");

  test::write_file(dir_ / "edit.py", "new and longer\n");
  ASSERT_EQ(::unlink((dir_ / "gone.py").c_str()), 0);
  ASSERT_EQ(::unlink((dir_ / "becomes_dir").c_str()), 0);
  std::filesystem::create_directory(dir_ / "becomes_dir");
  test::write_file(dir_ / "pkg/added.py", "added\n");

  Generation after(snap({{"retag.py", {{0, "# B\n"}}}}), before);
  EXPECT_EQ(inode_of(after, ""), kRootInode);
  EXPECT_EQ(inode_of(after, "keep.py"), keep) << "unchanged file";
  EXPECT_EQ(inode_of(after, "pkg"), pkg) << "directories keep their numbers";
  EXPECT_EQ(inode_of(after, "pkg/inner.py"), inner);
  for (const auto& [path, old] : std::vector<std::pair<std::string, uint64_t>>{
           {"edit.py", edit}, {"retag.py", retag}, {"becomes_dir", was_file}}) {
    EXPECT_NE(inode_of(after, path), old) << path << ": content, tags or type changed";
    EXPECT_GE(inode_of(after, path), before.next_inode()) << path;
    EXPECT_FALSE(after.entry(old)) << path;
  }
  EXPECT_GE(inode_of(after, "pkg/added.py"), before.next_inode());
  EXPECT_FALSE(after.entry(gone));

  const Invalidations changed = diff_generations(before, after);
  EXPECT_TRUE(contains(changed.contents, pkg)) << "listing changed";
  EXPECT_TRUE(contains(changed.contents, kRootInode)) << "names now naming new inodes";
  EXPECT_EQ(changed.contents.size(), 2u) << "only directories: files never change in place";
  EXPECT_FALSE(contains(changed.attributes, keep));
  for (const std::string name : {"gone.py", "becomes_dir", "edit.py", "retag.py"}) {
    EXPECT_TRUE(contains(changed.names, kRootInode, name)) << name;
  }
  EXPECT_TRUE(contains(changed.names, pkg, "added.py"));
  EXPECT_FALSE(contains(changed.names, kRootInode, "keep.py"));
  EXPECT_TRUE(std::is_sorted(changed.names.begin(), changed.names.end()));
  EXPECT_EQ(std::adjacent_find(changed.names.begin(), changed.names.end()), changed.names.end())
      << "a replaced name is listed once";

  std::vector<uint64_t> dropped;
  for (const auto& [inode, entry] : changed.dropped) {
    EXPECT_EQ(before.inode(entry), inode) << "entries index the old generation";
    dropped.push_back(inode);
  }
  std::sort(dropped.begin(), dropped.end());
  std::vector<uint64_t> want = {edit, gone, was_file, retag};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(dropped, want);
}

TEST_F(GenerationTest, UntouchedContentKeepsItsNumberAcrossManySwaps) {
  Generation first(snap({{"retag.py", {{0, "# A\n"}}}}));
  std::shared_ptr<const Generation> current =
      std::make_shared<const Generation>(snap({{"retag.py", {{0, "# B\n"}}}}), first);
  for (int i = 0; i < 20; ++i) {
    current = std::make_shared<const Generation>(
        snap({{"retag.py", {{0, i % 2 == 0 ? "# A\n" : "# B\n"}}}}), *current);
  }
  EXPECT_EQ(inode_of(*current, "keep.py"), inode_of(first, "keep.py"));
  EXPECT_EQ(inode_of(*current, "pkg/inner.py"), inode_of(first, "pkg/inner.py"));
  EXPECT_EQ(current->next_inode(), first.next_inode() + 21) << "one new number per tag change";
  EXPECT_FALSE(current->entry(inode_of(first, "retag.py")));
}

TEST_F(GenerationTest, DirectoryAttributeChangeKeepsItsNumber) {
  Generation before(snap());
  ASSERT_EQ(::chmod((dir_ / "pkg").c_str(), 0700), 0);
  Generation after(snap(), before);
  const uint64_t pkg = inode_of(before, "pkg");
  EXPECT_EQ(inode_of(after, "pkg"), pkg);
  const Invalidations changed = diff_generations(before, after);
  EXPECT_TRUE(contains(changed.attributes, pkg));
  EXPECT_FALSE(contains(changed.contents, pkg));
  EXPECT_TRUE(changed.names.empty());
  EXPECT_TRUE(changed.dropped.empty());
}

TEST_F(GenerationTest, DeviceNumbersAreRecordedAndServed) {
  ASSERT_EQ(::mknod((dir_ / "null").c_str(), S_IFCHR | 0644, makedev(1, 3)), 0)
      << std::strerror(errno) << " (creating device nodes needs CAP_MKNOD)";
  auto snapshot = snap();
  const uint32_t index = *snapshot->find("null");
  EXPECT_EQ(snapshot->entry(index).rdev, makedev(1, 3));
  EXPECT_EQ(snapshot->attributes(index).st_rdev, makedev(1, 3));
  EXPECT_EQ(snapshot->entry(*snapshot->find("keep.py")).rdev, 0u);

  Generation before(snapshot);
  ASSERT_EQ(::unlink((dir_ / "null").c_str()), 0);
  ASSERT_EQ(::mknod((dir_ / "null").c_str(), S_IFCHR | 0644, makedev(1, 5)), 0);
  Generation after(snap(), before);
  EXPECT_NE(inode_of(after, "null"), inode_of(before, "null")) << "another device";
}

TEST_F(GenerationTest, NumbersAreNeverReused) {
  Generation first(snap());
  const uint64_t gone = inode_of(first, "gone.py");
  ASSERT_EQ(::unlink((dir_ / "gone.py").c_str()), 0);
  Generation second(snap(), first);
  test::write_file(dir_ / "gone.py", "back\n");
  Generation third(snap(), second);
  EXPECT_NE(inode_of(third, "gone.py"), gone);
  EXPECT_GE(inode_of(third, "gone.py"), first.next_inode());
}

TEST_F(GenerationTest, UnchangedTreeNeedsNoInvalidation) {
  Generation before(snap({{"retag.py", {{0, "# A\n"}}}}));
  Generation after(snap({{"retag.py", {{0, "# A\n"}}}}), before);
  const Invalidations changed = diff_generations(before, after);
  EXPECT_TRUE(changed.contents.empty());
  EXPECT_TRUE(changed.attributes.empty());
  EXPECT_TRUE(changed.names.empty());
}

// A writable mount's swap skips comparing the entries rescan_paths copied as they were: the
// numbers and the diff must be those a full comparison gives.
TEST_F(GenerationTest, CopiedEntriesNumberAndDiffAsComparedOnes) {
  auto first = snap({{"retag.py", {{0, "# A\n"}}},
                     {"keep.py", {{0, "# K\n"}}},
                     {"pkg/inner.py", {{0, "# B\n"}}}});
  Generation before(first);
  test::write_file(dir_ / "edit.py", "new and longer\n");
  std::filesystem::remove(dir_ / "gone.py");
  test::write_file(dir_ / "pkg/made.py", "made\n");
  const std::vector<std::string> touched{"edit.py", "gone.py", "pkg/made.py"};
  std::vector<uint32_t> origin;
  std::vector<uint8_t> copied;
  auto next = patch_snapshot(*first, touched, {}, 0, origin, copied);
  ASSERT_TRUE(next);
  ASSERT_EQ(copied.size(), next->size());
  const Generation compared(next, before, {}, origin);
  const Generation skipped(next, before, {}, origin, &copied);
  for (uint32_t i = 0; i < next->size(); ++i) {
    EXPECT_EQ(skipped.inode(i), compared.inode(i)) << next->entry(i).path;
    EXPECT_EQ(skipped.kept_from(i), compared.kept_from(i)) << next->entry(i).path;
  }
  const uint32_t kept_tagged = *next->find("keep.py");
  EXPECT_NE(copied[kept_tagged], 0);
  EXPECT_EQ(skipped.inode(kept_tagged), inode_of(before, "keep.py"));
  EXPECT_EQ(copied[*next->find("edit.py")], 0);
  EXPECT_NE(inode_of(skipped, "edit.py"), inode_of(before, "edit.py"));

  const Invalidations full = diff_generations(before, compared);
  const Invalidations trimmed = diff_generations(before, skipped, &copied);
  EXPECT_EQ(trimmed.contents, full.contents);
  EXPECT_EQ(trimmed.attributes, full.attributes);
  EXPECT_EQ(trimmed.names, full.names);
  EXPECT_EQ(trimmed.dropped, full.dropped);
  EXPECT_TRUE(contains(full.names, kRootInode, "gone.py"));
  EXPECT_TRUE(contains(full.contents, kRootInode));
}

// What a writable mount publishes after a rename through the mount: the moved entries keep
// their numbers (the kernel moved its own dentries) and their tags (same bytes).
TEST_F(GenerationTest, RenamedEntriesKeepTheirNumbersAndTags) {
  auto first = snap({{"retag.py", {{0, "# A\n"}}}, {"pkg/inner.py", {{0, "# B\n"}}}});
  Generation before(first);
  std::filesystem::rename(dir_ / "retag.py", dir_ / "moved.py");
  std::filesystem::rename(dir_ / "pkg", dir_ / "lib");
  const std::vector<PathMove> moves{{"retag.py", "moved.py"}, {"pkg", "lib"}};
  auto next = rebase_snapshot(*first, analysis::scan_tree(dir_.path()), moves);
  Generation after(next, before, moves);
  EXPECT_EQ(inode_of(after, "moved.py"), inode_of(before, "retag.py"));
  EXPECT_EQ(inode_of(after, "lib"), inode_of(before, "pkg"));
  EXPECT_EQ(inode_of(after, "lib/inner.py"), inode_of(before, "pkg/inner.py"));
  EXPECT_EQ(next->layout(*next->find("moved.py")).added_bytes(), 4u);
  EXPECT_EQ(next->layout(*next->find("lib/inner.py")).added_bytes(), 4u);
  // Without the moves they are new paths: new numbers.
  Generation unaware(rebase_snapshot(*first, analysis::scan_tree(dir_.path())), before);
  EXPECT_NE(inode_of(unaware, "moved.py"), inode_of(before, "retag.py"));
}

// A rebase keeps the tags of files whose bytes did not change and drops those of changed files
// (served untagged until the analysis catches up).
TEST_F(GenerationTest, RebaseKeepsTagsOnlyForUnchangedFiles) {
  auto first = snap({{"keep.py", {{0, "# K\n"}}}, {"edit.py", {{0, "# E\n"}}}});
  test::write_file(dir_ / "edit.py", "new bytes\n");
  auto next = rebase_snapshot(*first, analysis::scan_tree(dir_.path()));
  EXPECT_EQ(next->layout(*next->find("keep.py")).added_bytes(), 4u);
  EXPECT_TRUE(next->layout(*next->find("edit.py")).empty());
  EXPECT_EQ(next->view_size(*next->find("edit.py")), 10u);
  EXPECT_EQ(next->tagged_files(), 1u);
}

// The sizes of the index a generation serves, by path (git's view of each file's stat).
std::map<std::string, uint32_t> served_index_sizes(const Generation& generation) {
  std::map<std::string, uint32_t> sizes;
  const std::vector<Snapshot::ServedIndex>& indexes = generation.snapshot().git_indexes();
  EXPECT_EQ(indexes.size(), 1u);
  if (indexes.empty()) return sizes;
  rewrite_index_stats(*generation.content(indexes.front().entry),
                      [&](std::string_view path, const IndexedStat& stat) {
                        sizes.emplace(std::string(path), stat.size);
                        return std::optional<IndexedStat>{};
                      });
  return sizes;
}

// Right after a change through a writable mount, a changed file is served untagged until the
// analysis re-tags it; git may read the index before the re-tag and lstat the file after it. A
// recorded size unlike the file's makes git call the file modified without reading it (about 180
// of 300 files in `git status` after a branch switch), so the index a rescan serves records size
// 0 for every file the filter covers and the rescan serves untagged (git then compares their
// bytes through the filter); files whose tags were carried, and files the filter does not cover,
// keep their sizes.
TEST_F(GenerationTest, AnIndexServedBeforeTheAnalysisLeavesUntaggedFilteredFilesSizeless) {
  const std::string dir = dir_.path();
  const auto git = [&](const std::string& command) { run_git(dir, command); };
  test::write_file(dir_ / "notes.txt", "plain\n");
  git("git init -q && git add -A && git -c user.name=A -c user.email=a@b commit -qm one");
  GitViewOptions options;
  options.filter_command = "anchorfs git-filter";
  options.filter_patterns = {"*.py"};
  const auto analysed = [&] {
    analysis::SourceTree tree = analysis::scan_tree(dir);
    VirtualFiles files = graft_git_view(tree, options);
    return make_snapshot(std::move(tree),
                         test::to_plans({{"keep.py", {{0, "# K\n"}}}, {"edit.py", {{0, "# E\n"}}}}),
                         render::PlanMapsByPath{}, std::move(files));
  }();
  const Generation first(analysed);
  EXPECT_EQ(served_index_sizes(first)["edit.py"], 8u);  // "old\n" and its tag line

  test::write_file(dir_ / "edit.py", "new bytes\n");
  git("git add edit.py");
  const auto rescan = rebase_snapshot(*analysed, analysis::scan_tree(dir));
  ASSERT_TRUE(rescan->awaiting_analysis());
  const std::map<std::string, uint32_t> sizes = served_index_sizes(Generation(rescan, first, {}));
  EXPECT_EQ(sizes.at("edit.py"), 0u);
  EXPECT_EQ(sizes.at("keep.py"), 9u);  // "same\n" and its carried tag line
  EXPECT_EQ(sizes.at("notes.txt"), 6u);
  // Untagged and unchanged, but the analysis may tag it now (edit.py may call it).
  EXPECT_EQ(sizes.at("retag.py"), 0u);

  EXPECT_FALSE(analysed->awaiting_analysis());
}

// Git's own writes through a writable mount (`index.lock`, objects, refs) and a change of ctime
// alone (a user xattr) change nothing the analysis reads: the snapshot they make still serves the
// last analysis's tags and is not awaiting analysis, so its index keeps the sizes of untagged
// files git in the checkout trusts. Served sizeless, they were replaced by a forced
// `git checkout -- FILE` in the mount (git takes a recorded size 0 for a change without reading
// the file), which dropped a user xattr (fuzz seed 129). A change of a source's bytes still is.
TEST_F(GenerationTest, GitsOwnWritesAndAnXattrLeaveTheIndexAsTheAnalysisServedIt) {
  const std::string dir = dir_.path();
  const auto git = [&](const std::string& command) { run_git(dir, command); };
  git("git init -q && git add -A && git -c user.name=A -c user.email=a@b commit -qm one");
  GitViewOptions options;
  options.filter_command = "anchorfs git-filter";
  options.filter_patterns = {"*.py"};
  analysis::SourceTree tree = analysis::scan_tree(dir);
  VirtualFiles files = graft_git_view(tree, options);
  const auto analysed =
      make_snapshot(std::move(tree), test::to_plans({{"keep.py", {{0, "# K\n"}}}}),
                    render::PlanMapsByPath{}, std::move(files));
  const Generation first(analysed);
  ASSERT_EQ(served_index_sizes(first).at("retag.py"), 6u);

  // git makes its lock file (a patch of one path inside `.git`).
  test::write_file(dir_ / ".git/index.lock", "");
  std::vector<uint32_t> origin;
  std::vector<uint8_t> copied;
  const std::string lock = ".git/index.lock";
  const auto locked = patch_snapshot(*analysed, std::span(&lock, 1), {}, 0, origin, copied);
  ASSERT_NE(locked, nullptr);
  EXPECT_FALSE(locked->awaiting_analysis());
  const Generation second(locked, first, {}, origin);
  EXPECT_EQ(served_index_sizes(second).at("retag.py"), 6u);

  // A user xattr moves the file's ctime; git in the checkout records it; the index is renamed
  // over (a whole rescan).
  ASSERT_EQ(::setxattr((dir_ / "retag.py").c_str(), "user.note", "v", 1, 0), 0)
      << std::strerror(errno);
  std::filesystem::remove(dir_ / ".git/index.lock");
  git("git status --porcelain");
  const auto refreshed = rebase_snapshot(*locked, analysis::scan_tree(dir));
  EXPECT_FALSE(refreshed->awaiting_analysis());
  const Generation renumbered(refreshed, second, {});  // retag.py's ctime moved: a new number
  const Generation third(refreshed,
                         renumbered);  // once the kernel knows it (Server::replace_snapshot)
  EXPECT_EQ(served_index_sizes(third).at("retag.py"), 6u);
  EXPECT_EQ(served_index_sizes(third).at("keep.py"), 9u);

  // New bytes in a source: the analysis may tag any untagged file the filter covers.
  test::write_file(dir_ / "edit.py", "new bytes\n");
  const std::string edited = "edit.py";
  const auto edit = patch_snapshot(*refreshed, std::span(&edited, 1), {}, 0, origin, copied);
  ASSERT_NE(edit, nullptr);
  EXPECT_TRUE(edit->awaiting_analysis());
  const Generation edited_generation(edit, third, {}, origin);
  EXPECT_EQ(served_index_sizes(edited_generation).at("retag.py"), 0u);  // git status reads it
  // ...and stays so through git's next lock, until the analysis publishes; but git holding the
  // lock gets the sizes as served (no re-tag is published while it holds it), so its forced
  // checkout leaves the file alone.
  test::write_file(dir_ / ".git/index.lock", "");
  const auto relocked = patch_snapshot(*edit, std::span(&lock, 1), {}, 0, origin, copied);
  ASSERT_NE(relocked, nullptr);
  EXPECT_TRUE(relocked->awaiting_analysis());
  EXPECT_EQ(served_index_sizes(Generation(relocked, edited_generation, {}, origin)).at("retag.py"),
            6u);
}

// `path`'s git index with every entry's recorded change time moved within its second (as a
// chmod in the same second leaves it: git, built without USE_NSEC, compares whole seconds and
// keeps the entry as it was).
void shift_recorded_nanoseconds(const std::filesystem::path& path) {
  const std::optional<std::string> shifted =
      rewrite_index_stats(test::read_file(path), [](std::string_view, const IndexedStat& recorded) {
        IndexedStat moved = recorded;
        moved.ctime_ns = recorded.ctime_ns == 0 ? 1 : recorded.ctime_ns - 1;
        return std::optional<IndexedStat>(moved);
      });
  ASSERT_TRUE(shifted.has_value());
  test::write_file(path, *shifted);
}

// A repository nested in the tree (its own `sub/.git`) has its index served as the top one's is:
// each entry git in the checkout trusts gets the generation's inode number and the view's size,
// found under the nested worktree. Served as the checkout's bytes, every file looked changed to
// git in the mount (the checkout's inode numbers), and a forced `git checkout -- FILE` there
// replaced unchanged files (mode and hard links lost: fuzz seed 111). An entry whose times
// differ from the file's only below the second is trusted too, as git in the checkout trusts it.
TEST_F(GenerationTest, ANestedRepositorysIndexIsTranslatedForWhatGitInTheCheckoutTrusts) {
  const std::string dir = dir_.path();
  const auto git = run_git;
  test::write_file(dir_ / "sub/a.py", "x = 1\n");
  git(dir, "git init -q && git add keep.py && git -c user.name=A -c user.email=a@b commit -qm one");
  git(dir + "/sub",
      "git init -q && git add -A && git -c user.name=A -c user.email=a@b commit -qm inner");
  shift_recorded_nanoseconds(dir_ / ".git/index");
  shift_recorded_nanoseconds(dir_ / "sub/.git/index");
  GitViewOptions options;
  options.filter_command = "anchorfs git-filter";
  options.filter_patterns = {"*.py"};
  analysis::SourceTree tree = analysis::scan_tree(dir);
  VirtualFiles files = graft_git_view(tree, options);
  const Generation generation(make_snapshot(
      std::move(tree), test::to_plans({{"keep.py", {{0, "# K\n"}}}, {"sub/a.py", {{0, "# T\n"}}}}),
      render::PlanMapsByPath{}, std::move(files)));
  const Snapshot& snapshot = generation.snapshot();
  ASSERT_EQ(snapshot.git_indexes().size(), 2u);
  // The served stat of each index's one entry, by the tree's path.
  std::map<std::string, IndexedStat> served;
  for (const Snapshot::ServedIndex& index : snapshot.git_indexes()) {
    rewrite_index_stats(
        *generation.content(index.entry), [&](std::string_view path, const IndexedStat& stat) {
          served.emplace((index.worktree.empty() ? "" : index.worktree + "/") + std::string(path),
                         stat);
          return std::optional<IndexedStat>{};
        });
  }
  ASSERT_EQ(served.size(), 2u);
  EXPECT_EQ(served.at("keep.py").ino, generation.inode(*snapshot.find("keep.py")));
  EXPECT_EQ(served.at("keep.py").size, 9u);  // "same\n" and its tag line
  EXPECT_EQ(served.at("sub/a.py").ino, generation.inode(*snapshot.find("sub/a.py")));
  EXPECT_EQ(served.at("sub/a.py").size, 10u);  // "x = 1\n" and its tag line
}

// Sets the modification time of `path` to `seconds` (a change the kernel's cached attributes miss).
void set_mtime(const std::filesystem::path& path, time_t seconds) {
  const timespec times[2] = {{0, UTIME_OMIT}, {seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

TEST_F(GenerationTest, WhatTheKernelUpdatesItselfAfterARemovalIsNotSentAgain) {
  auto before = std::make_shared<const Generation>(snap());
  InodeTable table(before);
  const uint64_t pkg = inode_of(*before, "pkg");
  // An unlink through the mount: pkg's times move and the name goes; a file of the root goes too.
  std::filesystem::remove(dir_ / "pkg/inner.py");
  std::filesystem::remove(dir_ / "gone.py");
  set_mtime(dir_ / "pkg", 1'000'000);
  auto after = std::make_shared<const Generation>(snap(), *before);
  Invalidations changed = diff_generations(*before, *after);
  table.swap(after, changed);
  ASSERT_TRUE(contains(changed.attributes, pkg));
  ASSERT_TRUE(contains(changed.names, pkg, "inner.py"));
  ASSERT_TRUE(contains(changed.names, kRootInode, "gone.py"));
  leave_to_kernel(changed, pkg, "inner.py");
  EXPECT_FALSE(contains(changed.attributes, pkg)) << "the unlink's reply invalidated them";
  EXPECT_FALSE(contains(changed.names, pkg, "inner.py")) << "the kernel dropped its own dentry";
  EXPECT_TRUE(contains(changed.names, kRootInode, "gone.py"))
      << "a name the request did not remove is still dropped";
  EXPECT_TRUE(std::is_sorted(changed.names.begin(), changed.names.end()));
}

TEST_F(GenerationTest, ASwapDropsOnlyListingsTheKernelWasGivenSinceTheLastChange) {
  auto before = std::make_shared<const Generation>(snap());
  InodeTable table(before);
  const uint64_t pkg = inode_of(*before, "pkg");
  table.listed(pkg);  // the kernel was given pkg's listing, not the root's
  test::write_file(dir_ / "pkg/added.py", "added\n");
  test::write_file(dir_ / "added.py", "added\n");
  set_mtime(dir_ / "pkg", 1'000'000);
  set_mtime(dir_.path(), 1'000'000);
  auto after = std::make_shared<const Generation>(snap(), *before);
  Invalidations changed = diff_generations(*before, *after);
  ASSERT_TRUE(contains(changed.contents, pkg));
  ASSERT_TRUE(contains(changed.contents, kRootInode));
  table.swap(after, changed);
  EXPECT_TRUE(contains(changed.contents, pkg)) << "its cached listing lacks added.py";
  EXPECT_FALSE(contains(changed.contents, kRootInode)) << "no listing of it to drop";
  EXPECT_TRUE(contains(changed.attributes, kRootInode)) << "its modification time moved";
  EXPECT_FALSE(contains(changed.attributes, pkg)) << "dropped with its listing";
  EXPECT_TRUE(contains(changed.names, pkg, "added.py")) << "names are dropped as before";
  EXPECT_TRUE(contains(changed.names, kRootInode, "added.py"));

  // pkg was not listed again since: its next change drops its attributes only, and a change
  // that leaves them alone drops nothing.
  test::write_file(dir_ / "pkg/more.py", "more\n");
  set_mtime(dir_ / "pkg", 2'000'000);
  auto third = std::make_shared<const Generation>(snap(), *after);
  changed = diff_generations(*after, *third);
  ASSERT_TRUE(contains(changed.contents, pkg));
  table.swap(third, changed);
  EXPECT_FALSE(contains(changed.contents, pkg));
  EXPECT_TRUE(contains(changed.attributes, pkg));
  EXPECT_EQ(table.current(), third);
}

// A refresh re-tags a file: it gets a new inode number, and until the kernel drops its name the
// kernel still reports the old number's size to lstat (a name cached by an earlier command). Git
// reading the new index meanwhile would call the file modified without reading it (`git checkout`
// then refused: "local changes would be overwritten"), so that index records size 0 for it; the
// same snapshot made again from that generation (the kernel has dropped the names) records the
// size.
TEST_F(GenerationTest, ARenumberedFileIsSizelessInTheIndexUntilTheSameSnapshotIsServedAgain) {
  const std::string dir = dir_.path();
  run_git(dir, "git init -q && git add -A && git -c user.name=A -c user.email=a@b commit -qm one");
  GitViewOptions options;
  options.filter_command = "anchorfs git-filter";
  options.filter_patterns = {"*.py"};
  const auto tagged = [&](const std::string& keep_tag) {
    analysis::SourceTree tree = analysis::scan_tree(dir);
    VirtualFiles files = graft_git_view(tree, options);
    return make_snapshot(
        std::move(tree),
        test::to_plans({{"keep.py", {{0, keep_tag}}}, {"edit.py", {{0, "# E\n"}}}}),
        render::PlanMapsByPath{}, std::move(files));
  };
  const Generation first(tagged("# K\n"));
  EXPECT_EQ(served_index_sizes(first)["keep.py"], 9u);
  EXPECT_FALSE(first.index_provisional());

  const Generation retagged(tagged("# K, longer\n"), first);
  ASSERT_NE(retagged.inode(*retagged.snapshot().find("keep.py")),
            first.inode(*first.snapshot().find("keep.py")));
  EXPECT_TRUE(retagged.index_provisional());
  std::map<std::string, uint32_t> sizes = served_index_sizes(retagged);
  EXPECT_EQ(sizes.at("keep.py"), 0u);
  EXPECT_EQ(sizes.at("edit.py"), 8u);  // same tags: same number, the kernel's size is right

  const Generation settled(retagged.snapshot_ptr(), retagged);
  EXPECT_FALSE(settled.index_provisional());
  sizes = served_index_sizes(settled);
  EXPECT_EQ(sizes.at("keep.py"), 17u);
  EXPECT_EQ(sizes.at("edit.py"), 8u);
}

}  // namespace
}  // namespace anchorfs::fs
