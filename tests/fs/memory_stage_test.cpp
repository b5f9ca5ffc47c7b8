// Stages kept in memory for files just created (fs/checkout_io.h): counted, and moved to an
// O_TMPFILE beside the target with their bytes, times and descriptor number.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/unique_fd.h"
#include "fs/checkout_io.h"
#include "fs/open_files.h"
#include "tests/support/temp_dir.h"

namespace anchorfs::fs {
namespace {


// What descriptor `fd` names, as /proc tells it ("/memfd:NAME (deleted)" for a memfd).
std::string named(int fd) {
  char buffer[4096];
  const ssize_t n = ::readlink(("/proc/self/fd/" + std::to_string(fd)).c_str(), buffer,
                               sizeof(buffer));
  return n < 0 ? std::string() : std::string(buffer, static_cast<size_t>(n));
}

bool in_memory(int fd) { return named(fd).starts_with("/memfd:"); }

class MemoryStage : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::mkdir((dir_ / "pkg").c_str(), 0755), 0);
    root_fd_ = ::open(dir_.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(root_fd_, 0);
  }
  void TearDown() override {
    if (root_fd_ >= 0) ::close(root_fd_);
  }

  test_support::TempDir dir_{"anchorfs-memory-stage"};
  int root_fd_ = -1;
};

TEST_F(MemoryStage, AtMostTheBoundAreInMemoryTheRestBesideTheTarget) {
  std::atomic<uint32_t> stages{kMemoryStagesMax - 1};
  bool memory = false;
  UniqueFd last(create_empty_stage(stages, root_fd_, "pkg/a.py", memory));
  ASSERT_GE(last.get(), 0);
  EXPECT_TRUE(memory);
  EXPECT_TRUE(in_memory(last.get())) << named(last.get());
  EXPECT_EQ(stages.load(), kMemoryStagesMax);

  UniqueFd over(create_empty_stage(stages, root_fd_, "pkg/b.py", memory));
  ASSERT_GE(over.get(), 0);
  EXPECT_FALSE(memory);
  EXPECT_TRUE(named(over.get()).starts_with(dir_ / "pkg/")) << named(over.get());
  EXPECT_EQ(stages.load(), kMemoryStagesMax);  // the refused one is not counted
}

TEST_F(MemoryStage, ASpilledStageKeepsItsDescriptorBytesAndTimes) {
  std::atomic<uint32_t> stages{0};
  bool memory = false;
  const int fd = create_empty_stage(stages, root_fd_, "pkg/big.py", memory);
  ASSERT_GE(fd, 0);
  UniqueFd owned(fd);
  ASSERT_TRUE(memory);
  std::string bytes;
  for (int i = 0; bytes.size() < kMemoryStageBytes + 40'000; ++i) {
    bytes += "line " + std::to_string(i) + "\n";
  }
  ASSERT_EQ(write_at(fd, bytes, 0), 0);
  const timespec times[2] = {{1'000'000'000, 123}, {1'100'000'000, 456'789}};
  ASSERT_EQ(::futimens(fd, times), 0);

  ASSERT_EQ(spill_stage(root_fd_, "pkg/big.py", fd), 0);
  EXPECT_FALSE(in_memory(fd));
  EXPECT_TRUE(named(fd).starts_with(dir_ / "pkg/")) << named(fd);
  struct stat st {};
  ASSERT_EQ(::fstat(fd, &st), 0);
  EXPECT_EQ(static_cast<uint64_t>(st.st_size), bytes.size());
  EXPECT_EQ(st.st_mtim.tv_sec, times[1].tv_sec);
  EXPECT_EQ(st.st_mtim.tv_nsec, times[1].tv_nsec);
  std::vector<char> read(bytes.size());
  ASSERT_EQ(::pread(fd, read.data(), read.size(), 0), static_cast<ssize_t>(read.size()));
  EXPECT_EQ(std::string(read.data(), read.size()), bytes);
}

TEST_F(MemoryStage, AClosedFileNoLongerCountsItsStage) {
  std::atomic<uint32_t> stages{0};
  bool memory = false;
  const int fd = create_empty_stage(stages, root_fd_, "pkg/a.py", memory);
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(memory);
  auto file = std::make_shared<OpenFile>(OpenFile::Kind::Staged, 10, fd, false);
  {
    const sync::MutexLock lock(file->mutex);
    file->memory_stages = &stages;
  }
  EXPECT_EQ(stages.load(), 1u);
  file.reset();
  EXPECT_EQ(stages.load(), 0u);
}

}  // namespace
}  // namespace anchorfs::fs
