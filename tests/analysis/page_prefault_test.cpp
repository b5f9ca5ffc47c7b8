// PagePrefaulter: queued whole pages become resident with their bytes kept; disabled, none do.
#include "analysis/page_prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace anchorfs::analysis {
namespace {

#ifndef MADV_POPULATE_WRITE
constexpr int MADV_POPULATE_WRITE = 23;
#endif

const size_t kPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE));

// Fresh anonymous pages, none resident until written (small enough for no huge page).
class Region {
 public:
  explicit Region(size_t pages) : bytes_(pages * kPage) {
    data_ = static_cast<char*>(
        ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  }
  ~Region() { ::munmap(data_, bytes_); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  char* data() const { return data_; }
  // Per page: resident or not.
  std::vector<bool> resident() const {
    std::vector<unsigned char> in(bytes_ / kPage);
    EXPECT_EQ(::mincore(data_, bytes_, in.data()), 0);
    return {in.begin(), in.end()};
  }

 private:
  size_t bytes_;
  char* data_;
};

bool kernel_populates() {
  const Region probe(1);
  return ::madvise(probe.data(), kPage, MADV_POPULATE_WRITE) == 0;
}

TEST(PagePrefaulter, QueuedPagesBecomeResidentWithTheirBytesKept) {
  if (!kernel_populates()) GTEST_SKIP() << "no MADV_POPULATE_WRITE (Linux < 5.14)";
  const Region region(16);
  std::memset(region.data(), 'x', 100);  // page 0 holds bytes already
  ASSERT_EQ(region.resident(), (std::vector<bool>{true, false, false, false, false, false, false,
                                                  false, false, false, false, false, false, false,
                                                  false, false}));
  PagePrefaulter prefault(true);
  prefault.add(region.data(), 16 * kPage);
  prefault.finish();
  EXPECT_EQ(region.resident(), std::vector<bool>(16, true));
  EXPECT_EQ(std::string(region.data(), 100), std::string(100, 'x'));
  EXPECT_EQ(region.data()[100], 0);
  EXPECT_EQ(region.data()[15 * kPage], 0);
}

TEST(PagePrefaulter, OnlyWholePagesWithinTheRangeAreFaulted) {
  if (!kernel_populates()) GTEST_SKIP() << "no MADV_POPULATE_WRITE (Linux < 5.14)";
  const Region region(4);
  PagePrefaulter prefault(true);
  prefault.add(region.data() + 1, 2 * kPage);  // all of page 1, parts of pages 0 and 2
  prefault.finish();
  EXPECT_EQ(region.resident(), (std::vector<bool>{false, true, false, false}));
}

TEST(PagePrefaulter, DisabledOrFinishedItFaultsNothing) {
  const Region region(4);
  PagePrefaulter disabled(false);
  disabled.add(region.data(), 2 * kPage);
  disabled.finish();
  PagePrefaulter finished(true);
  finished.finish();
  finished.add(region.data() + 2 * kPage, 2 * kPage);
  finished.finish();
  EXPECT_EQ(region.resident(), std::vector<bool>(4, false));
}

}  // namespace
}  // namespace anchorfs::analysis
