// Snapshot: lookups by name and path, served attributes, and plan validation.
#include "fs/snapshot.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "fs_test_support.h"

namespace anchorfs::fs {
namespace {

class SnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::write_file(dir_ / "pkg/mod.py", "def f():\n    pass\n");
    test::write_file(dir_ / "pkg/sub/deep.py", "x = 1\n");
    test::write_file(dir_ / "a b.txt", "spaces");
    test::write_file(dir_ / "\xc3\xa9t\xc3\xa9.py", "utf8 name\n");
    test::write_file(dir_ / ".hidden", "");
  }
  analysis::SourceTree scan() const { return analysis::scan_tree(dir_.path()); }

  test::TempDir dir_{"anchorfs-snapshot"};
};

TEST_F(SnapshotTest, FindsEveryScannedEntryByPathAndByName) {
  analysis::SourceTree tree = scan();
  const std::vector<analysis::TreeEntry> entries = tree.entries;
  auto snapshot = make_snapshot(std::move(tree), {});
  ASSERT_EQ(snapshot->size(), entries.size());
  for (uint32_t i = 0; i < entries.size(); ++i) {
    ASSERT_EQ(snapshot->find(entries[i].path), i) << entries[i].path;
    if (i > 0) {
      ASSERT_EQ(snapshot->child(entries[i].parent, snapshot->name(i)), i) << entries[i].path;
    }
  }
  EXPECT_EQ(snapshot->find(""), 0u);
  EXPECT_FALSE(snapshot->find("pkg/missing.py"));
  EXPECT_FALSE(snapshot->find("pkg/mod.py/x"));
  EXPECT_FALSE(snapshot->child(*snapshot->find("pkg/mod.py"), "x"));
  EXPECT_EQ(snapshot->name(*snapshot->find("pkg/sub/deep.py")), "deep.py");
}

TEST_F(SnapshotTest, TaggedFilesGrowByTheirTagBytes) {
  auto snapshot = make_snapshot(scan(), test::to_plans({{"pkg/mod.py", {{0, "# T\n"}}}}));
  const uint32_t tagged = *snapshot->find("pkg/mod.py");
  const uint32_t plain = *snapshot->find("pkg/sub/deep.py");
  EXPECT_EQ(snapshot->view_size(tagged), 18u + 4u);
  EXPECT_EQ(snapshot->attributes(tagged).st_size, 22);
  EXPECT_EQ(snapshot->view_size(plain), 6u);
  EXPECT_EQ(snapshot->tag_bytes(), 4u);
  EXPECT_EQ(snapshot->tagged_files(), 1u);

  struct stat source {};
  ASSERT_EQ(::lstat((dir_ / "pkg/mod.py").c_str(), &source), 0);
  const struct stat served = snapshot->attributes(tagged);
  EXPECT_EQ(served.st_mode, source.st_mode);
  EXPECT_EQ(served.st_uid, source.st_uid);
  EXPECT_EQ(served.st_mtim.tv_sec, source.st_mtim.tv_sec);
  EXPECT_EQ(served.st_mtim.tv_nsec, source.st_mtim.tv_nsec);
}

TEST_F(SnapshotTest, RejectsPlansThatCannotApply) {
  EXPECT_THROW(make_snapshot(scan(), test::to_plans({{"nope.py", {{0, "#"}}}})),
               std::invalid_argument);
  EXPECT_THROW(make_snapshot(scan(), test::to_plans({{"pkg", {{0, "#"}}}})), std::invalid_argument);
  EXPECT_THROW(make_snapshot(scan(), test::to_plans({{"pkg/mod.py", {{5, "#"}, {2, "#"}}}})),
               std::invalid_argument);
  EXPECT_THROW(make_snapshot(scan(), test::to_plans({{"pkg/mod.py", {{19, "#"}}}})),
               std::invalid_argument);
  EXPECT_NO_THROW(make_snapshot(scan(), test::to_plans({{"pkg/mod.py", {{18, "#"}, {18, "#"}}}})));
}

TEST_F(SnapshotTest, EachEntrysServingIsDecidedWhenTheSnapshotIsBuilt) {
  ASSERT_EQ(::symlink("pkg/mod.py", (dir_ / "link").c_str()), 0);
  ASSERT_EQ(::mkfifo((dir_ / "pipe").c_str(), 0600), 0);
  VirtualFiles overlays;
  overlays.files.emplace_back(".hidden", std::make_shared<const std::string>());
  auto snapshot = make_snapshot(scan(), test::to_plans({{"pkg/mod.py", {{0, "# T\n"}}}}), {},
                                std::move(overlays));
  EXPECT_EQ(snapshot->serving(0), Serving::Directory);
  EXPECT_EQ(snapshot->serving(*snapshot->find("pkg")), Serving::Directory);
  EXPECT_EQ(snapshot->serving(*snapshot->find("link")), Serving::Symlink);
  EXPECT_EQ(snapshot->serving(*snapshot->find("pipe")), Serving::Special);
  EXPECT_EQ(snapshot->serving(*snapshot->find("pkg/mod.py")), Serving::LaidOut);
  EXPECT_EQ(snapshot->serving(*snapshot->find("pkg/sub/deep.py")), Serving::Checkout);
  EXPECT_EQ(snapshot->serving(*snapshot->find(".hidden")), Serving::Memory);
  // A retired version works it out the same way from what it keeps.
  const uint32_t tagged = *snapshot->find("pkg/mod.py");
  EXPECT_EQ(serving_of(snapshot->entry(tagged), snapshot->layout(tagged), false), Serving::LaidOut);
}

}  // namespace
}  // namespace anchorfs::fs
