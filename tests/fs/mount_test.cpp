// Real mounts: listings, attributes, exact bytes (read, pread, mmap), symlinks, FIFOs, EROFS,
// kernel caching, consistency after source changes, snapshot swaps and clean unmounts.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "fs_test_support.h"

namespace anchorfs::fs {
namespace {

using test::read_file;
using test::write_file;

const std::string kFileTag = "# === File Annotation ===\n# file: X\n# === File Annotation ===\n";

std::string big_source() {
  std::string text;
  for (int i = 0; text.size() < 3'000'000; ++i) {
    text += "def function_" + std::to_string(i) + "(argument):\n    return argument * " +
            std::to_string(i) + "\n\n";
  }
  return text;
}

// Insertions above every 40th "def" of a source: many tags, spread across read requests.
std::vector<std::pair<uint64_t, std::string>> tags_above_defs(const std::string& source) {
  std::vector<std::pair<uint64_t, std::string>> insertions{{0, kFileTag}};
  size_t at = 0;
  for (int n = 0; (at = source.find("def ", at)) != std::string::npos; ++n, at += 4) {
    if (n % 40 == 0) {
      insertions.emplace_back(at, "# === Function Annotation ===\n# CALLED_BY: f" +
                                      std::to_string(n) + "\n# === Function Annotation ===\n");
    }
  }
  insertions.emplace_back(source.size(), "\n# trailing tag");
  return insertions;
}

std::set<std::string> list_dir(const std::string& path) {
  std::set<std::string> names;
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return names;
  while (const dirent* d = ::readdir(dir)) names.insert(d->d_name);
  ::closedir(dir);
  return names;
}

class MountTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(src_ / "pkg/__init__.py", "");
    write_file(src_ / "pkg/core.py",
               "import os\n\nclass Base:\n    def run(self):\n        return os.getcwd()\n\n"
               "def helper():\n    return Base().run()\n");
    write_file(src_ / "pkg/big.py", big_source());
    write_file(src_ / "pkg/stale_long.py", "a = 1\n");
    write_file(src_ / "pkg/stale_short.py", "b = 2222222222222222\n");
    write_file(src_ / "pkg/vanishing.py", "c = 3\n");
    write_file(src_ / "README.md", "# readme\n");
    std::string binary(200'000, '\0');
    for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>((i * 131) & 0xff);
    write_file(src_ / "data.bin", binary);
    write_file(src_ / ".git/HEAD", "ref: refs/heads/main\n");
    write_file(src_ / ".gitignore", "build/\n");
    write_file(src_ / ".hidden/inside", "x");
    std::filesystem::create_directory(src_ / "emptydir");
    ASSERT_EQ(::symlink("pkg/core.py", (src_ / "link.py").c_str()), 0);
    ASSERT_EQ(::symlink("nowhere/at/all", (src_ / "dangling").c_str()), 0);
    ASSERT_EQ(::mkfifo((src_ / "fifo").c_str(), 0644), 0);
    ASSERT_EQ(::chmod((src_ / "README.md").c_str(), 0640), 0);

    plans_ = {
        {"pkg/__init__.py", {{0, kFileTag}}},
        {"pkg/core.py",
         {{0, kFileTag},
          {11, "# === Class Annotation ===\n# DERIVED: x\n"},
          {11, "# second\n"},
          {26, "    # === Function Annotation ===\n"},
          {100, "# end"}}},
        {"pkg/big.py", tags_above_defs(read_file(src_ / "pkg/big.py"))},
        {"pkg/stale_long.py", {{0, kFileTag}}},
        {"pkg/stale_short.py", {{0, "#\n"}}},
        {"pkg/vanishing.py", {{0, kFileTag}}},
    };
    mount_ = std::make_unique<test::LiveMount>(snapshot(), mnt_.path());
  }

  void TearDown() override { mount_.reset(); }

  std::shared_ptr<const Snapshot> snapshot() const {
    return make_snapshot(analysis::scan_tree(src_.path()), test::to_plans(plans_));
  }

  // What the mount must show for a regular file of the source.
  std::string expected(const std::string& path) const {
    auto found = plans_.find(path);
    const std::string original = read_file(src_ / path);
    return found == plans_.end() ? original
                                 : test::reference_apply(original, test::to_plan(found->second));
  }

  std::string m(const std::string& path) const { return *mount_ / path; }

  test::TempDir src_{"anchorfs-src"};
  test::TempDir mnt_{"anchorfs-mnt"};
  test::PlanSpec plans_;
  std::unique_ptr<test::LiveMount> mount_;
};

const std::vector<std::string> kRegularFiles = {"pkg/__init__.py", "pkg/core.py",   "pkg/big.py",
                                                "README.md",       "data.bin",      ".git/HEAD",
                                                ".gitignore",      ".hidden/inside"};

TEST_F(MountTest, MountsReadOnlyAsAnchorfs) {
  ASSERT_TRUE(test::is_mounted(mnt_.path()));
  struct statvfs sv {};
  ASSERT_EQ(::statvfs(mnt_.path().c_str(), &sv), 0);
  EXPECT_NE(sv.f_flag & ST_RDONLY, 0u);
  struct statvfs source {};
  ASSERT_EQ(::statvfs(src_.path().c_str(), &source), 0);
  EXPECT_EQ(sv.f_blocks, source.f_blocks);
}

TEST_F(MountTest, ListsTheWholeTreeDotfilesIncluded) {
  for (const std::string dir : {"", "pkg", ".git", ".hidden", "emptydir"}) {
    std::set<std::string> want = list_dir(src_ / dir);
    EXPECT_EQ(list_dir(m(dir)), want) << "directory '" << dir << "'";
  }
  EXPECT_TRUE(list_dir(m("")).count(".git"));
  EXPECT_TRUE(list_dir(m("")).count("fifo"));
}

TEST_F(MountTest, AttributesComeFromTheScanWithTaggedSizes) {
  for (const std::string& path : kRegularFiles) {
    struct stat source {};
    struct stat served {};
    ASSERT_EQ(::lstat((src_ / path).c_str(), &source), 0) << path;
    ASSERT_EQ(::lstat(m(path).c_str(), &served), 0) << path;
    EXPECT_EQ(served.st_mode, source.st_mode) << path;
    EXPECT_EQ(served.st_uid, source.st_uid) << path;
    EXPECT_EQ(served.st_gid, source.st_gid) << path;
    EXPECT_EQ(served.st_mtim.tv_sec, source.st_mtim.tv_sec) << path;
    EXPECT_EQ(served.st_mtim.tv_nsec, source.st_mtim.tv_nsec) << path;
    EXPECT_EQ(static_cast<size_t>(served.st_size), expected(path).size()) << path;
  }
  struct stat dir {};
  ASSERT_EQ(::lstat(m("pkg").c_str(), &dir), 0);
  EXPECT_TRUE(S_ISDIR(dir.st_mode));
}

TEST_F(MountTest, InodeNumbersAreStableAndDistinct) {
  std::set<ino_t> seen;
  for (const std::string& path : kRegularFiles) {
    struct stat first {};
    struct stat second {};
    ASSERT_EQ(::lstat(m(path).c_str(), &first), 0);
    ASSERT_EQ(::stat(m(path).c_str(), &second), 0);
    EXPECT_EQ(first.st_ino, second.st_ino);
    EXPECT_TRUE(seen.insert(first.st_ino).second) << path;
  }
  struct stat root {};
  ASSERT_EQ(::stat(mnt_.path().c_str(), &root), 0);
  EXPECT_EQ(root.st_ino, 1u);
}

TEST_F(MountTest, FullReadsAreTheTaggedView) {
  for (const std::string& path : kRegularFiles) {
    EXPECT_EQ(read_file(m(path)), expected(path)) << path;
  }
  EXPECT_NE(read_file(m("pkg/core.py")).find("# DERIVED: x\n# second\nclass Base"),
            std::string::npos);
}

TEST_F(MountTest, RandomPreadsAcrossTagBoundaries) {
  const std::string want = expected("pkg/big.py");
  const int fd = ::open(m("pkg/big.py").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::mt19937_64 rng(7);
  std::string buffer;
  for (int i = 0; i < 400; ++i) {
    const size_t offset = rng() % (want.size() + 10);
    const size_t length = 1 + rng() % (i % 10 == 0 ? 300'000 : 5'000);
    buffer.resize(length);
    const ssize_t n = ::pread(fd, buffer.data(), length, static_cast<off_t>(offset));
    ASSERT_GE(n, 0);
    const std::string part = offset < want.size() ? want.substr(offset, length) : "";
    ASSERT_EQ(buffer.substr(0, static_cast<size_t>(n)), part) << offset << "+" << length;
  }
  ::close(fd);
}

TEST_F(MountTest, ConcurrentReadersSeeTheSameBytes) {
  const std::string want = expected("pkg/big.py");
  std::vector<std::thread> readers;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&, t] {
      const int fd = ::open(m("pkg/big.py").c_str(), O_RDONLY);
      std::mt19937_64 rng(static_cast<uint64_t>(t));
      std::string buffer(64 * 1024, '\0');
      for (int i = 0; i < 200 && fd >= 0; ++i) {
        const size_t offset = rng() % want.size();
        const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(offset));
        if (n < 0 ||
            buffer.compare(0, static_cast<size_t>(n), want, offset, static_cast<size_t>(n)) != 0) {
          ++mismatches;
        }
      }
      if (fd >= 0) ::close(fd);
    });
  }
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST_F(MountTest, MmapSeesTheTaggedView) {
  for (const std::string path : {"pkg/big.py", "pkg/core.py", "data.bin"}) {
    const std::string want = expected(path);
    const int fd = ::open(m(path).c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    void* map = ::mmap(nullptr, want.size(), PROT_READ, MAP_PRIVATE, fd, 0);
    ASSERT_NE(map, MAP_FAILED) << path << ": " << std::strerror(errno);
    EXPECT_EQ(std::string(static_cast<const char*>(map), want.size()), want) << path;
    ::munmap(map, want.size());
    ::close(fd);
  }
}

TEST_F(MountTest, SymlinksAreServedAsSymlinks) {
  struct stat st {};
  ASSERT_EQ(::lstat(m("link.py").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  char target[256] = {};
  ASSERT_EQ(::readlink(m("link.py").c_str(), target, sizeof target - 1), 11);
  EXPECT_STREQ(target, "pkg/core.py");
  EXPECT_EQ(read_file(m("link.py")), expected("pkg/core.py")) << "followed inside the mount";
  ASSERT_GT(::readlink(m("dangling").c_str(), target, sizeof target - 1), 0);
  EXPECT_EQ(::stat(m("dangling").c_str(), &st), -1);
  EXPECT_EQ(errno, ENOENT);
}

TEST_F(MountTest, FifoIsListedAndNeverBlocksNorOpensTheSource) {
  struct stat st {};
  ASSERT_EQ(::lstat(m("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  const int fd = ::open(m("fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  char byte = 0;
  EXPECT_EQ(::read(fd, &byte, 1), 0);
  ::close(fd);
  // Walk and read every regular file: nothing may hang, and the source FIFO never gets a reader.
  for (const std::string& path : kRegularFiles) read_file(m(path));
  const int writer = ::open((src_ / "fifo").c_str(), O_WRONLY | O_NONBLOCK);
  EXPECT_EQ(writer, -1);
  EXPECT_EQ(errno, ENXIO) << "someone holds the source FIFO open for reading";
  if (writer >= 0) ::close(writer);
}

TEST_F(MountTest, EveryWriteFailsWithErofs) {
  auto expect_erofs = [](int rc, const char* what) {
    EXPECT_EQ(rc, -1) << what;
    EXPECT_EQ(errno, EROFS) << what << ": " << std::strerror(errno);
  };
  int fd = ::open(m("README.md").c_str(), O_WRONLY);
  expect_erofs(fd < 0 ? -1 : 0, "open for writing");
  if (fd >= 0) ::close(fd);
  fd = ::open(m("README.md").c_str(), O_RDWR);
  expect_erofs(fd < 0 ? -1 : 0, "open read-write");
  if (fd >= 0) ::close(fd);
  fd = ::open(m("new.py").c_str(), O_CREAT | O_WRONLY, 0644);
  expect_erofs(fd < 0 ? -1 : 0, "create");
  if (fd >= 0) ::close(fd);
  expect_erofs(::mkdir(m("newdir").c_str(), 0755), "mkdir");
  expect_erofs(::unlink(m("README.md").c_str()), "unlink");
  expect_erofs(::rmdir(m("emptydir").c_str()), "rmdir");
  expect_erofs(::rename(m("README.md").c_str(), m("README2.md").c_str()), "rename");
  expect_erofs(::chmod(m("README.md").c_str(), 0777), "chmod");
  expect_erofs(::truncate(m("pkg/core.py").c_str(), 0), "truncate");
  expect_erofs(::symlink("x", m("newlink").c_str()), "symlink");
  expect_erofs(::link(m("README.md").c_str(), m("hardlink").c_str()), "link");
  expect_erofs(::mkfifo(m("newfifo").c_str(), 0644), "mknod");
  expect_erofs(::setxattr(m("README.md").c_str(), "user.x", "1", 1, 0), "setxattr");
  expect_erofs(::removexattr(m("README.md").c_str(), "user.x"), "removexattr");
  EXPECT_EQ(read_file(src_ / "README.md"), "# readme\n") << "source untouched";
}

TEST_F(MountTest, AWarmPassSendsTheDaemonNothing) {
  auto pass = [this] {
    for (const std::string dir : {"", "pkg", ".git"}) list_dir(m(dir));
    for (const std::string& path : kRegularFiles) read_file(m(path));
    struct stat st {};
    for (const std::string probe : {".ignore", "pkg/.rgignore", "pkg/.ignore"}) {
      EXPECT_EQ(::stat(m(probe).c_str(), &st), -1);
    }
  };
  pass();
  const ServerStats cold = mount_->server().stats();
  EXPECT_GT(cold.reads, 0u);
  pass();
  const ServerStats warm = mount_->server().stats();
  EXPECT_EQ(warm.requests, cold.requests)
      << "lookups +" << warm.lookups - cold.lookups << ", reads +" << warm.reads - cold.reads
      << ", readdirs +" << warm.readdirs - cold.readdirs;
}

// Reads the whole file at `path`; the errno of open/read, or 0.
int read_errno(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return errno;
  char buffer[64];
  const int error = ::read(fd, buffer, sizeof buffer) < 0 ? errno : 0;
  ::close(fd);
  return error;
}

// What a file shows through a path in the mount: its size as stat(2) gives it, then the bytes.
struct PathView {
  off_t size = -1;
  std::string bytes;
  int error = 0;
};
PathView view_of(const std::string& path) {
  PathView view;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    view.error = errno;
    return view;
  }
  view.size = st.st_size;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    view.error = errno;
    return view;
  }
  char chunk[1 << 15];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) view.error = errno;
    if (n <= 0) break;
    view.bytes.append(chunk, static_cast<size_t>(n));
  }
  ::close(fd);
  return view;
}

// A file changed in the checkout before any refresh (no refresher runs here) and never read
// through the mount: the first read serves the checkout's bytes untagged, whether they outgrew
// the tagged size or not, and stat agrees; never the old tags on new bytes.
TEST_F(MountTest, AChangedSourceIsServedUntaggedAsTheCheckoutHoldsIt) {
  const std::string grown = "a = 1\n" + std::string(200, 'z') + "\n";
  ASSERT_GT(grown.size(), expected("pkg/stale_long.py").size()) << "the grown case";
  write_file(src_ / "pkg/stale_long.py", grown);
  write_file(src_ / "pkg/stale_short.py", "b = 2\n");
  EXPECT_EQ(read_file(m("pkg/stale_long.py")), grown);
  EXPECT_EQ(read_file(m("pkg/stale_short.py")), "b = 2\n");
  for (const auto& [path, bytes] : {std::pair<std::string, std::string>{"pkg/stale_long.py", grown},
                                    {"pkg/stale_short.py", "b = 2\n"}}) {
    const PathView view = view_of(m(path));
    EXPECT_EQ(view.error, 0) << path << ": " << std::strerror(view.error);
    EXPECT_EQ(view.bytes, bytes) << path;
    EXPECT_EQ(view.size, static_cast<off_t>(bytes.size())) << path << ": stat and read disagree";
  }
  const ServerStats stats = mount_->server().stats();
  EXPECT_GE(stats.stale_reads, 2u);
  EXPECT_GE(stats.followed_changes, 2u);

  ASSERT_EQ(::unlink((src_ / "pkg/vanishing.py").c_str()), 0);
  EXPECT_EQ(read_errno(m("pkg/vanishing.py")), ENOENT) << "errno values reach the reader";
  struct stat st {};
  EXPECT_TRUE(test::wait_until(std::chrono::seconds(30),
                         [&] { return ::stat(m("pkg/vanishing.py").c_str(), &st) != 0; }))
      << "the name of a file gone from the checkout goes too";
}

// A version whose bytes the kernel already got keeps them: its descriptor never mixes them with
// the new ones (its dropped pages are refused), while the name moves on to the checkout's bytes,
// untagged, and the refresh brings the tags back.
TEST_F(MountTest, AVersionAlreadyReadIsNeverMixedWhileItsNameMovesOnUntagged) {
  const std::string tagged = read_file(m("pkg/core.py"));
  ASSERT_EQ(tagged, expected("pkg/core.py"));
  const int fd = ::open(m("pkg/core.py").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  const std::string edited = "import os\n\ndef helper():\n    return 7\n";
  write_file(src_ / "pkg/core.py", edited);  // in place: the old bytes are gone
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  char buffer[64];
  EXPECT_EQ(::pread(fd, buffer, sizeof buffer, 0), -1);
  EXPECT_EQ(errno, EIO) << "the descriptor's version is gone: neither its bytes nor another's";
  ::close(fd);

  PathView view;
  EXPECT_TRUE(test::wait_until(std::chrono::seconds(30), [&] {
    view = view_of(m("pkg/core.py"));
    return view.error == 0 && view.bytes == edited;
  })) << "the name still serves " << view.bytes << " (" << std::strerror(view.error) << ")";
  EXPECT_EQ(view.size, static_cast<off_t>(edited.size()));

  plans_["pkg/core.py"] = {{0, kFileTag}};
  mount_->server().replace_snapshot(snapshot());
  EXPECT_EQ(read_file(m("pkg/core.py")), expected("pkg/core.py")) << "the refresh re-tags it";
  EXPECT_NE(expected("pkg/core.py"), edited);
}

// What a live mount does with the watcher's events: the files named are served as the checkout
// holds them at once, untagged, even those whose old pages the kernel holds; a named file whose
// version did not change keeps its tags and its inode number.
TEST_F(MountTest, ChangesNamedByTheWatcherAreServedUntaggedAtOnce) {
  ASSERT_EQ(read_file(m("pkg/core.py")), expected("pkg/core.py"));  // pages held by the kernel
  struct stat before {};
  ASSERT_EQ(::stat(m("pkg/__init__.py").c_str(), &before), 0);
  const std::string edited = "import os\n\ndef helper():\n    return 9\n";
  write_file(src_ / "pkg/core.py", edited);
  const std::vector<std::string> named = {".git/HEAD", "pkg/__init__.py", "pkg/core.py"};
  ASSERT_TRUE(mount_->server().serve_changes_untagged(named));
  const PathView view = view_of(m("pkg/core.py"));
  EXPECT_EQ(view.bytes, edited);
  EXPECT_EQ(view.size, static_cast<off_t>(edited.size()));
  EXPECT_EQ(read_file(m("pkg/__init__.py")), expected("pkg/__init__.py")) << "still tagged";
  struct stat after {};
  ASSERT_EQ(::stat(m("pkg/__init__.py").c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_FALSE(mount_->server().serve_changes_untagged(std::vector<std::string>{".git/HEAD"}));
}

TEST_F(MountTest, AVersionReadOnceIsServedFromItsOwnDescriptorAfterAnUnlink) {
  const std::string before = read_file(m("pkg/core.py"));
  const int fd = ::open(m("pkg/core.py").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::unlink((src_ / "pkg/core.py").c_str()), 0);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  std::string again(before.size() + 16, '\0');
  const ssize_t n = ::pread(fd, again.data(), again.size(), 0);
  ::close(fd);
  ASSERT_EQ(n, static_cast<ssize_t>(before.size())) << std::strerror(errno);
  again.resize(static_cast<size_t>(n));
  EXPECT_EQ(again, before);
  EXPECT_GE(mount_->server().stats().source_fds, 1u);
}

TEST_F(MountTest, StopUnmountsCleanly) {
  read_file(m("pkg/core.py"));
  EXPECT_EQ(mount_->stop(), 0);
  EXPECT_FALSE(test::is_mounted(mnt_.path()));
  EXPECT_TRUE(list_dir(mnt_.path()).size() <= 2) << "the bare mountpoint is back";
}

TEST_F(MountTest, ExternalUnmountEndsTheServer) {
  read_file(m("README.md"));
  ASSERT_EQ(::umount2(mnt_.path().c_str(), 0), 0) << std::strerror(errno);
  EXPECT_EQ(mount_->stop(), 0);
  EXPECT_FALSE(test::is_mounted(mnt_.path()));
}

TEST_F(MountTest, ReplaceSnapshotShowsNewBytesNamesAndNewInodesForChangedFiles) {
  // Warm the kernel caches with the old state, including negative lookups.
  const std::string old_core = read_file(m("pkg/core.py"));
  struct stat st {};
  ASSERT_EQ(::stat(m("pkg/added.py").c_str(), &st), -1);
  ASSERT_EQ(::stat(m("README.md").c_str(), &st), 0);
  const ino_t readme_inode = st.st_ino;
  ASSERT_EQ(::stat(m("pkg").c_str(), &st), 0);
  const ino_t pkg_inode = st.st_ino;
  ASSERT_EQ(::stat(m("pkg/core.py").c_str(), &st), 0);
  const ino_t old_core_inode = st.st_ino;
  ASSERT_EQ(::stat(m("pkg/__init__.py").c_str(), &st), 0);
  list_dir(m("pkg"));

  write_file(src_ / "pkg/core.py", "def helper():\n    return 42\n");
  write_file(src_ / "pkg/added.py", "new = True\n");
  ASSERT_EQ(::unlink((src_ / "pkg/__init__.py").c_str()), 0);
  plans_.erase("pkg/__init__.py");
  plans_["pkg/core.py"] = {{0, "# === Function Annotation ===\n# CALLED_BY: new\n"}};
  plans_["pkg/added.py"] = {{0, kFileTag}};
  mount_->server().replace_snapshot(snapshot());

  EXPECT_EQ(read_file(m("pkg/core.py")), expected("pkg/core.py"));
  ASSERT_EQ(::stat(m("pkg/core.py").c_str(), &st), 0);
  EXPECT_EQ(static_cast<size_t>(st.st_size), expected("pkg/core.py").size());
  EXPECT_NE(st.st_ino, old_core_inode) << "a changed file is a new inode";
  EXPECT_EQ(read_file(m("pkg/added.py")), expected("pkg/added.py"));
  EXPECT_EQ(::stat(m("pkg/__init__.py").c_str(), &st), -1);
  EXPECT_EQ(errno, ENOENT);
  EXPECT_EQ(list_dir(m("pkg")), list_dir(src_ / "pkg"));
  ASSERT_EQ(::stat(m("README.md").c_str(), &st), 0);
  EXPECT_EQ(st.st_ino, readme_inode) << "an unchanged file keeps its inode";
  ASSERT_EQ(::stat(m("pkg").c_str(), &st), 0);
  EXPECT_EQ(st.st_ino, pkg_inode) << "directories keep their inodes";

  // The cached listing names the new inode too (it was invalidated, not left stale).
  DIR* dir = ::opendir(m("pkg").c_str());
  ASSERT_NE(dir, nullptr);
  ASSERT_EQ(::stat(m("pkg/core.py").c_str(), &st), 0);
  bool listed = false;
  while (const dirent* d = ::readdir(dir)) {
    if (std::string(d->d_name) == "core.py") {
      listed = true;
      EXPECT_EQ(d->d_ino, st.st_ino);
    }
  }
  ::closedir(dir);
  EXPECT_TRUE(listed);
}

// What open + fstat + read of a whole file saw: the size fstat gave and the bytes read.
struct WholeRead {
  off_t size = -1;
  off_t size_after = -1;
  std::string bytes;
  std::string error;
};

// `drop_pages` first drops the file's cached pages, so every byte comes from the daemon.
WholeRead read_whole(const std::string& path, bool drop_pages = false) {
  WholeRead out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    out.error = std::string("open: ") + std::strerror(errno);
    return out;
  }
  if (drop_pages) ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  struct stat st {};
  if (::fstat(fd, &st) == 0) out.size = st.st_size;
  char chunk[1 << 15];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) {
      out.error = std::string("read: ") + std::strerror(errno);
      break;
    }
    if (n == 0) break;
    out.bytes.append(chunk, static_cast<size_t>(n));
  }
  if (::fstat(fd, &st) == 0) out.size_after = st.st_size;
  ::close(fd);
  return out;
}

// Waits (bounded) until the server holds no old file version: the kernel forgot them all.
bool retired_versions_released(test::LiveMount& mount) {
  return test::wait_until(std::chrono::seconds(30),
                          [&] { return mount.server().stats().retired_inodes == 0; });
}

// Issue 6's rule under a storm of swaps: every whole-file read (open, fstat, read) is exactly one
// version, with the size fstat gave, never old size with new bytes or a mix of two versions.
TEST_F(MountTest, ReadersDuringSwapStormsAlwaysSeeExactlyOneVersion) {
  std::string medium;
  for (int i = 0; medium.size() < 300'000; ++i) {
    medium += "def f" + std::to_string(i) + "():\n    return " + std::to_string(i) + "\n";
  }
  write_file(src_ / "pkg/medium.py", medium);
  // A tree of realistic size: a swap's own work (numbering, diff) takes as long as on a real one.
  for (int i = 0; i < 2500; ++i) write_file(src_ / ("many/m" + std::to_string(i) + ".py"), "");
  const std::string core = read_file(src_ / "pkg/core.py");
  const test::PlanSpec::mapped_type core_a = {{0, "# A\n"}, {26, "# AAAAAAAAAAAAAA\n"}};
  const test::PlanSpec::mapped_type core_b = {{0, "# B tags are much longer than A's\n"}};
  // Medium: tags in the middle, so the versions differ from byte 150000 on and in size.
  const test::PlanSpec::mapped_type medium_a = {{150'000, "# A\n"}};
  const test::PlanSpec::mapped_type medium_b = {{150'000, std::string(5000, '#') + "\n"}};
  plans_["pkg/medium.py"] = medium_a;
  plans_["pkg/core.py"] = core_a;
  auto snapshot_a = snapshot();
  plans_["pkg/medium.py"] = medium_b;
  plans_["pkg/core.py"] = core_b;
  auto snapshot_b = snapshot();
  const std::map<std::string, std::vector<std::string>> versions = {
      {"pkg/core.py",
       {test::reference_apply(core, test::to_plan(core_a)),
        test::reference_apply(core, test::to_plan(core_b))}},
      {"pkg/medium.py",
       {test::reference_apply(medium, test::to_plan(medium_a)),
        test::reference_apply(medium, test::to_plan(medium_b))}},
      {"README.md", {read_file(src_ / "README.md")}},
  };
  mount_->server().replace_snapshot(snapshot_a);

  std::atomic<bool> done{false};
  std::atomic<int> reads{0};
  std::atomic<int> mismatches{0};
  std::mutex report_mutex;
  std::string first_mismatch;
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&, t] {
      const std::vector<std::string> paths = {"pkg/core.py", "pkg/medium.py", "README.md"};
      for (size_t i = static_cast<size_t>(t); !done; ++i) {
        const std::string& path = paths[i % paths.size()];
        // Half the reads make the kernel fetch every page again: any page served from another
        // version than the size the kernel holds would show.
        const WholeRead got = read_whole(m(path), (i / paths.size()) % 2 == 0);
        const std::vector<std::string>& allowed = versions.at(path);
        const bool one_version =
            std::find(allowed.begin(), allowed.end(), got.bytes) != allowed.end();
        const bool sizes_agree =
            got.size == static_cast<off_t>(got.bytes.size()) && got.size_after == got.size;
        ++reads;
        if (!got.error.empty() || !one_version || !sizes_agree) {
          if (++mismatches == 1) {
            std::lock_guard<std::mutex> lock(report_mutex);
            first_mismatch = path + ": error '" + got.error + "', fstat " +
                             std::to_string(got.size) + " then " + std::to_string(got.size_after) +
                             ", read " + std::to_string(got.bytes.size()) + " bytes, one version " +
                             std::to_string(one_version);
          }
        }
      }
    });
  }
  std::mt19937 rng(11);
  for (int swap = 0; swap < 200; ++swap) {
    const bool to_b = swap % 2 == 0;
    mount_->server().replace_snapshot(to_b ? snapshot_b : snapshot_a);
    if (swap % 25 == 0) {
      // Each swap is visible in full as soon as replace_snapshot() returns.
      const std::string& want = versions.at("pkg/core.py")[to_b ? 1 : 0];
      const WholeRead now = read_whole(m("pkg/core.py"));
      EXPECT_EQ(now.bytes, want) << "after swap " << swap;
      EXPECT_EQ(now.size, static_cast<off_t>(want.size())) << "after swap " << swap;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500 + rng() % 4500));
  }
  done = true;
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(mismatches.load(), 0) << "of " << reads.load() << " reads; first: " << first_mismatch;
  EXPECT_GT(reads.load(), 100);
  EXPECT_TRUE(retired_versions_released(*mount_))
      << mount_->server().stats().retired_inodes << " old versions still held after every "
      << "reader closed its files";
}

// A reader holding a file across a swap keeps its version: same inode, size and bytes, even for
// pages the kernel must fetch again; the next open sees the new version. Closing releases it.
TEST_F(MountTest, AnOpenFileKeepsItsVersionAcrossSwaps) {
  const std::string old_view = expected("pkg/big.py");
  const int fd = ::open(m("pkg/big.py").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  char head[4096];
  ASSERT_EQ(::pread(fd, head, sizeof head, 0), static_cast<ssize_t>(sizeof head));
  struct stat before {};
  ASSERT_EQ(::fstat(fd, &before), 0);

  plans_["pkg/big.py"] = {{0, "# a different, longer file tag\n"}, {1'000'000, "# mid\n"}};
  mount_->server().replace_snapshot(snapshot());
  const std::string new_view = expected("pkg/big.py");
  ASSERT_NE(new_view.size(), old_view.size());
  EXPECT_GE(mount_->server().stats().retired_inodes, 1u);

  // Drop the old pages so the kernel must ask the daemon for them again.
  ASSERT_EQ(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  const uint64_t reads_before = mount_->server().stats().reads;
  struct stat held {};
  ASSERT_EQ(::fstat(fd, &held), 0);
  EXPECT_EQ(held.st_ino, before.st_ino);
  EXPECT_EQ(held.st_size, before.st_size);
  std::string again(old_view.size() + 100, '\0');
  ssize_t total = 0;
  for (ssize_t n = 1; n > 0; total += n) {
    n = ::pread(fd, again.data() + total, again.size() - static_cast<size_t>(total), total);
    ASSERT_GE(n, 0) << std::strerror(errno);
  }
  again.resize(static_cast<size_t>(total));
  EXPECT_TRUE(again == old_view) << "the held file changed under its reader";
  EXPECT_GT(mount_->server().stats().reads, reads_before) << "the old version was served again";

  const WholeRead fresh = read_whole(m("pkg/big.py"));
  EXPECT_TRUE(fresh.bytes == new_view);
  EXPECT_EQ(fresh.size, static_cast<off_t>(new_view.size()));
  struct stat now {};
  ASSERT_EQ(::stat(m("pkg/big.py").c_str(), &now), 0);
  EXPECT_NE(now.st_ino, before.st_ino);

  ::close(fd);
  EXPECT_TRUE(retired_versions_released(*mount_));
  EXPECT_GT(mount_->server().stats().forgets, 0u);
}

TEST_F(MountTest, AWarmPassAfterSwapsSendsTheDaemonNothing) {
  auto pass = [this] {
    for (const std::string dir : {"", "pkg", ".git"}) list_dir(m(dir));
    for (const std::string& path : kRegularFiles) read_file(m(path));
  };
  pass();
  for (int i = 0; i < 5; ++i) {
    plans_["pkg/core.py"] = {{0, "# swap " + std::to_string(i) + "\n"}};
    mount_->server().replace_snapshot(snapshot());
  }
  pass();
  EXPECT_EQ(read_file(m("pkg/core.py")), expected("pkg/core.py"));
  const ServerStats after_refill = mount_->server().stats();
  pass();
  const ServerStats warm = mount_->server().stats();
  EXPECT_EQ(warm.requests, after_refill.requests)
      << "lookups +" << warm.lookups - after_refill.lookups << ", reads +"
      << warm.reads - after_refill.reads << ", readdirs +" << warm.readdirs - after_refill.readdirs;
}

TEST(MountListing, LargeDirectoriesAndOddNamesListAndResolve) {
  test::TempDir src("anchorfs-src");
  test::TempDir mnt("anchorfs-mnt");
  std::set<std::string> names;
  for (int i = 0; i < 3000; ++i)
    names.insert("module_with_a_long_name_" + std::to_string(i) + ".py");
  names.insert("with space.py");
  names.insert("\xc3\xa9t\xc3\xa9.py");
  names.insert("-dash");
  for (const std::string& name : names) write_file(src / ("big/" + name), name);
  test::LiveMount mount(make_snapshot(analysis::scan_tree(src.path()), {}), mnt.path());
  std::set<std::string> listed = list_dir(mount / "big");
  listed.erase(".");
  listed.erase("..");
  EXPECT_EQ(listed, names);
  for (const std::string name :
       {"with space.py", "\xc3\xa9t\xc3\xa9.py", "-dash", "module_with_a_long_name_2999.py"}) {
    EXPECT_EQ(read_file(mount / ("big/" + name)), name);
  }
}

TEST(MountDevices, DeviceNodesShowTheirDeviceNumbers) {
  test::TempDir src("anchorfs-src");
  test::TempDir mnt("anchorfs-mnt");
  ASSERT_EQ(::mknod((src / "null").c_str(), S_IFCHR | 0644, makedev(1, 3)), 0)
      << std::strerror(errno) << " (creating device nodes needs CAP_MKNOD)";
  test::LiveMount mount(make_snapshot(analysis::scan_tree(src.path()), {}), mnt.path());
  struct stat st {};
  ASSERT_EQ(::lstat((mount / "null").c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(st.st_rdev, makedev(1, 3));
}

TEST(MountLifecycle, StopBeforeRunEndsRunAtOnceAndUnmounts) {
  test::TempDir src("anchorfs-src");
  test::TempDir mnt("anchorfs-mnt");
  write_file(src / "a.py", "x\n");
  ServerOptions options;
  options.mountpoint = mnt.path();
  options.max_threads = 2;
  Server server(make_snapshot(analysis::scan_tree(src.path()), {}), options);
  server.mount();
  ASSERT_TRUE(test::is_mounted(mnt.path()));
  server.stop();
  EXPECT_EQ(server.run(), 0);
  EXPECT_FALSE(test::is_mounted(mnt.path()));
}

TEST(MountLifecycle, CallerChosenFsnameIsKept) {
  test::TempDir src("anchorfs-src");
  test::TempDir mnt("anchorfs-mnt");
  ServerOptions options;
  options.fuse_options = {"fsname=" + src.path()};
  test::LiveMount mount(make_snapshot(analysis::scan_tree(src.path()), {}), mnt.path(), options);
  bool found = false;
  for (const test_support::MountEntry& entry : test_support::mount_table()) {
    if (entry.mount_point != mnt.path()) continue;
    found = true;
    EXPECT_EQ(entry.fstype, "fuse.anchorfs");
    EXPECT_EQ(entry.source, src.path());
    EXPECT_TRUE(entry.super_options.starts_with("ro,")) << entry.super_options;
  }
  EXPECT_TRUE(found);
}

TEST(MountErrors, MissingMountpointIsAClearError) {
  test::TempDir src("anchorfs-src");
  write_file(src / "a.py", "x\n");
  ServerOptions options;
  options.mountpoint = src / "no/such/dir";
  Server server(make_snapshot(analysis::scan_tree(src.path()), {}), options);
  try {
    server.mount();
    FAIL() << "mount succeeded";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("no/such/dir"), std::string::npos) << error.what();
  }
}

TEST(MountErrors, ReadWriteOptionIsRefused) {
  test::TempDir src("anchorfs-src");
  test::TempDir mnt("anchorfs-mnt");
  ServerOptions options;
  options.mountpoint = mnt.path();
  options.fuse_options = {"allow_other,rw"};
  Server server(make_snapshot(analysis::scan_tree(src.path()), {}), options);
  EXPECT_THROW(server.mount(), std::runtime_error);
  EXPECT_FALSE(test::is_mounted(mnt.path()));
}

// A writable mount reads an untagged file in place, opening it again for each read: what stops
// that open reaches the reader as itself (the file is gone: ENOENT), never a blanket EIO.
TEST(WritableMountErrors, AFileRemovedUnderAnOpenReaderGivesEnoent) {
  test::TempDir src("anchorfs-src");
  test::TempDir mnt("anchorfs-mnt");
  write_file(src / "notes.txt", "hello\n");
  ServerOptions options;
  options.writable = true;
  test::LiveMount mount(make_snapshot(analysis::scan_tree(src.path()), {}), mnt.path(), options);
  const int fd = ::open((mnt / "notes.txt").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  ASSERT_EQ(::unlink((src / "notes.txt").c_str()), 0);
  char buffer[16];
  errno = 0;
  EXPECT_EQ(::read(fd, buffer, sizeof buffer), -1);
  EXPECT_EQ(errno, ENOENT) << std::strerror(errno);
  ::close(fd);
}

}  // namespace
}  // namespace anchorfs::fs
