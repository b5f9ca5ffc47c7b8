// OpenFiles: where a file open for writing is stored follows renames and forgets removed paths.
#include "fs/open_files.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

namespace anchorfs::fs {
namespace {

std::shared_ptr<OpenFile> staged(uint64_t inode) {
  return std::make_shared<OpenFile>(OpenFile::Kind::Staged, inode, -1, false);
}

TEST(OpenFilesTest, TargetsFollowRenamesOfTheFileAndOfItsDirectories) {
  OpenFiles files;
  const uint64_t a = files.add(staged(10), "pkg/a.py");
  const uint64_t b = files.add(staged(11), "pkg/sub/b.py");
  const uint64_t other = files.add(staged(12), "pkgx/c.py");
  files.renamed("pkg/a.py", "pkg/z.py");
  EXPECT_EQ(files.target(a), std::optional<std::string>("pkg/z.py"));
  files.renamed("pkg", "lib");
  EXPECT_EQ(files.target(a), std::optional<std::string>("lib/z.py"));
  EXPECT_EQ(files.target(b), std::optional<std::string>("lib/sub/b.py"));
  EXPECT_EQ(files.target(other), std::optional<std::string>("pkgx/c.py"));
}

TEST(OpenFilesTest, RemovedOrRenamedOverPathsAreForgotten) {
  OpenFiles files;
  const uint64_t a = files.add(staged(10), "a.py");
  const uint64_t b = files.add(staged(11), "b.py");
  const uint64_t c = files.add(staged(12), "dir/c.py");
  files.renamed("tmp.py", "a.py");  // an editor's save over a.py: a's writer lost its name
  EXPECT_EQ(files.target(a), std::nullopt);
  files.removed("dir");
  EXPECT_EQ(files.target(c), std::nullopt);
  EXPECT_EQ(files.target(b), std::optional<std::string>("b.py"));
}

TEST(OpenFilesTest, StagedSizeIsTheLatestWritersAndHandlesAreDistinct) {
  OpenFiles files;
  const uint64_t first = files.add(staged(7), "f.py");
  const uint64_t second = files.add(staged(7), "f.py");
  EXPECT_NE(first, second);
  EXPECT_NE(first, 0u);
  files.staged_written(first, 100);
  files.staged_written(second, 30);
  EXPECT_EQ(files.staged_size(7), std::optional<uint64_t>(30));
  files.staged_written(first, 120);
  EXPECT_EQ(files.staged_size(7), std::optional<uint64_t>(120));
  EXPECT_EQ(files.staged_size(8), std::nullopt);
  files.remove(first);
  files.remove(second);
  EXPECT_EQ(files.staged_size(7), std::nullopt);
  EXPECT_EQ(files.find(first), nullptr);
}

}  // namespace
}  // namespace anchorfs::fs
