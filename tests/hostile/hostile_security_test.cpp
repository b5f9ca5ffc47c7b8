// Security tests: every mutating operation is EROFS, the source is bit-identical after a full
// session, no allow_other by default, private cache files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tests/hostile/support/corpus.h"
#include "tests/hostile/support/mount_session.h"
#include "tests/hostile/support/process.h"
#include "tests/hostile/support/tree_walk.h"

namespace anchorfs::testing {
namespace {

using namespace std::chrono_literals;

constexpr uid_t kNobody = 65534;

// A copy of the sample project (a real package with tests) in a private directory.
class Security : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = tmp_.path() + "/repo";
    mnt_ = tmp_.path() + "/mnt";
    std::filesystem::copy(
        ANCHORFS_SAMPLE_PROJECT, repo_,
        std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
    ASSERT_EQ(::mkdir(mnt_.c_str(), 0755), 0);
  }
  void TearDown() override { force_unmount(mnt_); }

  TempDir tmp_{"security"};
  std::string repo_;
  std::string mnt_;
};

struct Mutation {
  const char* name;
  std::function<int(const std::string& mnt)> attempt;  // returns errno (0: it succeeded)
  int expected = EROFS;
};

int errno_of(int rc) {
  return rc == 0 ? 0 : errno;
}

int open_errno(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  ::close(fd);
  return 0;
}

std::vector<Mutation> mutations() {
  const std::string file = "/bookshelf/__init__.py";
  const std::string dir = "/bookshelf";
  return {
      {"create",
       [](const std::string& m) { return open_errno(m + "/new.py", O_CREAT | O_WRONLY); }},
      {"create excl",
       [](const std::string& m) { return open_errno(m + "/new.py", O_CREAT | O_EXCL | O_RDWR); }},
      {"open for write", [=](const std::string& m) { return open_errno(m + file, O_WRONLY); }},
      {"open read-write", [=](const std::string& m) { return open_errno(m + file, O_RDWR); }},
      {"open append",
       [=](const std::string& m) { return open_errno(m + file, O_WRONLY | O_APPEND); }},
      {"open truncate",
       [=](const std::string& m) { return open_errno(m + file, O_WRONLY | O_TRUNC); }},
      {"mkdir", [](const std::string& m) { return errno_of(::mkdir((m + "/d").c_str(), 0755)); }},
      {"unlink", [=](const std::string& m) { return errno_of(::unlink((m + file).c_str())); }},
      {"rmdir", [=](const std::string& m) { return errno_of(::rmdir((m + dir).c_str())); }},
      {"rename",
       [=](const std::string& m) {
         return errno_of(::rename((m + file).c_str(), (m + "/moved.py").c_str()));
       }},
      {"rename over",
       [=](const std::string& m) {
         return errno_of(::rename((m + file).c_str(), (m + "/README.md").c_str()));
       }},
      {"link",
       [=](const std::string& m) {
         return errno_of(::link((m + file).c_str(), (m + "/hard.py").c_str()));
       }},
      {"symlink",
       [](const std::string& m) {
         return errno_of(::symlink("README.md", (m + "/soft").c_str()));
       }},
      {"mknod fifo",
       [](const std::string& m) { return errno_of(::mkfifo((m + "/fifo").c_str(), 0644)); }},
      {"mknod regular",
       [](const std::string& m) {
         return errno_of(::mknod((m + "/node").c_str(), S_IFREG | 0644, 0));
       }},
      {"truncate",
       [=](const std::string& m) { return errno_of(::truncate((m + file).c_str(), 0)); }},
      {"chmod", [=](const std::string& m) { return errno_of(::chmod((m + file).c_str(), 0777)); }},
      {"chown", [=](const std::string& m) { return errno_of(::chown((m + file).c_str(), 1, 1)); }},
      {"utimens now",
       [=](const std::string& m) {
         return errno_of(::utimensat(AT_FDCWD, (m + file).c_str(), nullptr, 0));
       }},
      {"utimens set",
       [=](const std::string& m) {
         const timespec times[2] = {{1, 0}, {2, 0}};
         return errno_of(::utimensat(AT_FDCWD, (m + file).c_str(), times, 0));
       }},
      {"setxattr",
       [=](const std::string& m) {
         return errno_of(::setxattr((m + file).c_str(), "user.anchorfs", "x", 1, 0));
       }},
      {"removexattr",
       [=](const std::string& m) {
         return errno_of(::removexattr((m + file).c_str(), "user.anchorfs"));
       }},
      // No writable descriptor can be had (the opens above); a read-only one refuses writes.
      {"write",
       [=](const std::string& m) {
         const int fd = ::open((m + file).c_str(), O_RDONLY | O_CLOEXEC);
         if (fd < 0) return errno;
         const int error = ::write(fd, "x", 1) < 0 ? errno : 0;
         ::close(fd);
         return error;
       },
       EBADF},
  };
}

TEST_F(Security, EveryMutatingOperationFailsWithErofs) {
  const std::string before = tree_fingerprint(repo_);
  MountSession session(repo_, mnt_);
  Watchdog watchdog(60s, [&] { session.abort(); });
  for (const Mutation& mutation : mutations()) {
    const int error = mutation.attempt(mnt_);
    EXPECT_EQ(error, mutation.expected)
        << mutation.name << ": " << (error ? std::strerror(error) : "succeeded");
  }
  EXPECT_TRUE(session.daemon_running());
  EXPECT_TRUE(session.unmount().status.ok());
  EXPECT_EQ(before, tree_fingerprint(repo_)) << "the source tree changed";
}

TEST_F(Security, SourceIsBitIdenticalAfterAFullSession) {
  const std::string before = tree_fingerprint(repo_);
  {
    MountSession session(repo_, mnt_);
    Watchdog watchdog(120s, [&] { session.abort(); });
    const Walk mounted = walk_tree(mnt_);
    for (const auto& [rel, node] : mounted.nodes) {
      if (S_ISREG(node.mode)) {
        EXPECT_EQ(read_file(mnt_ + "/" + rel).error, 0) << rel;
      }
    }
    EXPECT_TRUE(run({"rg", "-n", "def ", mnt_}, 60s).status.ok());
    EXPECT_TRUE(run({"grep", "-rn", "class", mnt_}, 60s).status.ok());
    // Importing from the mount makes Python try to write __pycache__: it must fail quietly
    // and the tagged code must still import and run.
    const RunResult imported =
        run({"python3", "-c",
             "import sys; sys.path.insert(0, '" + mnt_ + "'); import bookshelf; print('ok')"},
            60s);
    EXPECT_TRUE(imported.status.ok()) << imported.err;
    EXPECT_TRUE(session.unmount().status.ok());
  }
  EXPECT_EQ(before, tree_fingerprint(repo_)) << "the source tree changed";
}

TEST_F(Security, NoAllowOtherByDefault) {
  ASSERT_EQ(::chmod(tmp_.path().c_str(), 0755), 0);  // so only the mount itself can refuse
  MountSession session(repo_, mnt_);
  Watchdog watchdog(60s, [&] { session.abort(); });
  EXPECT_EQ(mount_super_options(mnt_).find("allow_other"), std::string::npos)
      << mount_super_options(mnt_);
  SpawnOptions as_nobody;
  as_nobody.run_as_uid = kNobody;
  const RunResult other = run({"stat", mnt_ + "/README.md"}, 30s, as_nobody);
  EXPECT_FALSE(other.status.ok()) << "another user could see into the mount";
  EXPECT_NE(other.err.find("Permission denied"), std::string::npos) << other.err;
  EXPECT_TRUE(session.unmount().status.ok());
}

TEST_F(Security, DevAndSuidOptionsAreRefusedNotDropped) {
  for (const char* option : {"dev", "suid", "dev,suid,exec"}) {
    const RunResult refused =
        run({anchorfs_binary(), "mount", "-o", option, repo_, mnt_}, 60s);
    if (refused.status.ok()) run({anchorfs_binary(), "unmount", mnt_}, 30s);
    EXPECT_FALSE(refused.status.ok()) << "-o " << option << " was accepted";
    EXPECT_NE(refused.err.find("nodev,nosuid"), std::string::npos) << refused.err;
    EXPECT_FALSE(is_fuse_mounted(mnt_));
  }
}

TEST_F(Security, CacheFilesArePrivateAndOutsideTheRepository) {
  const std::string cache_home = tmp_.path() + "/cache";
  MountOptions options;
  options.cache_home = cache_home;
  {
    MountSession session(repo_, mnt_, options);
    EXPECT_TRUE(session.unmount().status.ok());
  }
  ASSERT_TRUE(std::filesystem::is_directory(cache_home + "/anchorfs"))
      << "no cache written under XDG_CACHE_HOME";
  size_t files = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(cache_home + "/anchorfs")) {
    struct stat st {};
    ASSERT_EQ(::lstat(entry.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 077, 0u) << entry.path() << " is accessible to group or others";
    files += S_ISREG(st.st_mode) ? 1 : 0;
  }
  EXPECT_GT(files, 0u);
  struct stat top {};
  ASSERT_EQ(::stat((cache_home + "/anchorfs").c_str(), &top), 0);
  EXPECT_EQ(top.st_mode & 0777, 0700u);
  const Walk source = walk_tree(repo_);
  for (const auto& [rel, node] : source.nodes) {
    EXPECT_EQ(rel.find("anchorfs"), std::string::npos) << rel << ": written into the repository";
  }
}

}  // namespace
}  // namespace anchorfs::testing
