// Generations: inode numbers follow paths across snapshots; the diff names what changed.
#include "fs/generation.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

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

TEST_F(GenerationTest, InodesFollowPathsAndTheDiffNamesEveryChange) {
  Generation before(snap({{"retag.py", {{0, "# A\n"}}}}));
  const uint64_t keep = inode_of(before, "keep.py");
  const uint64_t edit = inode_of(before, "edit.py");
  const uint64_t gone = inode_of(before, "gone.py");
  const uint64_t was_file = inode_of(before, "becomes_dir");
  const uint64_t pkg = inode_of(before, "pkg");
  const uint64_t retag = inode_of(before, "retag.py");

  test::write_file(dir_ / "edit.py", "new and longer\n");
  ASSERT_EQ(::unlink((dir_ / "gone.py").c_str()), 0);
  ASSERT_EQ(::unlink((dir_ / "becomes_dir").c_str()), 0);
  std::filesystem::create_directory(dir_ / "becomes_dir");
  test::write_file(dir_ / "pkg/added.py", "added\n");

  Generation after(snap({{"retag.py", {{0, "# B\n"}}}}), before);
  EXPECT_EQ(inode_of(after, ""), kRootInode);
  EXPECT_EQ(inode_of(after, "keep.py"), keep);
  EXPECT_EQ(inode_of(after, "edit.py"), edit);
  EXPECT_EQ(inode_of(after, "pkg"), pkg);
  EXPECT_EQ(inode_of(after, "retag.py"), retag);
  EXPECT_NE(inode_of(after, "becomes_dir"), was_file) << "a type change needs a new inode";
  EXPECT_GE(inode_of(after, "becomes_dir"), before.next_inode());
  EXPECT_GE(inode_of(after, "pkg/added.py"), before.next_inode());
  EXPECT_FALSE(after.entry(gone));
  EXPECT_FALSE(after.entry(was_file));

  const Invalidations changed = diff_generations(before, after);
  EXPECT_TRUE(contains(changed.contents, edit));
  EXPECT_TRUE(contains(changed.contents, retag)) << "same source, new tags";
  EXPECT_TRUE(contains(changed.contents, pkg)) << "listing changed";
  EXPECT_TRUE(contains(changed.contents, kRootInode)) << "listing changed";
  EXPECT_FALSE(contains(changed.contents, keep));
  EXPECT_FALSE(contains(changed.attributes, keep));
  EXPECT_TRUE(contains(changed.names, kRootInode, "gone.py"));
  EXPECT_TRUE(contains(changed.names, kRootInode, "becomes_dir"));
  EXPECT_TRUE(contains(changed.names, pkg, "added.py"));
  EXPECT_FALSE(contains(changed.names, kRootInode, "keep.py"));
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

}  // namespace
}  // namespace anchorfs::fs
