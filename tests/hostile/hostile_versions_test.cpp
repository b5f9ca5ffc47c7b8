// One version per read: a descriptor reads the version it was opened on, or fails; a non-root
// reader never gets bytes the served attributes do not allow; tags never land on other bytes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
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

constexpr const char* kReaderUser = "anchorfs-reader";

// A real unprivileged account for the permission cases (created once, as root, if missing).
uid_t reader_uid() {
  if (const passwd* found = ::getpwnam(kReaderUser)) return found->pw_uid;
  const RunResult added =
      run({"useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", kReaderUser},
          60s);
  const passwd* found = ::getpwnam(kReaderUser);
  if (found == nullptr)
    throw std::runtime_error("useradd " + std::string(kReaderUser) + ": " + added.err);
  return found->pw_uid;
}

void write_bytes(const std::string& path, const std::string& bytes, mode_t mode = 0644) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  ::chmod(path.c_str(), mode);
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
}

off_t size_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

// Everything `fd` reads from offset 0 to its end after dropping its cached pages, or the errno.
ReadResult reread_uncached(int fd) {
  ReadResult result;
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  std::vector<char> buffer(1 << 20);
  for (;;) {
    const ssize_t n =
        ::pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(result.bytes.size()));
    if (n < 0) {
      result.error = errno;
      return result;
    }
    if (n == 0) return result;
    result.bytes.append(buffer.data(), static_cast<size_t>(n));
  }
}

// Where the unprivileged user can run the reader from (the build tree may be private).
std::string& reader_binary() {
  static std::string path;
  return path;
}

// A version_reader run as the unprivileged user, holding its descriptor until release().
class HeldReader {
 public:
  HeldReader(const std::string& dir, const std::string& name, const std::string& file,
             size_t first_bytes)
      : ready_(dir + "/" + name + ".ready"),
        go_(dir + "/" + name + ".go"),
        out_(dir + "/" + name + ".out") {
    for (const std::string& fifo : {ready_, go_}) {
      if (::mkfifo(fifo.c_str(), 0666) != 0 || ::chmod(fifo.c_str(), 0666) != 0) {
        throw std::runtime_error("mkfifo " + fifo);
      }
    }
    SpawnOptions options;
    options.run_as_uid = reader_uid();
    options.stdout_path = out_;
    child_ = std::make_unique<Child>(
        std::vector<std::string>{reader_binary(), file, ready_, go_, std::to_string(first_bytes)},
        options);
  }

  // True once the reader holds its descriptor (and has read its first bytes).
  bool wait_ready() {
    const int fd = ::open(ready_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    std::string got;
    const Clock::time_point deadline = Clock::now() + 60s * timeout_scale();
    while (got.find('\n') == std::string::npos && Clock::now() < deadline) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 100) > 0) {
        char buffer[16];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) got.append(buffer, static_cast<size_t>(n));
      }
    }
    ::close(fd);
    return got == "ready\n";
  }

  // Lets the reader drop its pages and read the whole file again; returns what it printed.
  std::string release() {
    int fd = -1;
    wait_until(60s, [&] {
      fd = ::open(go_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      return fd >= 0;
    });
    if (fd >= 0) ::close(fd);
    const auto status = child_->wait_for(60s * timeout_scale());
    if (!status || !status->ok()) return "reader failed";
    return read_text_file(out_);
  }

 private:
  std::string ready_, go_, out_;
  std::unique_ptr<Child> child_;
};

// What the unprivileged user gets reading `file` once (fresh open, cached pages dropped).
std::string read_as_reader(const std::string& file) {
  SpawnOptions options;
  options.run_as_uid = reader_uid();
  const RunResult result = run({reader_binary(), file}, 60s * timeout_scale(), options);
  return result.status.ok() ? result.out : "reader failed: " + result.err;
}

const std::string kPublic = "PUBLIC = 'everyone may read this line'\n";
const std::string kSecret = "SECRET = 'only root may read this....'\n";

class Versions : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(kPublic.size(), kSecret.size());
    ASSERT_EQ(::chmod(tmp_.path().c_str(), 0755), 0);  // the reader reaches the mount
    repo_ = tmp_.path() + "/repo";
    mnt_ = tmp_.path() + "/mnt";
    sync_ = tmp_.path() + "/sync";
    ASSERT_EQ(::mkdir(repo_.c_str(), 0755), 0);
    ASSERT_EQ(::mkdir(mnt_.c_str(), 0755), 0);
    ASSERT_EQ(::mkdir(sync_.c_str(), 0777), 0);
    ASSERT_EQ(::chmod(sync_.c_str(), 0777), 0);
    reader_binary() = sync_ + "/version_reader";
    std::filesystem::copy_file(ANCHORFS_VERSION_READER, reader_binary());
    ASSERT_EQ(::chmod(reader_binary().c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((repo_ + "/pkg").c_str(), 0755), 0);
    write_bytes(repo_ + "/pkg/__init__.py", "");
    write_bytes(repo_ + "/pkg/a.py", kHelpers);
    write_bytes(repo_ + "/pkg/b.py",
                "from pkg.a import one, two\n\n\ndef use():\n"
                "    return one() + two()\n");
  }
  void TearDown() override { force_unmount(mnt_); }

  MountOptions options(std::vector<std::string> extra) const {
    MountOptions mount_options;
    mount_options.extra_args = std::move(extra);
    return mount_options;
  }

  static constexpr const char* kHelpers =
      "def one():\n    return 1111\n\n\ndef two():\n    return 2222\n";

  TempDir tmp_{"versions"};
  std::string repo_, mnt_, sync_;
};

TEST_F(Versions, ADescriptorReadsItsVersionToTheEndAcrossARenameOver) {
  std::string big(20 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  write_bytes(repo_ + "/big.txt", big);
  MountSession session(repo_, mnt_, options({}));
  Watchdog watchdog(180s, [&] { session.abort(); });
  const ReadResult tagged = read_file(mnt_ + "/pkg/a.py");
  ASSERT_EQ(tagged.error, 0);
  ASSERT_NE(tagged.bytes, kHelpers) << "pkg/a.py should be served tagged";

  const int big_fd = ::open((mnt_ + "/big.txt").c_str(), O_RDONLY | O_CLOEXEC);
  const int tagged_fd = ::open((mnt_ + "/pkg/a.py").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(big_fd, 0);
  ASSERT_GE(tagged_fd, 0);
  std::string first(1 << 20, '\0');
  ASSERT_EQ(::pread(big_fd, first.data(), first.size(), 0), static_cast<ssize_t>(first.size()));
  ASSERT_EQ(first, big.substr(0, first.size()));

  // Atomic replacements, as editors and git do them.
  write_bytes(repo_ + "/big.tmp", "small = 1\n" + std::string(90, '#'));
  ASSERT_EQ(::rename((repo_ + "/big.tmp").c_str(), (repo_ + "/big.txt").c_str()), 0);
  write_bytes(repo_ + "/a.tmp", "def one():\n    return 1\n\n\ndef three():\n    return 3\n");
  ASSERT_EQ(::rename((repo_ + "/a.tmp").c_str(), (repo_ + "/pkg/a.py").c_str()), 0);
  ASSERT_TRUE(wait_until(60s, [&] { return size_of(mnt_ + "/big.txt") == 100; })) << "no refresh\n"
                                                                                  << session.log();

  const ReadResult big_rest = reread_uncached(big_fd);
  const ReadResult tagged_rest = reread_uncached(tagged_fd);
  ::close(big_fd);
  ::close(tagged_fd);
  ASSERT_EQ(big_rest.error, 0) << std::strerror(big_rest.error);
  EXPECT_EQ(big_rest.bytes.size(), big.size());
  EXPECT_TRUE(big_rest.bytes == big) << describe_difference(big, big_rest.bytes);
  ASSERT_EQ(tagged_rest.error, 0) << std::strerror(tagged_rest.error);
  EXPECT_EQ(tagged_rest.bytes, tagged.bytes) << "the old tagged version, to its end";
  EXPECT_TRUE(session.unmount().status.ok());
}

TEST_F(Versions, ANonRootReaderNeverSeesASecretRenamedOverItsFile) {
  write_bytes(repo_ + "/read.py", kPublic);
  write_bytes(repo_ + "/unread.py", kPublic);
  MountSession session(repo_, mnt_, options({"-o", "allow_other"}));
  Watchdog watchdog(180s, [&] { session.abort(); });
  HeldReader read_first(sync_, "read", mnt_ + "/read.py", kPublic.size());
  HeldReader only_opened(sync_, "unread", mnt_ + "/unread.py", 0);
  ASSERT_TRUE(read_first.wait_ready());
  ASSERT_TRUE(only_opened.wait_ready());

  for (const char* name : {"read.py", "unread.py"}) {
    write_bytes(repo_ + "/.secret", kSecret, 0600);
    ASSERT_EQ(::rename((repo_ + "/.secret").c_str(), (repo_ + "/" + name).c_str()), 0);
  }
  ASSERT_TRUE(wait_until(
      60s,
      [&] { return mode_of(mnt_ + "/read.py") == 0600 && mode_of(mnt_ + "/unread.py") == 0600; }))
      << "no refresh\n"
      << session.log();

  const std::string got_read = read_first.release();
  const std::string got_unread = only_opened.release();
  EXPECT_EQ(got_read, kPublic) << "the descriptor's own version, read to its end";
  EXPECT_TRUE(got_unread == kPublic || got_unread.starts_with("error EIO")) << got_unread;
  EXPECT_EQ(read_as_reader(mnt_ + "/read.py").rfind("error EACCES", 0), 0u);
  EXPECT_TRUE(session.unmount().status.ok());
}

TEST_F(Versions, ChmodAndRewriteBeforeARefreshAreRefused) {
  write_bytes(repo_ + "/private.py", kPublic);
  MountSession session(repo_, mnt_, options({"-o", "allow_other", "--no-watch"}));
  Watchdog watchdog(120s, [&] { session.abort(); });
  ASSERT_EQ(read_as_reader(mnt_ + "/private.py"), kPublic);

  ASSERT_EQ(::chmod((repo_ + "/private.py").c_str(), 0600), 0);
  {
    std::fstream in_place(repo_ + "/private.py", std::ios::binary | std::ios::in | std::ios::out);
    in_place << kSecret;
  }
  const std::string got = read_as_reader(mnt_ + "/private.py");
  EXPECT_EQ(got.find("SECRET"), std::string::npos) << got;
  EXPECT_EQ(got.rfind("error EACCES", 0), 0u) << got;
  // With no refresh at all, the refused read moved the name on to the file as it is now: the
  // kernel checks the new mode at the next open.
  EXPECT_TRUE(wait_until(60s, [&] { return mode_of(mnt_ + "/private.py") == 0600; }));
  EXPECT_EQ(read_as_reader(mnt_ + "/private.py").rfind("error EACCES", 0), 0u);
  EXPECT_TRUE(session.unmount().status.ok());
}

TEST_F(Versions, AHardLinkChangedFromOutsideIsRefusedThenRescanned) {
  const std::string outside = tmp_.path() + "/outside";
  ASSERT_EQ(::mkdir(outside.c_str(), 0755), 0);
  write_bytes(outside + "/original.py", kPublic);
  ASSERT_EQ(::link((outside + "/original.py").c_str(), (repo_ + "/linked.py").c_str()), 0);
  MountSession session(repo_, mnt_, options({"-o", "allow_other"}));
  Watchdog watchdog(120s, [&] { session.abort(); });
  ASSERT_EQ(read_as_reader(mnt_ + "/linked.py"), kPublic);

  // Through the other name: no inotify event reaches the watches on REPO.
  ASSERT_EQ(::chmod((outside + "/original.py").c_str(), 0600), 0);
  {
    std::fstream in_place(outside + "/original.py",
                          std::ios::binary | std::ios::in | std::ios::out);
    in_place << kSecret;
  }
  const std::string got = read_as_reader(mnt_ + "/linked.py");
  EXPECT_EQ(got.find("SECRET"), std::string::npos) << got;
  EXPECT_TRUE(got.starts_with("error ")) << got;
  // The refused read asked for a rescan: the mount now says what the source says.
  EXPECT_TRUE(wait_until(60s, [&] { return mode_of(mnt_ + "/linked.py") == 0600; }))
      << session.log();
  EXPECT_EQ(read_as_reader(mnt_ + "/linked.py").rfind("error EACCES", 0), 0u);
  EXPECT_TRUE(session.unmount().status.ok());
}

TEST_F(Versions, ASameSizeRewriteWithItsMtimeRestoredIsNeverSplicedWithOldTags) {
  MountSession session(repo_, mnt_, options({"--no-watch"}));
  Watchdog watchdog(120s, [&] { session.abort(); });
  struct stat before {};
  ASSERT_EQ(::stat((repo_ + "/pkg/a.py").c_str(), &before), 0);
  std::string rewritten = kHelpers;
  rewritten.replace(rewritten.find("1111"), 4, "9999");
  {
    std::fstream in_place(repo_ + "/pkg/a.py", std::ios::binary | std::ios::in | std::ios::out);
    in_place << rewritten;
  }
  const timespec times[2] = {before.st_atim, before.st_mtim};  // `touch -d` the old mtime
  ASSERT_EQ(::utimensat(AT_FDCWD, (repo_ + "/pkg/a.py").c_str(), times, 0), 0);

  const ReadResult served = read_file(mnt_ + "/pkg/a.py");
  ASSERT_EQ(served.error, 0) << std::strerror(served.error);
  EXPECT_EQ(served.bytes, rewritten) << "old tags spliced onto new bytes";
  EXPECT_EQ(size_of(mnt_ + "/pkg/a.py"), static_cast<off_t>(rewritten.size()));
  EXPECT_TRUE(session.daemon_running());
  EXPECT_TRUE(session.unmount().status.ok());
}

// `view` without its comment lines: the code a tagged view was made of.
std::string without_comment_lines(const std::string& view) {
  std::string code;
  size_t start = 0;
  while (start < view.size()) {
    size_t end = view.find('\n', start);
    end = end == std::string::npos ? view.size() : end + 1;
    const std::string line = view.substr(start, end - start);
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] != '#') code += line;
    start = end;
  }
  return code;
}

TEST_F(Versions, AnEditBeforeAnyRefreshIsServedUntaggedAsTheCheckoutHoldsIt) {
  MountSession session(repo_, mnt_, options({"--no-watch"}));
  Watchdog watchdog(120s, [&] { session.abort(); });
  const off_t tagged_size = size_of(mnt_ + "/pkg/a.py");  // the kernel holds the tagged size
  ASSERT_GT(tagged_size, static_cast<off_t>(std::strlen(kHelpers))) << "pkg/a.py is tagged";

  const std::string shorter = "def one():\n    return 1\n";
  const std::string longer = std::string(kHelpers) + std::string(4000, '#') + "\n";
  write_bytes(repo_ + "/a.tmp", shorter);  // as editors save: a new file renamed over
  ASSERT_EQ(::rename((repo_ + "/a.tmp").c_str(), (repo_ + "/pkg/a.py").c_str()), 0);
  write_bytes(repo_ + "/pkg/b.py", longer);  // in place, outgrowing its tagged size
  for (const auto& [path, bytes] :
       {std::pair<std::string, std::string>{"/pkg/a.py", shorter}, {"/pkg/b.py", longer}}) {
    const ReadResult served = read_file(mnt_ + path);
    ASSERT_EQ(served.error, 0) << path << ": " << std::strerror(served.error);
    EXPECT_EQ(served.bytes, bytes) << path;
    EXPECT_EQ(size_of(mnt_ + path), static_cast<off_t>(bytes.size())) << path;
  }
  EXPECT_TRUE(session.unmount().status.ok());
}

// The kernel reads nothing past the size it holds, so a file it holds as empty is never read
// through the daemon's version check: an empty file is checked against the checkout at lookup
// and getattr instead. (A watcher's stat between an in-place save's truncation and its write
// gives the same empty version as this analysis does.)
TEST_F(Versions, AnEmptyFileWrittenInPlaceIsServedAsTheCheckoutHoldsIt) {
  write_bytes(repo_ + "/pkg/notes.py", "");
  MountSession session(repo_, mnt_, options({"--no-watch"}));
  Watchdog watchdog(120s, [&] { session.abort(); });
  ASSERT_EQ(size_of(mnt_ + "/pkg/notes.py"), 0);  // the kernel holds it as empty
  const std::string written = std::string(kHelpers) + "\n\ndef three():\n    return one()\n";
  write_bytes(repo_ + "/pkg/notes.py", written);     // in place
  write_bytes(repo_ + "/pkg/__init__.py", written);  // in place, never looked up before
  for (const char* path : {"/pkg/notes.py", "/pkg/__init__.py"}) {
    const ReadResult served = read_file(mnt_ + path);
    ASSERT_EQ(served.error, 0) << path << ": " << std::strerror(served.error);
    EXPECT_EQ(served.bytes, written) << path;
    EXPECT_EQ(size_of(mnt_ + path), static_cast<off_t>(written.size())) << path;
  }
  EXPECT_TRUE(session.unmount().status.ok());
}

TEST_F(Versions, BetweenAnEditAndItsRefreshReadsNeverFailAndTheTagsComeBack) {
  MountSession session(repo_, mnt_, options({}));
  Watchdog watchdog(120s, [&] { session.abort(); });
  const ReadResult before = read_file(mnt_ + "/pkg/b.py");  // tagged: it calls into pkg/a.py
  ASSERT_EQ(before.error, 0);
  ASSERT_NE(before.bytes, without_comment_lines(before.bytes)) << "pkg/b.py should be tagged";
  ASSERT_GT(size_of(mnt_ + "/pkg/a.py"), 0);  // known to the kernel, never read

  const std::string edited = std::string(kHelpers) + "\n\ndef three():\n    return one()\n";
  write_bytes(repo_ + "/pkg/a.py", edited);  // in place
  std::vector<std::string> seen;
  bool tagged_again = false;
  const Clock::time_point deadline = Clock::now() + 60s * timeout_scale();
  while (!tagged_again && Clock::now() < deadline) {
    const ReadResult served = read_file(mnt_ + "/pkg/a.py");
    ASSERT_EQ(served.error, 0) << std::strerror(served.error) << " after " << seen.size()
                               << " reads\n"
                               << session.log();
    ASSERT_EQ(without_comment_lines(served.bytes), edited) << served.bytes;
    if (seen.empty() || seen.back() != served.bytes) seen.push_back(served.bytes);
    tagged_again = served.bytes != edited;
  }
  EXPECT_TRUE(tagged_again) << "no refresh\n" << session.log();
  EXPECT_EQ(size_of(mnt_ + "/pkg/a.py"), static_cast<off_t>(seen.back().size()));
  EXPECT_TRUE(session.unmount().status.ok());
}

}  // namespace
}  // namespace anchorfs::testing
