// rescan_paths: a tree patched at the paths a change touched equals a whole scan made after it.
#include "analysis/rescan_paths.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "analysis/unique_fd.h"
#include "tests/analysis/tree_description.h"
#include "tests/support/temp_dir.h"

namespace anchorfs::analysis {
namespace {

void write(const std::string& path, const std::string& bytes, int flags = O_TRUNC) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | flags, 0644);
  ASSERT_GE(fd, 0) << path;
  ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fd);
}

// Every field of one entry but its place in the tree (parent, children): what `copied` promises.
std::string describe_fields(const TreeEntry& e) {
  return e.path + " mode=" + std::to_string(e.mode) + " size=" + std::to_string(e.size) +
         " ino=" + std::to_string(e.inode) + " dev=" + std::to_string(e.device) +
         " nlink=" + std::to_string(e.nlink) + " uid=" + std::to_string(e.uid) +
         " gid=" + std::to_string(e.gid) + " mtime=" + std::to_string(e.mtime_ns) +
         " ctime=" + std::to_string(e.ctime_ns) + " atime=" + std::to_string(e.atime_ns) +
         " link=" + e.symlink_target + " rdev=" + std::to_string(e.rdev);
}

// Storage a tree no longer uses, as a swap hands it over: `count` entries whose every field
// differs from anything a scan of the test's trees records.
std::vector<TreeEntry> stale_storage(size_t count) {
  std::vector<TreeEntry> entries(count);
  for (size_t i = 0; i < count; ++i) {
    TreeEntry& e = entries[i];
    e.path = "stale/" + std::string(40 + i % 30, 'p') + std::to_string(i);
    e.symlink_target = i % 2 == 0 ? std::string(60, 't') : std::string();
    e.parent = 7;
    e.mode = S_IFLNK | 0777;
    e.size = e.inode = e.device = e.rdev = 999'999 + i;
    e.nlink = 42;
    e.uid = e.gid = 4242;
    e.mtime_ns = e.ctime_ns = e.atime_ns = 1;
    e.first_child = e.child_count = 3;
  }
  return entries;
}

class RescanPaths : public ::testing::Test {
 protected:
  std::string at(const std::string& path) const { return base_ + "/" + path; }

  // Applies one change to the tree and says which paths it touched.
  std::vector<std::string> change(std::mt19937& random) {
    const std::vector<std::string> dirs = {"", "a", "a/b", "c"};
    const std::string dir = dirs[random() % dirs.size()];
    const std::string name = "f" + std::to_string(random() % 6);
    const std::string path = dir.empty() ? name : dir + "/" + name;
    struct stat st {};
    const bool exists = ::lstat(at(path).c_str(), &st) == 0;
    switch (random() % 9) {
      case 0:
        if (!exists || S_ISREG(st.st_mode)) write(at(path), std::string(random() % 50, 'x'));
        return {path};
      case 1:
        if (exists && S_ISREG(st.st_mode)) write(at(path), "more\n", O_APPEND);
        return {path};
      case 2:
        if (exists && !S_ISDIR(st.st_mode)) ::unlink(at(path).c_str());
        return {path};
      case 3: {
        const std::string other = dirs[random() % dirs.size()];
        const std::string to =
            (other.empty() ? "" : other + "/") + "g" + std::to_string(random() % 4);
        ::rename(at(path).c_str(), at(to).c_str());
        return {path, to};
      }
      case 4: {
        const std::string to = (dir.empty() ? "" : dir + "/") + "h" + std::to_string(random() % 3);
        if (exists && S_ISREG(st.st_mode)) ::link(at(path).c_str(), at(to).c_str());
        return {to};
      }
      case 5:
        ::symlink("target", at(path).c_str());
        return {path};
      case 6:
        ::chmod(at(path).c_str(), 0600 | (random() % 2 == 0 ? 0044 : 0));
        return {path};
      case 7:
        if (!exists) {
          ::mkdir(at(path).c_str(), 0755);
          write(at(path + "/inner"), "in\n");  // a directory made whole, then named: read whole
        }
        return {path};
      default:
        if (exists && S_ISDIR(st.st_mode)) {
          ::unlink(at(path + "/inner").c_str());
          ::rmdir(at(path).c_str());
        }
        return {path};
    }
  }

  test_support::TempDir dir_{"anchorfs-rescan"};
  std::string base_ = dir_.path();  // the tree change() works on
};

TEST_F(RescanPaths, EqualsAWholeScanAfterEveryChange) {
  for (const unsigned seed : {23u, 7u, 101u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::string root = dir_ / ("seed" + std::to_string(seed));
    base_ = root;
    ::mkdir(root.c_str(), 0755);
    ::mkdir(at("a").c_str(), 0755);
    ::mkdir(at("a/b").c_str(), 0755);
    ::mkdir(at("c").c_str(), 0755);
    write(at("a/b/f1"), "one\n");
    SourceTree tree = scan_tree(root);
    SourceTree previous;
    std::mt19937 random(seed);
    for (int step = 0; step < 300; ++step) {
      const std::vector<std::string> touched = change(random);
      std::vector<uint32_t> origin;
      std::vector<uint8_t> copied;
      std::optional<SourceTree> patched = rescan_paths(tree, touched, {}, &origin, &copied);
      ASSERT_TRUE(patched) << "step " << step;
      ASSERT_EQ(test::describe_tree(*patched), test::describe_tree(scan_tree(root)))
          << "step " << step << " touched " << touched.front();
      // Built over the storage of a tree no longer used (the one before, or more or fewer
      // entries than needed, every field stale): the same tree, nothing of the old one left.
      std::vector<TreeEntry> storage =
          step % 2 == 0 ? std::move(previous.entries) : stale_storage((step * 7) % 40);
      std::vector<uint32_t> reused_origin;
      std::vector<uint8_t> reused_copied;
      const std::optional<SourceTree> reused =
          rescan_paths(tree, touched, {}, &reused_origin, &reused_copied, std::move(storage));
      ASSERT_TRUE(reused) << "step " << step;
      ASSERT_EQ(test::describe_tree(*reused), test::describe_tree(*patched)) << "step " << step;
      ASSERT_EQ(reused_origin, origin) << "step " << step;
      ASSERT_EQ(reused_copied, copied) << "step " << step;
      ASSERT_EQ(origin.size(), patched->entries.size());
      ASSERT_EQ(copied.size(), patched->entries.size());
      size_t copies = 0;
      for (size_t i = 0; i < origin.size(); ++i) {
        if (origin[i] != kNoOrigin) {
          EXPECT_EQ(tree.entries[origin[i]].path, patched->entries[i].path);
        }
        if (copied[i]) {
          ++copies;
          ASSERT_NE(origin[i], kNoOrigin) << "step " << step;
          EXPECT_EQ(describe_fields(tree.entries[origin[i]]), describe_fields(patched->entries[i]))
              << "step " << step << " touched " << touched.front();
        }
      }
      // Whatever a change touches, the directories beside it are copied, not read again.
      EXPECT_GT(copies, 0u) << "step " << step;
      EXPECT_FALSE(copied[0] && touched.front().find('/') == std::string::npos)
          << "step " << step << ": the root holds the touched name, its times moved";
      previous = std::move(tree);
      tree = std::move(*patched);
    }
  }
}

TEST_F(RescanPaths, ADirectoryRenamedIsReadWholeAtItsNewName) {
  ::mkdir(at("d").c_str(), 0755);
  ::mkdir(at("d/e").c_str(), 0755);
  write(at("d/e/x"), "x\n");
  const SourceTree tree = scan_tree(dir_.path());
  ASSERT_EQ(::rename(at("d").c_str(), at("moved").c_str()), 0);
  const std::vector<std::string> touched = {"d", "moved"};
  std::optional<SourceTree> patched = rescan_paths(tree, touched);
  ASSERT_TRUE(patched);
  EXPECT_EQ(test::describe_tree(*patched), test::describe_tree(scan_tree(dir_.path())));
}

TEST_F(RescanPaths, TheRepositoryDirectoryReplacedAsksForAWholeScan) {
  const std::string root = dir_ / "repo";
  ::mkdir(root.c_str(), 0755);
  const SourceTree tree = scan_tree(root);
  ASSERT_EQ(::rename(root.c_str(), (dir_ / "old").c_str()), 0);
  ::mkdir(root.c_str(), 0755);
  const std::vector<std::string> touched = {"x"};
  EXPECT_FALSE(rescan_paths(tree, touched));
}

// A swap hands over the root descriptor the mount keeps: the path is still checked, so a root
// renamed away (the descriptor still open on it, still a directory) and made again is noticed.
TEST_F(RescanPaths, AKeptRootDescriptorStillNoticesTheRootReplaced) {
  const std::string root = dir_ / "repo";
  ::mkdir(root.c_str(), 0755);
  write(root + "/x", "x\n");
  const SourceTree tree = scan_tree(root);
  const UniqueFd kept(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  ASSERT_GE(kept.get(), 0);
  const std::vector<std::string> touched = {"x"};
  write(root + "/x", "changed\n");
  std::optional<SourceTree> patched =
      rescan_paths(tree, touched, {}, nullptr, nullptr, {}, kept.get());
  ASSERT_TRUE(patched);
  EXPECT_EQ(test::describe_tree(*patched), test::describe_tree(scan_tree(root)));
  ASSERT_EQ(::rename(root.c_str(), (dir_ / "old").c_str()), 0);
  ::mkdir(root.c_str(), 0755);
  EXPECT_FALSE(rescan_paths(tree, touched, {}, nullptr, nullptr, {}, kept.get()));
  ASSERT_EQ(::rmdir(root.c_str()), 0);
  EXPECT_FALSE(rescan_paths(tree, touched, {}, nullptr, nullptr, {}, kept.get()));
}

}  // namespace
}  // namespace anchorfs::analysis
