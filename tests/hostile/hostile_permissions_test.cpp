// A local user against a writable `-o allow_other` mount: every open, read, truncate and
// attribute change is checked against the file the request reaches, not the one looked up.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/hostile/support/corpus.h"
#include "tests/hostile/support/mount_session.h"
#include "tests/hostile/support/process.h"
#include "tests/hostile/support/tree_walk.h"

namespace anchorfs::testing {
namespace {

using namespace std::chrono_literals;

constexpr uid_t kNobody = 65534;
constexpr const char* kSecret = "TOPSECRET root's private bytes\n";

void write_file(const std::string& path, const std::string& bytes, mode_t mode, uid_t owner = 0) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  ASSERT_EQ(::chmod(path.c_str(), mode), 0);
  ASSERT_EQ(::chown(path.c_str(), owner, owner), 0);
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Python run as nobody: prints what the operation got ("bytes:<data>", "ok" or "errno:<name>").
RunResult as_nobody(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"python3", "-c", program};
  argv.insert(argv.end(), args.begin(), args.end());
  SpawnOptions options;
  options.run_as_uid = kNobody;
  return run(argv, 60s, options);
}

constexpr const char* kPrelude = R"(
import errno, os, sys
def attempt(f):
    try:
        r = f()
        print('bytes:' + r.decode(errors='replace') if isinstance(r, bytes) else 'ok')
    except OSError as e:
        print('errno:' + errno.errorcode[e.errno])
)";

// A writable mount that never rescans on its own (--no-watch), so the snapshot keeps naming the
// file the user looked up while root renames a private file over it in the checkout.
class Permissions : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::chmod(tmp_.path().c_str(), 0755), 0);  // nobody may reach the mount
    repo_ = tmp_.path() + "/repo";
    mnt_ = tmp_.path() + "/mnt";
    ASSERT_EQ(::mkdir(repo_.c_str(), 0755), 0);
    ASSERT_EQ(::mkdir(mnt_.c_str(), 0755), 0);
    write_file(repo_ + "/shared.txt", "anyone may write this\n", 0666);
    write_file(repo_ + "/mine.txt", "nobody's own file\n", 0644, kNobody);
    write_file(repo_ + "/held.txt", "anyone may read this\n", 0644);
    write_file(repo_ + "/pub.py", "def f():\n    return g()\n\n\ndef g():\n    return 1\n", 0666);
    for (const char* name : {"secret.txt", "secret2.txt", "secret3.txt", "secret.py"}) {
      write_file(repo_ + "/" + name, kSecret, 0600);
    }
  }
  void TearDown() override { force_unmount(mnt_); }

  std::unique_ptr<MountSession> mount() {
    MountOptions options;
    options.extra_args = {"--writable", "--no-watch", "--no-cache", "-o", "allow_other"};
    options.drop_dac_capabilities = false;
    return std::make_unique<MountSession>(repo_, mnt_, options);
  }
  // Root replaces `over` by its private `secret` in the checkout (not through the mount).
  void rename_over(const std::string& secret, const std::string& over) {
    ASSERT_EQ(::rename((repo_ + "/" + secret).c_str(), (repo_ + "/" + over).c_str()), 0);
  }

  TempDir tmp_{"permissions"};
  std::string repo_;
  std::string mnt_;
};

TEST_F(Permissions, OpeningForWritingChecksTheFileReachedNotTheOneLookedUp) {
  auto session = mount();
  Watchdog watchdog(120s, [&] { session->abort(); });
  // nobody looks both files up (the kernel now holds their world-writable attributes).
  const RunResult looked =
      as_nobody("import os,sys\nfor p in sys.argv[1:]: os.stat(p)\nprint('ok')",
                {mnt_ + "/shared.txt", mnt_ + "/pub.py"});
  ASSERT_EQ(looked.out, "ok\n") << looked.err;
  rename_over("secret.txt", "shared.txt");
  rename_over("secret.py", "pub.py");
  const std::string program = std::string(kPrelude) + R"(
for p in sys.argv[1:]:
    attempt(lambda: os.read(os.open(p, os.O_RDWR), 100))
    attempt(lambda: os.write(os.open(p, os.O_WRONLY | os.O_APPEND), b'pwned\n'))
    attempt(lambda: os.open(p, os.O_WRONLY | os.O_TRUNC))
)";
  const RunResult got = as_nobody(program, {mnt_ + "/shared.txt", mnt_ + "/pub.py"});
  std::string refused;
  for (int i = 0; i < 6; ++i) refused += "errno:EACCES\n";
  EXPECT_EQ(got.out, refused) << got.err;
  EXPECT_EQ(got.out.find("TOPSECRET"), std::string::npos);
  EXPECT_EQ(contents(repo_ + "/shared.txt"), kSecret);
  EXPECT_EQ(contents(repo_ + "/pub.py"), kSecret);
  EXPECT_TRUE(session->daemon_running());
}

TEST_F(Permissions, TruncateChmodAndTimesCheckTheFileReached) {
  auto session = mount();
  Watchdog watchdog(120s, [&] { session->abort(); });
  const RunResult looked =
      as_nobody("import os,sys\nfor p in sys.argv[1:]: os.stat(p)\nprint('ok')",
                {mnt_ + "/shared.txt", mnt_ + "/mine.txt"});
  ASSERT_EQ(looked.out, "ok\n") << looked.err;
  rename_over("secret.txt", "shared.txt");
  rename_over("secret2.txt", "mine.txt");
  const std::string program = std::string(kPrelude) + R"(
shared, mine = sys.argv[1:3]
attempt(lambda: os.truncate(shared, 0))
attempt(lambda: os.chmod(mine, 0o666))
attempt(lambda: os.utime(mine, (1, 1)))
attempt(lambda: os.utime(shared, None))
)";
  const RunResult got = as_nobody(program, {mnt_ + "/shared.txt", mnt_ + "/mine.txt"});
  EXPECT_EQ(got.out, "errno:EACCES\nerrno:EPERM\nerrno:EPERM\nerrno:EACCES\n") << got.err;
  EXPECT_EQ(contents(repo_ + "/shared.txt"), kSecret);
  struct stat st {};
  ASSERT_EQ(::stat((repo_ + "/mine.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_NE(st.st_mtim.tv_sec, 1);
  EXPECT_TRUE(session->daemon_running());
}

// A descriptor opened on a public file reads nothing of a private file renamed over it later.
TEST_F(Permissions, AReadOnlyDescriptorNeverReadsAFileRenamedOverItsName) {
  auto session = mount();
  Watchdog watchdog(120s, [&] { session->abort(); });
  const std::string ready = tmp_.path() + "/ready";
  const std::string go = tmp_.path() + "/go";
  const std::string out = tmp_.path() + "/held.out";
  for (const std::string& fifo : {ready, go}) {
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
    ASSERT_EQ(::chmod(fifo.c_str(), 0666), 0);
  }
  const std::string program = std::string(kPrelude) + R"(
path, ready, go = sys.argv[1:4]
fd = os.open(path, os.O_RDONLY)
with open(ready, 'w') as r: r.write('ready\n')
with open(go) as g: g.read()
attempt(lambda: os.pread(fd, 100, 0))
)";
  SpawnOptions options;
  options.run_as_uid = kNobody;
  options.stdout_path = out;
  Child reader({"python3", "-c", program, mnt_ + "/held.txt", ready, go}, options);
  {
    const int fd = ::open(ready.c_str(), O_RDONLY | O_CLOEXEC);  // the reader opens it to write
    ASSERT_GE(fd, 0);
    char buffer[16] = {};
    pollfd p{fd, POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, static_cast<int>(60'000 * timeout_scale())), 1);
    EXPECT_EQ(::read(fd, buffer, sizeof buffer), 6);
    ::close(fd);
  }
  rename_over("secret3.txt", "held.txt");
  {
    const int fd = ::open(go.c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ::close(fd);
  }
  const auto status = reader.wait_for(60s * timeout_scale());
  ASSERT_TRUE(status && status->ok());
  const std::string got = read_text_file(out);
  EXPECT_EQ(got.find("TOPSECRET"), std::string::npos) << got;
  EXPECT_TRUE(got == "errno:EACCES\n" || got == "errno:EIO\n" ||
              got == "bytes:anyone may read this\n")
      << got;
}

// The view's .git files anchorfs makes (config and info/attributes with the filter added, HEAD and
// index copies) keep the checkout file's mode and owner; made from nothing, they are the mount
// owner's alone. A token in a 000 config stays unreadable to other users of an allow_other mount.
TEST_F(Permissions, TheViewsGitFilesKeepTheCheckoutsModes) {
  const RunResult init = run({"git", "init", "-q", repo_}, 60s);
  ASSERT_TRUE(init.status.ok()) << init.err;
  const std::string git = repo_ + "/.git";
  write_file(git + "/config",
             "[core]\n\trepositoryformatversion = 0\n[remote \"origin\"]\n"
             "\turl = https://user:TOPSECRET@example.invalid/repo.git\n",
             0000);
  std::filesystem::create_directories(git + "/info");
  write_file(git + "/info/attributes", "*.secret TOPSECRET\n", 0600);
  write_file(git + "/HEAD", "ref: refs/heads/main\n", 0640);
  auto session = mount();
  Watchdog watchdog(120s, [&] { session->abort(); });
  const auto mode_and_owner = [](const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
    return std::pair<mode_t, uid_t>{st.st_mode & 07777, st.st_uid};
  };
  EXPECT_EQ(mode_and_owner(mnt_ + "/.git/config"), (std::pair<mode_t, uid_t>{0000, 0}));
  EXPECT_EQ(mode_and_owner(mnt_ + "/.git/info/attributes"), (std::pair<mode_t, uid_t>{0600, 0}));
  EXPECT_EQ(mode_and_owner(mnt_ + "/.git/HEAD"), (std::pair<mode_t, uid_t>{0640, 0}));
  const std::string program = std::string(kPrelude) + R"(
for p in sys.argv[1:]:
    attempt(lambda: open(p, 'rb').read())
)";
  const RunResult got = as_nobody(
      program, {mnt_ + "/.git/config", mnt_ + "/.git/info/attributes", mnt_ + "/.git/HEAD"});
  EXPECT_EQ(got.out, "errno:EACCES\nerrno:EACCES\nerrno:EACCES\n") << got.err;
  EXPECT_EQ(got.out.find("TOPSECRET"), std::string::npos);
}

// Without a checkout file to stand for, the generated config and attributes are owner-only.
TEST_F(Permissions, GitFilesMadeFromNothingAreTheMountOwnersOnly) {
  const RunResult init = run({"git", "init", "-q", repo_}, 60s);
  ASSERT_TRUE(init.status.ok()) << init.err;
  std::filesystem::remove_all(repo_ + "/.git/info");
  auto session = mount();
  Watchdog watchdog(120s, [&] { session->abort(); });
  struct stat st {};
  ASSERT_EQ(::stat((mnt_ + "/.git/info/attributes").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(st.st_uid, ::geteuid());
}

// `anchorfs mount ARGS REPO MNT` in daemon mode; unmounts again should it have mounted.
RunResult try_mount(const std::vector<std::string>& args, const std::string& repo,
                    const std::string& mnt) {
  std::vector<std::string> argv{anchorfs_binary(), "mount", "--no-cache"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(repo);
  argv.push_back(mnt);
  RunResult result = run(argv, 120s);
  if (result.status.ok()) run({anchorfs_binary(), "unmount", mnt}, 60s);
  return result;
}

TEST_F(Permissions, TraceAndLogFilesAreCreatedOwnerOnly) {
  const std::string trace = tmp_.path() + "/trace.jsonl";
  const std::string log = tmp_.path() + "/mount.log";
  {
    MountOptions options;
    options.extra_args = {"--no-cache", "--trace", trace, "--log", log};
    MountSession session(repo_, mnt_, options);
    Watchdog watchdog(120s, [&] { session.abort(); });
    EXPECT_FALSE(read_file(mnt_ + "/pub.py").bytes.empty());
    EXPECT_TRUE(session.unmount().status.ok());
  }
  for (const std::string& path : {trace, log}) {
    struct stat st {};
    ASSERT_EQ(::lstat(path.c_str(), &st), 0) << path;
    EXPECT_TRUE(S_ISREG(st.st_mode)) << path;
    EXPECT_EQ(st.st_mode & 07777, 0600u) << path;
  }
}

// A symlink or another user's file planted where the trace or log goes (a shared /tmp) is
// refused with a message; what it points at is never written.
TEST_F(Permissions, TraceAndLogRefuseASymlinkOrAnotherUsersFile) {
  const std::string victim = tmp_.path() + "/victim";
  write_file(victim, "precious\n", 0600);
  const std::string link = tmp_.path() + "/planted.link";
  ASSERT_EQ(::symlink(victim.c_str(), link.c_str()), 0);
  const std::string theirs = tmp_.path() + "/planted.theirs";
  write_file(theirs, "", 0666, kNobody);
  for (const char* option : {"--trace", "--log"}) {
    const RunResult linked = try_mount({option, link}, repo_, mnt_);
    EXPECT_FALSE(linked.status.ok()) << option << " followed a symlink";
    EXPECT_NE(linked.err.find("symbolic link"), std::string::npos) << linked.err;
    const RunResult planted = try_mount({option, theirs}, repo_, mnt_);
    EXPECT_FALSE(planted.status.ok()) << option << " wrote into another user's file";
    EXPECT_NE(planted.err.find("owned by another user"), std::string::npos) << planted.err;
  }
  EXPECT_EQ(contents(victim), "precious\n");
  EXPECT_EQ(contents(theirs), "");
  EXPECT_FALSE(is_fuse_mounted(mnt_));
}

TEST_F(Permissions, TraceLogAndCacheInsideRepoOrMountpointAreRefused) {
  for (const char* option : {"--trace", "--log", "--cache-dir"}) {
    for (const std::string& inside : {repo_ + "/own.file", mnt_ + "/own.file"}) {
      const RunResult refused = try_mount({option, inside}, repo_, mnt_);
      EXPECT_FALSE(refused.status.ok()) << option << " " << inside << " was accepted";
      EXPECT_NE(refused.err.find("is inside"), std::string::npos) << refused.err;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(repo_ + "/own.file"));
  EXPECT_FALSE(is_fuse_mounted(mnt_));
}

// A --cache-dir shared with other users (/tmp): a symlink another user planted where the store
// goes is refused, so the store never lands in a directory of ours it points at.
TEST_F(Permissions, AStoreSymlinkPlantedByAnotherUserIsRefused) {
  const std::string shared = tmp_.path() + "/shared";
  const std::string victim = tmp_.path() + "/victim-dir";
  ASSERT_EQ(::mkdir(shared.c_str(), 01777), 0);
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  ASSERT_EQ(::mkdir(victim.c_str(), 0755), 0);
  SpawnOptions as_nobody_user;
  as_nobody_user.run_as_uid = kNobody;
  const RunResult planted = run({"ln", "-s", victim, shared + "/store"}, 30s, as_nobody_user);
  ASSERT_TRUE(planted.status.ok()) << planted.err;
  const RunResult rendered =
      run({anchorfs_binary(), "render", repo_, "pub.py", "--cache-dir", shared}, 120s);
  EXPECT_FALSE(rendered.status.ok()) << "the planted store was used";
  EXPECT_NE(rendered.err.find("another user's symbolic link"), std::string::npos) << rendered.err;
  EXPECT_FALSE(std::filesystem::exists(victim + "/data.mdb"));
  EXPECT_FALSE(std::filesystem::exists(victim + "/lock.mdb"));
}

}  // namespace
}  // namespace anchorfs::testing
