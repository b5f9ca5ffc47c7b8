// Every documented CLI error: its one-line message and its exit code; help and version.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "support.h"

namespace anchorfs::itest {
namespace {

class CliErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    copy_tree(kSampleProject, repo_);
    make_dirs(mnt_);
  }
  // Exit code and the whole of stderr (one line).
  static void expect_error(const ProcessResult& result, int code, const std::string& message) {
    EXPECT_EQ(result.exit_code, code) << result.err;
    EXPECT_EQ(result.err, message + "\n");
    EXPECT_EQ(result.out, "");
  }

  TempDir dir_{"anchorfs-cli"};
  std::string repo_ = dir_ / "repo";
  std::string mnt_ = dir_ / "mnt";
};

TEST_F(CliErrors, UsageErrorsExitTwo) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},
           {"frobnicate"},
           {"mount"},
           {"mount", repo_},
           {"mount", repo_, mnt_, "--view", "fancy"},
           {"mount", repo_, mnt_, "--no-such-flag"},
           {"render", repo_},
           {"unmount"},
           {"graph", repo_, "--format", "xml"},
           {"cache"},
           {"cache", "purge"},
           {"render", repo_, "x.py", "--max-links", "0"},
       }) {
    const ProcessResult result = anchorfs(args);
    EXPECT_EQ(result.exit_code, 2) << testing::PrintToString(args) << result.err;
    EXPECT_EQ(result.err.rfind("anchorfs: ", 0), 0u) << result.err;
    EXPECT_FALSE(is_mounted(mnt_));
  }
}

TEST_F(CliErrors, HelpAndVersion) {
  const ProcessResult version = anchorfs({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("anchorfs 0.", 0), 0u) << version.out;
  for (const char* command : {"mount", "unmount", "render", "strip", "stats", "graph"}) {
    const ProcessResult help = anchorfs({command, "--help"});
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_NE(help.out.find(command), std::string::npos) << help.out;
  }
  const ProcessResult help = anchorfs({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("unmount"), std::string::npos);
}

// The defaults --help prints are the ones docs/cli.md documents.
TEST_F(CliErrors, HelpAndDocsAgreeOnDefaults) {
  const std::string docs = read_file(std::string(ANCHORFS_SOURCE_DIR) + "/docs/cli.md");
  const std::string row = "| `--max-links N` | ";
  const size_t at = docs.find(row);
  ASSERT_NE(at, std::string::npos);
  const std::string documented =
      docs.substr(at + row.size(), docs.find(' ', at + row.size()) - (at + row.size()));
  for (const char* command : {"mount", "render", "stats"}) {
    const std::string help = anchorfs({command, "--help"}).out;
    const size_t option = help.find("--max-links");
    ASSERT_NE(option, std::string::npos) << command;
    const std::string line = help.substr(option, help.find('\n', option) - option);
    EXPECT_NE(line.find("=" + documented + " "), std::string::npos)
        << command << " --help: " << line << "; docs/cli.md: " << documented;
  }
}

TEST_F(CliErrors, MountRefusesBadRepositories) {
  expect_error(anchorfs({"mount", dir_ / "nope", mnt_}), 1,
               "anchorfs: " + (dir_ / "nope") + ": no such file or directory");
  write_file(dir_ / "file", "x");
  expect_error(anchorfs({"mount", dir_ / "file", mnt_}), 1,
               "anchorfs: " + (dir_ / "file") + ": not a directory");
}

TEST_F(CliErrors, MountRefusesBadMountpoints) {
  expect_error(anchorfs({"mount", repo_, dir_ / "nope"}), 1,
               "anchorfs: " + (dir_ / "nope") + ": no such directory (create it first)");
  write_file(dir_ / "file", "x");
  expect_error(anchorfs({"mount", repo_, dir_ / "file"}), 1,
               "anchorfs: " + (dir_ / "file") + ": not a directory");
  write_file(mnt_ + "/occupied", "x");
  expect_error(anchorfs({"mount", repo_, mnt_}), 1,
               "anchorfs: " + mnt_ + ": not empty (anchorfs mounts only on an empty directory)");
}

TEST_F(CliErrors, MountRefusesNestedPaths) {
  expect_error(
      anchorfs({"mount", repo_, repo_ + "/"}), 1,
      "anchorfs: " + repo_ + "/: is the repository itself (mount the view somewhere else)");
  make_dirs(repo_ + "/inner");
  expect_error(anchorfs({"mount", repo_, repo_ + "/inner"}), 1,
               "anchorfs: " + repo_ + "/inner: inside the repository " + repo_ +
                   " (the mount would show up in its own tree)");
  make_dirs(dir_ / "outer");
  copy_tree(kSampleProject, dir_ / "outer/repo");
  expect_error(anchorfs({"mount", dir_ / "outer/repo", dir_ / "outer"}), 1,
               "anchorfs: " + (dir_ / "outer/repo") + ": inside the mountpoint " +
                   (dir_ / "outer") + " (mounting would hide the repository)");
}

TEST_F(CliErrors, MountRefusesAnExistingMount) {
  ASSERT_EQ(mount("tmpfs", mnt_.c_str(), "tmpfs", 0, nullptr), 0) << strerror(errno);
  expect_error(anchorfs({"mount", repo_, mnt_}), 1,
               "anchorfs: " + mnt_ + ": already a mount point (tmpfs); unmount it first");
  expect_error(anchorfs({"unmount", mnt_}), 1,
               "anchorfs: " + mnt_ + ": not an anchorfs mount (it is tmpfs)");
  EXPECT_TRUE(is_mounted(mnt_));
  umount(mnt_.c_str());
}

TEST_F(CliErrors, UnmountRefusesWhatIsNotAMount) {
  expect_error(anchorfs({"unmount", mnt_}), 1, "anchorfs: " + mnt_ + ": not a mount point");
  expect_error(anchorfs({"unmount", dir_ / "nope"}), 1,
               "anchorfs: " + (dir_ / "nope") + ": not a mount point");
}

TEST_F(CliErrors, MountExplainsAMissingFuseDevice) {
  // A private mount namespace whose /dev is an empty tmpfs.
  const ProcessResult result =
      run({"unshare", "--mount", "sh", "-c",
           "mount -t tmpfs tmpfs /dev && exec \"$0\" mount \"$1\" \"$2\"", kAnchorfs, repo_, mnt_});
  expect_error(result, 1,
               "anchorfs: /dev/fuse: missing: load the fuse kernel module (modprobe fuse), or in a "
               "container pass the device (--device /dev/fuse)\nanchorfs: `anchorfs doctor " +
                   mnt_ + "` checks everything mounting needs, with fixes");
}

TEST_F(CliErrors, MountExplainsNoPermissionOnTheFuseDevice) {
  struct stat st {};
  ASSERT_EQ(stat("/dev/fuse", &st), 0);
  if ((st.st_mode & 0006) == 0006) GTEST_SKIP() << "/dev/fuse is usable by everyone here";
  chmod(dir_.path().c_str(), 0755);
  chmod(mnt_.c_str(), 0777);
  const ProcessResult result = anchorfs({"mount", repo_, mnt_}, as_user(65534));
  expect_error(result, 1,
               "anchorfs: /dev/fuse: permission denied: run as root or make /dev/fuse usable by "
               "your user\nanchorfs: `anchorfs doctor " +
                   mnt_ + "` checks everything mounting needs, with fixes");
}

TEST_F(CliErrors, RenderAndStripReportBadFiles) {
  expect_error(anchorfs({"render", repo_, "missing.py"}), 1,
               "anchorfs: " + repo_ + "/missing.py: no such file or directory");
  write_file(dir_ / "outside.py", "x = 1\n");
  expect_error(
      anchorfs({"render", repo_, dir_ / "outside.py"}), 1,
      "anchorfs: " + (dir_ / "outside.py") + ": not a file inside the repository " + repo_);
  const ProcessResult strip = anchorfs({"strip", dir_ / "missing", dir_ / "outside.py"});
  EXPECT_EQ(strip.exit_code, 1);
  EXPECT_EQ(strip.err, "anchorfs: strip: " + (dir_ / "missing") + ": no such file or directory\n");
  EXPECT_EQ(strip.out, "x = 1\n") << "the other files are still printed";
}

}  // namespace
}  // namespace anchorfs::itest
