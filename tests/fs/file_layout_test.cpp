// FileLayout: random plans and random reads against the reference apply, without FUSE.
#include "fs/file_layout.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <random>

#include "fs_test_support.h"

namespace anchorfs::fs {
namespace {

using test::reference_apply;

struct OpenFile {
  explicit OpenFile(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
  int fd;
};

std::string random_bytes(std::mt19937_64& rng, size_t size) {
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  return bytes;
}

render::TagPlan random_plan(std::mt19937_64& rng, uint64_t size) {
  render::TagPlan plan;
  const size_t count = rng() % 24;
  std::vector<uint64_t> offsets;
  for (size_t i = 0; i < count; ++i) offsets.push_back(rng() % (size + 1));
  if (count > 2) {
    offsets[0] = 0;                   // at the very start
    offsets[1] = size;                // appended at the end
    offsets[2] = offsets[count - 1];  // two texts at one offset
  }
  std::sort(offsets.begin(), offsets.end());
  for (uint64_t offset : offsets) {
    const size_t length = rng() % 5 == 0 ? 0 : 1 + rng() % 300;  // empty texts too
    plan.insertions.push_back({offset, random_bytes(rng, length)});
  }
  return plan;
}

TEST(FileLayout, RandomPlansReadExactlyTheAppliedBytes) {
  test::TempDir dir("anchorfs-layout");
  std::mt19937_64 rng(20240611);
  for (int round = 0; round < 60; ++round) {
    const size_t size = round == 0 ? 0 : rng() % 20000;
    const std::string original = random_bytes(rng, size);
    const std::string path = dir / ("f" + std::to_string(round));
    test::write_file(path, original);
    const render::TagPlan plan = random_plan(rng, size);
    const std::string expected = reference_apply(original, plan);

    FileLayout layout(plan, size);
    ASSERT_EQ(layout.view_size(), expected.size());
    ASSERT_EQ(layout.original_size() + layout.added_bytes(), expected.size());
    OpenFile file(path);
    ASSERT_GE(file.fd, 0);

    std::string whole(expected.size(), '\0');
    ASSERT_TRUE(layout.read(file.fd, 0, whole));
    ASSERT_EQ(whole, expected) << "round " << round;

    for (int probe = 0; probe < 200 && !expected.empty(); ++probe) {
      const uint64_t offset = rng() % expected.size();
      const uint64_t length = 1 + rng() % std::min<uint64_t>(expected.size() - offset, 700);
      std::string part(length, '\0');
      ASSERT_TRUE(layout.read(file.fd, offset, part));
      ASSERT_EQ(part, expected.substr(offset, length))
          << "round " << round << " offset " << offset << " length " << length;
    }
  }
}

TEST(FileLayout, EveryOneByteReadAroundInsertions) {
  test::TempDir dir("anchorfs-layout");
  const std::string original = "abcdef\nghij\n";
  const render::TagPlan plan =
      test::to_plan({{0, "# T0\n"}, {7, "# T1\n"}, {7, "# T2\n"}, {12, "# END"}});
  const std::string expected = reference_apply(original, plan);
  test::write_file(dir / "f", original);
  OpenFile file(dir / "f");
  FileLayout layout(plan, original.size());
  for (uint64_t offset = 0; offset < expected.size(); ++offset) {
    for (uint64_t length = 1; offset + length <= expected.size(); ++length) {
      std::string part(length, '\0');
      ASSERT_TRUE(layout.read(file.fd, offset, part));
      ASSERT_EQ(part, expected.substr(offset, length)) << offset << "+" << length;
    }
  }
}

TEST(FileLayout, UntaggedReadsTheOriginal) {
  test::TempDir dir("anchorfs-layout");
  test::write_file(dir / "f", "plain bytes");
  OpenFile file(dir / "f");
  FileLayout layout(render::TagPlan{}, 11);
  EXPECT_TRUE(layout.empty());
  EXPECT_EQ(layout.view_size(), 11u);
  std::string part(5, '\0');
  ASSERT_TRUE(layout.read(file.fd, 6, part));
  EXPECT_EQ(part, "bytes");
}

TEST(FileLayout, ShortOriginalIsAnErrorNotGarbage) {
  test::TempDir dir("anchorfs-layout");
  test::write_file(dir / "f", "0123456789");
  OpenFile file(dir / "f");
  FileLayout layout(test::to_plan({{5, "TAG"}}), 10);
  ASSERT_EQ(::truncate((dir / "f").c_str(), 4), 0);
  std::string whole(layout.view_size(), '\0');
  errno = 0;
  EXPECT_FALSE(layout.read(file.fd, 0, whole));
  EXPECT_EQ(errno, EIO);
}

// The server replies with the errno a failed read leaves (docs: errno kept), so it must be the
// read's own, not a blanket EIO.
TEST(FileLayout, AFailedReadKeepsItsErrno) {
  test::TempDir dir("anchorfs-layout");
  OpenFile directory(dir.path());
  std::string whole(13, '\0');
  errno = 0;
  EXPECT_FALSE(FileLayout(test::to_plan({{5, "TAG"}}), 10).read(directory.fd, 0, whole));
  EXPECT_EQ(errno, EISDIR);
  errno = 0;
  EXPECT_FALSE(FileLayout(render::TagPlan{}, 10).read(-1, 0, whole));
  EXPECT_EQ(errno, EBADF);
}

TEST(FileLayout, EqualityComparesInsertions) {
  const FileLayout a(test::to_plan({{1, "x"}}), 5);
  EXPECT_EQ(a, FileLayout(test::to_plan({{1, "x"}}), 5));
  EXPECT_NE(a, FileLayout(test::to_plan({{2, "x"}}), 5));
  EXPECT_NE(a, FileLayout(test::to_plan({{1, "y"}}), 5));
  EXPECT_NE(a, FileLayout(test::to_plan({{1, "x"}}), 6));
}

}  // namespace
}  // namespace anchorfs::fs
