// Fault tests against the real daemon: SIGKILL/SIGTERM/SIGINT, stale and busy mounts, sources
// that change or disappear under a live mount.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "render/tag_plan.h"
#include "tests/hostile/support/corpus.h"
#include "tests/hostile/support/mount_session.h"
#include "tests/hostile/support/process.h"
#include "tests/hostile/support/tree_walk.h"

namespace anchorfs::testing {
namespace {

using namespace std::chrono_literals;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

int stat_errno(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? 0 : errno;
}

class Faults : public ::testing::Test {
 protected:
  void SetUp() override {
    category_ = generate_category("syntax_errors", tmp_.path());
    mnt_ = tmp_.path() + "/mnt";
    ASSERT_EQ(::mkdir(mnt_.c_str(), 0755), 0);
    control_ = read_file(category_.repo + "/control.py").bytes;
    ASSERT_FALSE(control_.empty());
  }
  void TearDown() override {
    run({anchorfs_binary(), "unmount", mnt_}, 20s);
    force_unmount(mnt_);
  }

  // The served control file must be its tagged view: strip gives back the source.
  void expect_control_served(const std::string& mountpoint) {
    const ReadResult served = read_file(mountpoint + "/control.py");
    ASSERT_EQ(served.error, 0) << std::strerror(served.error);
    EXPECT_EQ(render::strip(served.bytes), control_);
  }

  TempDir tmp_{"faults"};
  Category category_;
  std::string mnt_;
  std::string control_;
};

TEST_F(Faults, SigkillLeavesStaleMountThatUnmountClears) {
  MountSession session(category_.repo, mnt_);
  Watchdog watchdog(60s, [&] { session.abort(); });
  expect_control_served(mnt_);
  const ExitStatus killed = session.kill_daemon();
  EXPECT_EQ(killed.signal, SIGKILL);
  EXPECT_TRUE(is_fuse_mounted(mnt_)) << "a killed daemon leaves its mount behind";
  EXPECT_EQ(stat_errno(mnt_ + "/not-looked-up-before"), ENOTCONN);
  const RunResult unmounted = run({anchorfs_binary(), "unmount", mnt_}, 30s);
  EXPECT_TRUE(unmounted.status.ok()) << unmounted.status.describe() << ": " << unmounted.err;
  EXPECT_FALSE(is_fuse_mounted(mnt_));
  EXPECT_EQ(stat_errno(mnt_), 0) << "the mountpoint is usable again";
}

TEST_F(Faults, MountOntoStaleMountpointExplainsOrRecovers) {
  MountSession session(category_.repo, mnt_);
  Watchdog watchdog(60s, [&] { session.abort(); });
  // The mount root's attributes are now in the kernel's cache: stat() of it keeps succeeding
  // after the daemon is gone, which must not pass for a live mount.
  ASSERT_EQ(stat_errno(mnt_), 0);
  session.kill_daemon();
  ASSERT_EQ(stat_errno(mnt_), 0);
  ASSERT_EQ(stat_errno(mnt_ + "/not-looked-up-before"), ENOTCONN);
  const RunResult again = run({anchorfs_binary(), "mount", category_.repo, mnt_}, 60s);
  ASSERT_FALSE(again.timed_out) << "mount onto a stale mountpoint hung";
  if (again.status.ok()) {
    EXPECT_TRUE(is_fuse_mounted(mnt_));
    expect_control_served(mnt_);
  } else {
    EXPECT_NE(lower(again.err).find("anchorfs unmount"), std::string::npos)
        << "the error should say how to fix the stale mount: " << again.err;
    EXPECT_NE(lower(again.err).find("not connected"), std::string::npos)
        << "the error should say what is wrong: " << again.err;
  }
}

void expect_signal_unmounts(const Category& category, const std::string& mnt, int sig) {
  MountSession session(category.repo, mnt);
  Watchdog watchdog(60s, [&] { session.abort(); });
  session.signal(sig);
  const auto status = session.wait_daemon(20s);
  ASSERT_TRUE(status.has_value()) << "daemon ignored " << ::strsignal(sig);
  EXPECT_TRUE(status->ok()) << status->describe() << "\n" << session.log();
  EXPECT_FALSE(is_fuse_mounted(mnt)) << "the mount outlived the daemon";
  EXPECT_EQ(stat_errno(mnt), 0);
}

TEST_F(Faults, SigtermUnmountsCleanly) {
  expect_signal_unmounts(category_, mnt_, SIGTERM);
}

TEST_F(Faults, SigintUnmountsCleanly) {
  expect_signal_unmounts(category_, mnt_, SIGINT);
}

TEST_F(Faults, UnmountWhileReadingIsBusyAndLazyDetaches) {
  MountSession session(category_.repo, mnt_);
  Watchdog watchdog(60s, [&] { session.abort(); });
  const int fd = ::open((mnt_ + "/control.py").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  const RunResult busy = session.unmount();
  EXPECT_FALSE(busy.status.ok()) << "unmount succeeded while a file was open";
  EXPECT_NE(lower(busy.err).find("busy"), std::string::npos) << busy.err;
  EXPECT_TRUE(is_fuse_mounted(mnt_));
  expect_control_served(mnt_);

  const RunResult lazy = session.unmount({"--lazy"});
  EXPECT_TRUE(lazy.status.ok()) << lazy.err;
  EXPECT_FALSE(is_fuse_mounted(mnt_)) << "--lazy detaches at once";
  char head[64];
  EXPECT_GT(::pread(fd, head, sizeof head, 0), 0) << "an open file keeps working after --lazy";
  ::close(fd);
  const auto status = session.wait_daemon(20s);
  ASSERT_TRUE(status.has_value()) << "daemon still running after the last file was closed";
  EXPECT_TRUE(status->ok()) << status->describe();
}

TEST_F(Faults, UnmountOfANestedMountReturnsOnceItsDaemonLetGo) {
  // The outer mount serves the inner mount's view: its daemon holds descriptors inside it.
  const std::string outer = tmp_.path() + "/outer";
  ASSERT_EQ(::mkdir(outer.c_str(), 0755), 0);
  MountSession inner_session(category_.repo, mnt_);
  MountSession outer_session(mnt_, outer);
  Watchdog watchdog(120s, [&] {
    outer_session.abort();
    inner_session.abort();
  });
  expect_control_served(outer);
  const RunResult outer_gone = run({anchorfs_binary(), "unmount", outer}, 60s);
  ASSERT_TRUE(outer_gone.status.ok()) << outer_gone.err;
  const RunResult inner_gone = run({anchorfs_binary(), "unmount", mnt_}, 60s);
  EXPECT_TRUE(inner_gone.status.ok()) << "right after the outer one: " << inner_gone.err;
  EXPECT_FALSE(is_fuse_mounted(mnt_));
}

TEST_F(Faults, BackgroundMountReturnsOnceServing) {
  const RunResult mounted = run({anchorfs_binary(), "mount", category_.repo, mnt_}, 120s);
  ASSERT_TRUE(mounted.status.ok()) << mounted.status.describe() << ": " << mounted.err;
  ASSERT_TRUE(is_fuse_mounted(mnt_)) << "mount returned before the filesystem was up";
  Watchdog watchdog(60s, [&] { force_unmount(mnt_); });
  expect_control_served(mnt_);
  const RunResult unmounted = run({anchorfs_binary(), "unmount", mnt_}, 30s);
  EXPECT_TRUE(unmounted.status.ok()) << unmounted.err;
  EXPECT_FALSE(is_fuse_mounted(mnt_));
}

TEST_F(Faults, SourceRemovedWhileMountedGivesErrorsNotCrashes) {
  const Walk source = walk_tree(category_.repo);
  std::map<std::string, std::string> originals;
  for (const auto& [rel, node] : source.nodes) {
    if (S_ISREG(node.mode)) originals[rel] = read_file(category_.repo + "/" + rel).bytes;
  }
  MountSession session(category_.repo, mnt_);
  Watchdog watchdog(120s, [&] { session.abort(); });
  expect_control_served(mnt_);
  std::filesystem::remove_all(category_.repo);

  size_t errors = 0;
  for (const auto& [rel, original] : originals) {
    const ReadResult served = read_file(mnt_ + "/" + rel);
    if (served.error != 0) {
      ++errors;
      EXPECT_TRUE(served.error == EIO || served.error == ENOENT || served.error == ESTALE)
          << rel << ": " << std::strerror(served.error);
    } else {
      EXPECT_EQ(render::strip(served.bytes), original)
          << rel << ": served bytes that are neither the old view nor an error";
    }
  }
  EXPECT_GT(errors, 0u) << "files never read before the removal cannot be served";
  EXPECT_EQ(stat_errno(mnt_), 0) << "the mount root stays usable";
  EXPECT_TRUE(session.daemon_running()) << session.log();
  const RunResult unmounted = session.unmount();
  EXPECT_TRUE(unmounted.status.ok()) << unmounted.err;
  const auto status = session.wait_daemon(20s);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->ok()) << status->describe() << "\n" << session.log();
}

TEST(Mutations, FilesChangedBetweenAnalysisAndReadNeverServeMixedBytes) {
  TempDir tmp("mutations");
  const Category category = generate_category("mutations", tmp.path());
  const std::string mnt = tmp.path() + "/mnt";
  ASSERT_EQ(::mkdir(mnt.c_str(), 0755), 0);
  const std::string original = read_file(category.repo + "/control.py").bytes;
  MountSession session(category.repo, mnt);
  Watchdog watchdog(120s, [&] { session.abort(); });
  const std::string& repo = category.repo;

  std::map<std::string, std::string> now;  // what each path holds after the change
  ASSERT_EQ(::unlink((repo + "/deleted.py").c_str()), 0);
  write_bytes(repo + "/replacement.tmp", "def replacement():\n    return 2\n");
  ASSERT_EQ(::rename((repo + "/replacement.tmp").c_str(), (repo + "/replaced.py").c_str()), 0);
  now["replaced.py"] = "def replacement():\n    return 2\n";
  ASSERT_EQ(::truncate((repo + "/truncated.py").c_str(), 10), 0);
  now["truncated.py"] = original.substr(0, 10);
  {
    std::ofstream grown(repo + "/grown.py", std::ios::binary | std::ios::app);
    grown << "\n\ndef extra():\n    return helper(2)\n";
  }
  now["grown.py"] = original + "\n\ndef extra():\n    return helper(2)\n";
  std::string same_size = original;
  std::replace(same_size.begin(), same_size.end(), 'e', 'E');
  {
    std::fstream in_place(repo + "/same_size.py", std::ios::binary | std::ios::in | std::ios::out);
    in_place << same_size;
  }
  now["same_size.py"] = same_size;
  std::filesystem::remove_all(repo + "/dir_replaced");
  write_bytes(repo + "/dir_replaced", "not a directory any more\n");
  ASSERT_EQ(::unlink((repo + "/to_fifo.py").c_str()), 0);
  ASSERT_EQ(::mkfifo((repo + "/to_fifo.py").c_str(), 0644), 0);
  now["to_fifo.py"] = "";  // once the mount lists the FIFO: an empty pipe of its own

  for (const char* rel : {"deleted.py", "replaced.py", "truncated.py", "grown.py", "same_size.py",
                          "dir_replaced/inner.py", "to_fifo.py"}) {
    const ReadResult served = read_file(mnt + "/" + rel);
    if (served.error != 0) {
      EXPECT_TRUE(served.error == EIO || served.error == ENOENT || served.error == ESTALE ||
                  served.error == ENOTDIR)
          << rel << ": unexpected error " << std::strerror(served.error);
      continue;
    }
    // One version whole: the analysed view (kept in a cache), or the new version, tagged when the
    // live refresh has already analysed it (a refused read asks for a rescan at once): never old
    // tags spliced into new bytes.
    const bool old_view = render::strip(served.bytes) == original;
    const bool current_bytes = now.count(rel) && render::strip(served.bytes) == now[rel];
    EXPECT_TRUE(old_view || current_bytes)
        << rel << ": served bytes are neither the analysed view nor the current file:\n"
        << printable(served.bytes.substr(0, 600));
  }
  const ReadResult control = read_file(mnt + "/control.py");
  EXPECT_EQ(render::strip(control.bytes), original) << "unchanged files keep being served";
  EXPECT_TRUE(session.daemon_running()) << session.log();
  EXPECT_FALSE(watchdog.expired());
}

}  // namespace
}  // namespace anchorfs::testing
