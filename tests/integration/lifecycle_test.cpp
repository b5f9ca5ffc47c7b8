// Mount lifecycle: ready on return, unmount, signals, killed daemons, busy mounts, foreground.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>

#include "support.h"

namespace anchorfs::itest {
namespace {

using namespace std::chrono_literals;

class Lifecycle : public ::testing::Test {
 protected:
  void SetUp() override {
    copy_tree(kSampleProject, repo_);
    make_dirs(mnt_);
    fingerprint_ = tree_fingerprint(repo_);
  }
  void TearDown() override { EXPECT_EQ(tree_fingerprint(repo_), fingerprint_); }

  // The daemon serving mnt_ (its command line names the binary and the mountpoint).
  pid_t daemon_pid() {
    const std::vector<pid_t> pids = find_processes({kAnchorfs, mnt_});
    return pids.size() == 1 ? pids[0] : -1;
  }

  TempDir dir_{"anchorfs-life"};
  std::string repo_ = dir_ / "repo";
  std::string mnt_ = dir_ / "mnt";
  std::string fingerprint_;
};

TEST_F(Lifecycle, MountReturnsOnlyWhenTheMountServes) {
  Mount mount(repo_, mnt_);
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  // No waiting: the first read right after `anchorfs mount` returned must succeed.
  const std::string models = read_file(mnt_ + "/bookshelf/models.py");
  EXPECT_NE(models.find("# === Class Annotation ==="), std::string::npos);
  EXPECT_EQ(mount_fstype(mnt_), "fuse.anchorfs");
}

TEST_F(Lifecycle, UnmountRemovesTheMountAndEndsTheDaemon) {
  Mount mount(repo_, mnt_);
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  const pid_t daemon = daemon_pid();
  ASSERT_GT(daemon, 0);
  // Named through a symlink and with a trailing slash: still the same mount.
  ASSERT_EQ(symlink(mnt_.c_str(), (dir_ / "link").c_str()), 0);
  const ProcessResult unmounted = anchorfs({"unmount", dir_ / "link/"});
  EXPECT_EQ(unmounted.exit_code, 0) << unmounted.err;
  EXPECT_FALSE(is_mounted(mnt_));
  EXPECT_TRUE(wait_until(30s, [&] { return kill(daemon, 0) != 0; })) << "daemon still running";
  EXPECT_TRUE(list_tree(mnt_).empty());
}

class SignalStops : public Lifecycle, public ::testing::WithParamInterface<int> {};

TEST_P(SignalStops, DaemonUnmountsCleanly) {
  Mount mount(repo_, mnt_);
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  const pid_t daemon = daemon_pid();
  ASSERT_GT(daemon, 0);
  ASSERT_EQ(kill(daemon, GetParam()), 0);
  EXPECT_TRUE(wait_until(30s, [&] { return !is_mounted(mnt_); })) << "still mounted";
  EXPECT_TRUE(wait_until(30s, [&] { return kill(daemon, 0) != 0; })) << "daemon still running";
  struct stat st {};
  EXPECT_EQ(stat(mnt_.c_str(), &st), 0) << "no dead mount left: " << strerror(errno);
}

INSTANTIATE_TEST_SUITE_P(TermIntHup, SignalStops, ::testing::Values(SIGTERM, SIGINT, SIGHUP));

TEST_F(Lifecycle, KilledDaemonLeavesADeadMountThatUnmountClears) {
  Mount mount(repo_, mnt_);
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  const pid_t daemon = daemon_pid();
  ASSERT_GT(daemon, 0);
  ASSERT_EQ(kill(daemon, SIGKILL), 0);
  ASSERT_TRUE(wait_until(30s, [&] { return kill(daemon, 0) != 0; }));
  struct stat st {};
  ASSERT_NE(stat(mnt_.c_str(), &st), 0);
  ASSERT_EQ(errno, ENOTCONN);

  const ProcessResult again = anchorfs({"mount", repo_, mnt_});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("anchorfs: " + mnt_ + ": a dead mount"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("anchorfs unmount " + mnt_), std::string::npos) << again.err;

  const ProcessResult cleared = anchorfs({"unmount", mnt_});
  EXPECT_EQ(cleared.exit_code, 0) << cleared.err;
  EXPECT_FALSE(is_mounted(mnt_));
  Mount remount(repo_, mnt_);
  EXPECT_TRUE(remount.ok()) << remount.result().err;
}

TEST_F(Lifecycle, BusyMountRefusesUnmountUnlessLazy) {
  Mount mount(repo_, mnt_);
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  const int fd = open((mnt_ + "/bookshelf/models.py").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  const ProcessResult busy = anchorfs({"unmount", mnt_});
  EXPECT_EQ(busy.exit_code, 1);
  EXPECT_EQ(busy.err,
            "anchorfs: " + mnt_ + ": busy: close programs using it (cd out of it) or use --lazy\n");
  EXPECT_TRUE(is_mounted(mnt_));
  const ProcessResult lazy = anchorfs({"unmount", "--lazy", mnt_});
  EXPECT_EQ(lazy.exit_code, 0) << lazy.err;
  EXPECT_FALSE(is_mounted(mnt_));
  char buffer[16];
  EXPECT_EQ(read(fd, buffer, sizeof buffer), 16) << "an open file keeps working after --lazy";
  close(fd);
}

TEST_F(Lifecycle, ForegroundMountServesUntilInterrupted) {
  ProcessResult result;
  std::thread foreground([&] { result = anchorfs({"mount", "-f", repo_, mnt_}); });
  ASSERT_TRUE(wait_until(30s, [&] { return is_mounted(mnt_); }));
  EXPECT_NE(read_file(mnt_ + "/bookshelf/services.py").find("# === "), std::string::npos);
  pid_t pid = -1;
  ASSERT_TRUE(wait_until(30s, [&] { return (pid = daemon_pid()) > 0; }));
  kill(pid, SIGINT);
  foreground.join();
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("mounted " + repo_), std::string::npos) << result.err;
  EXPECT_FALSE(is_mounted(mnt_));
}

TEST_F(Lifecycle, MountpointWithSpacesMountsAndUnmounts) {
  // /proc/self/mountinfo escapes the space as \040; unmount must still recognise the mount.
  const std::string spaced = dir_ / "mount point";
  make_dirs(spaced);
  Mount mount(repo_, spaced);
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  EXPECT_NE(read_file(spaced + "/bookshelf/models.py").find("# === "), std::string::npos);
  const ProcessResult unmounted = anchorfs({"unmount", spaced});
  EXPECT_EQ(unmounted.exit_code, 0) << unmounted.err;
  EXPECT_TRUE(list_tree(spaced).empty());
}

TEST_F(Lifecycle, VerboseListsFilesServedUntagged) {
  // Nested past the Python front end's limit: served unchanged (syntax errors alone are not).
  write_file(repo_ + "/broken.py", "x = " + std::string(300, '(') + std::string(300, ')') + "\n");
  fingerprint_ = tree_fingerprint(repo_);
  Mount mount(repo_, mnt_, {"--verbose"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  EXPECT_NE(mount.result().err.find("anchorfs: untagged broken.py: "), std::string::npos)
      << mount.result().err;
  EXPECT_EQ(read_file(mnt_ + "/broken.py"), read_file(repo_ + "/broken.py"));
}

TEST_F(Lifecycle, NormalUserMountsAndUnmountsThroughFusermount) {
  // libfuse needs /dev/fuse openable by the user (then fusermount3 does the mount). Here it may
  // be root-only, so the whole session runs in a private mount namespace whose /dev/fuse is a
  // world-usable node of the same device; mounts made there are visible only there.
  chmod(dir_.path().c_str(), 0755);
  ASSERT_EQ(chown(mnt_.c_str(), 65534, 65534), 0);
  const std::string script = R"SH(
set -e
mknod "$3" c 10 229 && chmod 666 "$3" && mount --bind "$3" /dev/fuse
as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
as_nobody "$0" mount "$1" "$2" --no-cache
grep -c " $2 .* - fuse.anchorfs " /proc/self/mountinfo
as_nobody head -n 1 "$2/bookshelf/models.py"
as_nobody "$0" unmount "$2"
echo "left: $(grep -c " $2 " /proc/self/mountinfo || true)"
)SH";
  const ProcessResult result =
      run({"unshare", "--mount", "sh", "-c", script, kAnchorfs, repo_, mnt_, dir_ / "fuse"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "1\n# === File Annotation ===\nleft: 0\n") << result.err;
}

TEST_F(Lifecycle, MountFollowsEditsToTheRepository) {
  const std::string mount_log = dir_ / "mount.log";
  Mount mount(repo_, mnt_, {"--view", "topo", "--log", mount_log});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  // A new caller in another module must show up in the callee's CALLED_BY.
  const std::string errors = repo_ + "/bookshelf/errors.py";
  write_file(errors, read_file(errors) + "\n\ndef missing(key):\n    return NotFound(key)\n");
  fingerprint_ = tree_fingerprint(repo_);
  const std::string served = mnt_ + "/bookshelf/errors.py";
  const bool refreshed = wait_until(20s, [&] {
    return read_file_if_readable(served).find("CALLED_BY: missing") != std::string::npos;
  });
  EXPECT_TRUE(refreshed) << read_file(mnt_ + "/bookshelf/errors.py");
  const ProcessResult rendered =
      anchorfs({"render", repo_, "bookshelf/errors.py", "--view", "topo"});
  EXPECT_EQ(read_file(mnt_ + "/bookshelf/errors.py"), rendered.out);
  EXPECT_TRUE(wait_until(30s, [&] {
    return read_file(mount_log).find("refreshed") != std::string::npos;
  })) << read_file(mount_log);
}

// Whether process `pid` holds an inotify instance (a descriptor on anon_inode:inotify).
bool holds_inotify(pid_t pid) {
  std::error_code error;
  for (const auto& fd :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", error)) {
    std::error_code unreadable;
    if (std::filesystem::read_symlink(fd.path(), unreadable) == "anon_inode:inotify") return true;
  }
  return false;
}

// A --no-watch mount never follows the repository: its daemon watches nothing (no inotify
// instance, while a watching daemon of the same repository holds one), and after that watching
// mount has shown both changes, the frozen one still serves its snapshot's attributes and
// listings (bytes of a changed file are refused, never served as another version:
// docs/filesystem.md).
TEST_F(Lifecycle, NoWatchServesAFrozenSnapshot) {
  Mount frozen(repo_, mnt_, {"--no-watch"});
  ASSERT_TRUE(frozen.ok()) << frozen.result().err;
  const std::string watching_mnt = dir_ / "watching";
  make_dirs(watching_mnt);
  Mount watching(repo_, watching_mnt);
  ASSERT_TRUE(watching.ok()) << watching.result().err;
  const pid_t frozen_pid = daemon_pid();
  const std::vector<pid_t> watching_pids = find_processes({kAnchorfs, watching_mnt});
  ASSERT_GT(frozen_pid, 0);
  ASSERT_EQ(watching_pids.size(), 1u);
  ASSERT_TRUE(wait_until(30s, [&] { return holds_inotify(watching_pids[0]); }))
      << "a watching daemon holds an inotify instance";
  EXPECT_FALSE(holds_inotify(frozen_pid)) << "the --no-watch daemon watches";

  const std::string before = read_file(mnt_ + "/bookshelf/errors.py");
  const std::string errors = repo_ + "/bookshelf/errors.py";
  const std::string original = read_file(errors);
  write_file(errors, original + "\n\ndef missing(key):\n    return NotFound(key)\n");
  write_file(repo_ + "/bookshelf/added.py", "def added():\n    return 1\n");
  ASSERT_TRUE(wait_until(20s, [&] {
    return ::access((watching_mnt + "/bookshelf/added.py").c_str(), F_OK) == 0 &&
           read_file_if_readable(watching_mnt + "/bookshelf/errors.py").find("def missing") !=
               std::string::npos;
  })) << "the watching mount shows both changes";
  struct stat st {};
  ASSERT_EQ(::stat((mnt_ + "/bookshelf/errors.py").c_str(), &st), 0);
  EXPECT_EQ(static_cast<size_t>(st.st_size), before.size());
  EXPECT_NE(::access((mnt_ + "/bookshelf/added.py").c_str(), F_OK), 0);
  EXPECT_FALSE(holds_inotify(frozen_pid));
  write_file(errors, original);  // the snapshot's sizes match again for the teardown check
  std::filesystem::remove(repo_ + "/bookshelf/added.py");
  fingerprint_ = tree_fingerprint(repo_);
}

}  // namespace
}  // namespace anchorfs::itest
