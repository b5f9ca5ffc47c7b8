// run_guarded: a SIGBUS from a mapped file past its end becomes a return value, nothing more.
#include "cache/fault_guard.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace anchorfs::cache {
namespace {

TEST(FaultGuard, ABusErrorInsideIsReportedAndTheProcessGoesOn) {
  char path[] = "/tmp/anchorfs-fault-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  const long page = ::sysconf(_SC_PAGESIZE);
  ASSERT_EQ(::ftruncate(fd, 2 * page), 0);
  auto* map = static_cast<volatile char*>(
      ::mmap(nullptr, static_cast<size_t>(2 * page), PROT_READ, MAP_SHARED, fd, 0));
  ASSERT_NE(map, MAP_FAILED);
  ASSERT_EQ(::ftruncate(fd, page), 0);  // the second page is now past the end of the file

  char seen = 1;
  EXPECT_TRUE(run_guarded([&] { seen = map[0]; }));
  EXPECT_EQ(seen, 0);
  EXPECT_FALSE(run_guarded([&] { seen = map[page]; }));
  EXPECT_FALSE(run_guarded([&] { seen = map[page + 1]; })) << "a second fault is caught too";
  EXPECT_TRUE(run_guarded([] {}));

  ::munmap(const_cast<char*>(map), static_cast<size_t>(2 * page));
  ::close(fd);
  ::unlink(path);
}

TEST(FaultGuard, AnAbortRequestInsideLeavesTheBody) {
  bool after = false;
  EXPECT_FALSE(run_guarded([&] {
    leave_guarded_body();
    after = true;
  }));
  EXPECT_FALSE(after);
  leave_guarded_body();  // outside any body: returns
}

TEST(FaultGuardDeathTest, AFaultOutsideAGuardStillKills) {
  EXPECT_EXIT(
      {
        char path[] = "/tmp/anchorfs-fault-XXXXXX";
        const int fd = ::mkstemp(path);
        ::unlink(path);
        auto* map = static_cast<volatile char*>(::mmap(
            nullptr, static_cast<size_t>(::sysconf(_SC_PAGESIZE)), PROT_READ, MAP_SHARED, fd, 0));
        run_guarded([] {});  // installs the handler
        std::exit(map[0]);
      },
      // Killed by the signal, or (under a sanitizer, whose handler we hand it to) made to exit
      // with an error: in no case does the process carry on.
      [](int status) {
        return (WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS) ||
               (WIFEXITED(status) && WEXITSTATUS(status) != 0);
      },
      "");
}

}  // namespace
}  // namespace anchorfs::cache
