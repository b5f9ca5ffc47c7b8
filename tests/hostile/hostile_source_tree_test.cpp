// The source tree itself misbehaving under a live mount: very deep, deleted and made again,
// reaching the mount through a bind mount.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "render/tag_plan.h"
#include "tests/hostile/support/corpus.h"
#include "tests/hostile/support/mount_session.h"
#include "tests/hostile/support/process.h"
#include "tests/hostile/support/tree_walk.h"

namespace anchorfs::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Writes `bytes` to `name` inside the directory `dir_fd`.
void write_at(int dir_fd, const std::string& name, const std::string& bytes) {
  const int fd = ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fd);
}

// Reads `name` inside `dir_fd` whole; nullopt-like "" with `error` set on failure.
std::string read_at(int dir_fd, const std::string& name, int& error) {
  error = 0;
  const int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = errno;
    return "";
  }
  std::string bytes;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) error = errno;
    if (n <= 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return bytes;
}

std::string level_name(int level) {
  char name[16];
  std::snprintf(name, sizeof name, "level%03d_", level);
  return name + std::string(21, 'x');  // 30 bytes a level: 200 levels make a 6 KB path
}

std::string module(int level) {
  return "def f" + std::to_string(level) + "():\n    return " + std::to_string(level) + "\n";
}

TEST(SourceTree, TwoHundredLevelsOfThirtyByteNamesAreAllServed) {
  TempDir tmp("deep");
  const std::string repo = tmp.path() + "/repo";
  const std::string mnt = tmp.path() + "/mnt";
  ASSERT_EQ(::mkdir(repo.c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(mnt.c_str(), 0755), 0);
  constexpr int kLevels = 200;
  int dir = ::open(repo.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  for (int level = 1; level <= kLevels; ++level) {
    ASSERT_EQ(::mkdirat(dir, level_name(level).c_str(), 0755), 0);
    const int next = ::openat(dir, level_name(level).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    ::close(dir);
    dir = next;
    ASSERT_GE(dir, 0);
    if (level % 50 == 0 || level == 136) write_at(dir, "m.py", module(level));
  }
  ::close(dir);

  MountSession session(repo, mnt);
  Watchdog watchdog(120s, [&] { session.abort(); });
  EXPECT_EQ(session.log().find("too long"), std::string::npos) << session.log();
  dir = ::open(mnt.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  int served_levels = 0;
  for (int level = 1; level <= kLevels; ++level) {
    const int next = ::openat(dir, level_name(level).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (next < 0) break;
    ::close(dir);
    dir = next;
    ++served_levels;
    if (level % 50 == 0 || level == 136) {
      int error = 0;
      const std::string served = read_at(dir, "m.py", error);
      EXPECT_EQ(error, 0) << "level " << level << ": " << std::strerror(error);
      EXPECT_EQ(render::strip(served), module(level)) << "level " << level;
    }
  }
  ::close(dir);
  EXPECT_EQ(served_levels, kLevels);

  // Live refresh reaches the bottom too.
  dir = ::open(repo.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  for (int level = 1; level <= kLevels; ++level) {
    const int next = ::openat(dir, level_name(level).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    ::close(dir);
    dir = next;
  }
  write_at(dir, "added.py", module(999));
  ::close(dir);
  EXPECT_TRUE(wait_until(60s, [&] {
    int at = ::open(mnt.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    for (int level = 1; level <= kLevels && at >= 0; ++level) {
      const int next = ::openat(at, level_name(level).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
      ::close(at);
      at = next;
    }
    if (at < 0) return false;
    int error = 0;
    const std::string served = read_at(at, "added.py", error);
    ::close(at);
    return error == 0 && render::strip(served) == module(999);
  })) << session.log();
  EXPECT_TRUE(session.unmount().status.ok());
}

size_t count(const std::string& text, const std::string& needle) {
  size_t found = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++found;
  }
  return found;
}

TEST(SourceTree, ARepositoryDeletedAndMadeAgainIsServedAndFollowed) {
  TempDir tmp("recreated");
  const std::string repo = tmp.path() + "/repo";
  const std::string mnt = tmp.path() + "/mnt";
  ASSERT_EQ(::mkdir(repo.c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(mnt.c_str(), 0755), 0);
  write_bytes(repo + "/old.py", module(1));
  MountSession session(repo, mnt);
  Watchdog watchdog(120s, [&] { session.abort(); });
  ASSERT_EQ(render::strip(read_file(mnt + "/old.py").bytes), module(1));

  std::filesystem::remove_all(repo);
  ASSERT_TRUE(wait_until(30s, [&] {
    return session.log().find("deleted or moved away") != std::string::npos;
  })) << session.log();
  ASSERT_EQ(::mkdir(repo.c_str(), 0755), 0);
  write_bytes(repo + "/new.py", module(2));
  ASSERT_TRUE(wait_until(60s,
                         [&] {
                           const ReadResult served = read_file(mnt + "/new.py");
                           return served.error == 0 && render::strip(served.bytes) == module(2);
                         }))
      << "the new directory is not served\n"
      << session.log();

  write_bytes(repo + "/new.py", module(3));
  EXPECT_TRUE(wait_until(60s,
                         [&] {
                           const ReadResult served = read_file(mnt + "/new.py");
                           return served.error == 0 && render::strip(served.bytes) == module(3);
                         }))
      << "later edits are not followed\n"
      << session.log();
  const std::string log = session.log();
  EXPECT_EQ(count(log, "deleted or moved away"), 1u) << log;
  EXPECT_LE(count(log, "refresh failed"), 1u) << "one line per failure kind, not per second\n"
                                              << log;
  EXPECT_TRUE(session.unmount().status.ok());
}

// mount --bind r r; mount --make-shared r; mount --bind r rb; anchorfs mount rb r/emptydir: the
// mount propagates into rb/emptydir, inside the repository it serves.
// REPO reaches the mount (bind mount with shared propagation): the mount must serve, follow an
// edit and never scan into itself. `extra` runs once it serves; the script's exit code says
// which step failed.
void expect_served_through_a_bind_loop(const std::vector<std::string>& mount_options,
                                       const std::string& extra) {
  TempDir tmp("bind");
  const std::string dir = tmp.path();
  std::filesystem::create_directories(dir + "/r/pkg");
  std::filesystem::create_directories(dir + "/r/emptydir");
  std::filesystem::create_directories(dir + "/rb");
  write_bytes(dir + "/r/pkg/a.py", module(1));
  std::string options;
  for (const std::string& option : mount_options) options += " " + option;
  const std::string script = R"sh(
set -u
cd "$1"; anchorfs="$2"
mount --bind r r && mount --make-shared r && mount --bind r rb || exit 10
"$anchorfs" mount -f)sh" + options +
                             R"sh( rb r/emptydir > daemon.log 2>&1 &
echo $! > daemon.pid
trap 'kill -9 $(cat daemon.pid) 2>/dev/null; umount -l r/emptydir 2>/dev/null' EXIT
ready() { for i in $(seq 3000); do [ -e "$1" ] && return 0; sleep 0.02; done; return 1; }
ready r/emptydir/pkg/a.py || exit 11
[ -z "$(ls -A r/emptydir/emptydir)" ] || exit 12
)sh" + extra + R"sh(
echo 'def g(): return 2' > r/pkg/b.py
ready r/emptydir/pkg/b.py || exit 13
[ -z "$(ls -A rb/emptydir/emptydir)" ] || exit 14
"$anchorfs" unmount r/emptydir || exit 15
wait "$(cat daemon.pid)" || exit 16
)sh";
  const RunResult result =
      run({"timeout", "-s", "KILL", std::to_string(120 * timeout_scale()), "unshare", "-m",
           "--propagation", "private", "bash", "-c", script, "bind-test", dir, anchorfs_binary()},
          std::chrono::seconds(150 * timeout_scale()));
  const std::string pid_text = read_text_file(dir + "/daemon.pid");
  if (!result.status.ok() && !pid_text.empty()) ::kill(std::stoi(pid_text), SIGKILL);
  EXPECT_TRUE(result.status.ok()) << result.status.describe() << "\n"
                                  << read_text_file(dir + "/daemon.log") << result.err;
}

TEST(SourceTree, AMountReachableFromItsRepositoryThroughABindMountServesAndFollows) {
  expect_served_through_a_bind_loop({}, "");
}

// A writable mount rescans inside the request that changed the checkout: that scan must not
// enter the mount either (it used to hang the writer and the daemon).
TEST(SourceTree, AWritableMountReachableFromItsRepositoryLandsWritesWithoutScanningItself) {
  expect_served_through_a_bind_loop({"--writable"}, R"sh(
printf 'def h():\n    return 3\n' > r/emptydir/pkg/c.py || exit 20
[ "$(cat r/pkg/c.py)" = "$(printf 'def h():\n    return 3')" ] || exit 21
[ -z "$(ls -A r/emptydir/emptydir)" ] || exit 22
)sh");
}

}  // namespace
}  // namespace anchorfs::testing
