// Mounts each hostile-corpus category with the real daemon and checks what every file serves.
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "render/tag_plan.h"
#include "tests/hostile/support/corpus.h"
#include "tests/hostile/support/mount_session.h"
#include "tests/hostile/support/process.h"
#include "tests/hostile/support/tree_walk.h"

namespace anchorfs::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kCategories[] = {
    "syntax_errors", "partial_code",     "nul_bytes",     "invalid_utf8",   "bom",
    "line_endings",  "whitespace",       "continuations", "deep_nesting",   "huge_file",
    "long_line",     "long_identifiers", "many_files",    "odd_names",      "symlinks",
    "special_files", "unreadable",       "binary_py",     "tag_lookalikes",
};
// Names the analysis may only know by following a symlink out of the repository.
constexpr const char* kOutsideNames[] = {"outside_secret_function", "OutsideSecretClass",
                                         "outside_package_function"};

size_t count_of(const std::string& haystack, const std::string& needle) {
  size_t count = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

std::string parent_of(const std::string& rel) {
  const size_t slash = rel.rfind('/');
  return slash == std::string::npos ? "" : rel.substr(0, slash);
}

// The daemon runs as root without DAC capabilities, and the corpus is root-owned, so the owner
// permission bits decide what it can list and read.
class DaemonAccess {
 public:
  DaemonAccess(const Walk& source, mode_t root_mode) : source_(source), root_mode_(root_mode) {}

  bool can_list(const std::string& dir) const {
    const mode_t mode = mode_of(dir);
    return (mode & S_IRUSR) && (mode & S_IXUSR) && can_reach(dir);
  }
  bool can_read(const std::string& file) const {
    return (mode_of(file) & S_IRUSR) && can_list(parent_of(file));
  }
  // Listed by the scan: its directory could be listed and searched.
  bool listed(const std::string& rel) const { return can_list(parent_of(rel)); }

 private:
  mode_t mode_of(const std::string& rel) const {
    if (rel.empty()) return root_mode_;
    const auto found = source_.nodes.find(rel);
    return found == source_.nodes.end() ? 0 : found->second.mode;
  }
  bool can_reach(const std::string& dir) const {
    for (std::string at = dir; !at.empty(); at = parent_of(at)) {
      if (!(mode_of(parent_of(at)) & S_IXUSR)) return false;
    }
    return true;
  }

  const Walk& source_;
  mode_t root_mode_;
};

// Reports opens of anything in the directories outside the repository that symlinks point to.
class OutsideWatch {
 public:
  explicit OutsideWatch(const std::string& outside) {
    if (!std::filesystem::is_directory(outside)) return;
    fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    for (const auto& entry : std::filesystem::recursive_directory_iterator(outside)) {
      if (entry.is_directory()) ::inotify_add_watch(fd_, entry.path().c_str(), kMask);
    }
    ::inotify_add_watch(fd_, outside.c_str(), kMask);
    events();  // our own directory walk above is not what we are watching for
  }
  ~OutsideWatch() {
    if (fd_ >= 0) ::close(fd_);
  }
  // Names of what was opened or read ("(dir)" for a watched directory itself).
  std::vector<std::string> events() const {
    std::vector<std::string> names;
    if (fd_ < 0) return names;
    alignas(inotify_event) char buffer[8192];
    for (;;) {
      const ssize_t n = ::read(fd_, buffer, sizeof buffer);
      if (n <= 0) break;
      for (ssize_t at = 0; at < n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        names.push_back(event->len > 0 ? std::string(event->name) : std::string("(dir)"));
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      }
    }
    return names;
  }

 private:
  static constexpr uint32_t kMask = IN_OPEN | IN_ACCESS;
  int fd_ = -1;
};

struct FileTally {
  size_t listed = 0;
  size_t read = 0;
  size_t tagged = 0;
  size_t unchanged = 0;
  size_t refused = 0;
  size_t cli_stripped = 0;  // tagged files also checked through `anchorfs strip MNT/FILE`
};

constexpr size_t kCliStripChecks = 20;

class HostileCorpus : public ::testing::TestWithParam<const char*> {};

// Every listed regular file: readable as far as the source allows, never a wrong byte.
void check_file(const Category& category, const std::string& mnt, const std::string& rel,
                const Node& served_node, const DaemonAccess& access, FileTally& tally) {
  const std::set<std::string> none;
  const auto found = category.expect.find(rel);
  const std::set<std::string>& expect = found == category.expect.end() ? none : found->second;
  const ReadResult source = read_file(category.repo + "/" + rel);
  ASSERT_EQ(source.error, 0) << printable(rel) << ": the test itself cannot read the source";
  const ReadResult served = read_file(mnt + "/" + rel);
  if (!access.can_read(rel) || expect.count("error")) {
    EXPECT_TRUE(served.error == EACCES || served.error == EPERM || served.error == EIO)
        << printable(rel) << ": unreadable source should fail with EACCES/EIO, got "
        << (served.error ? std::strerror(served.error) : "its bytes");
    ++tally.refused;
    return;
  }
  ASSERT_EQ(served.error, 0) << printable(rel) << ": " << std::strerror(served.error);
  ++tally.read;
  EXPECT_EQ(served_node.size, served.bytes.size())
      << printable(rel) << ": st_size disagrees with the bytes served";
  if (served.bytes == source.bytes) {
    ++tally.unchanged;
    EXPECT_FALSE(expect.count("tagged")) << printable(rel) << ": expected tags, served unchanged";
    return;
  }
  ++tally.tagged;
  EXPECT_FALSE(expect.count("unchanged") || expect.count("skipped"))
      << printable(rel) << ": expected to be served unchanged, but it was rewritten";
  const std::string stripped = render::strip(served.bytes);
  EXPECT_TRUE(stripped == source.bytes)
      << printable(rel)
      << ": strip(served) != source: " << describe_difference(source.bytes, stripped);
  if (tally.cli_stripped < kCliStripChecks) {
    ++tally.cli_stripped;
    const RunResult cli = run({anchorfs_binary(), "strip", mnt + "/" + rel}, 60s);
    EXPECT_TRUE(cli.status.ok()) << printable(rel) << ": anchorfs strip: " << cli.err;
    EXPECT_TRUE(cli.out == source.bytes)
        << printable(rel)
        << ": anchorfs strip differs: " << describe_difference(source.bytes, cli.out);
  }
  for (const char* name : kOutsideNames) {
    EXPECT_EQ(count_of(served.bytes, name), count_of(source.bytes, name))
        << printable(rel) << ": tags mention " << name
        << ", which only a symlink out of the repository defines";
  }
}

TEST_P(HostileCorpus, MountServesEveryFileAsFarAsTheSourceAllows) {
  TempDir tmp(std::string("hostile-") + GetParam());
  const Category category = generate_category(GetParam(), tmp.path());
  const std::string mnt = tmp.path() + "/mnt";
  ASSERT_EQ(::mkdir(mnt.c_str(), 0755), 0);
  const std::string before = tree_fingerprint(category.repo);
  const Walk source = walk_tree(category.repo);
  struct stat root_stat {};
  ASSERT_EQ(::stat(category.repo.c_str(), &root_stat), 0);
  const DaemonAccess access(source, root_stat.st_mode);
  OutsideWatch outside_watch(category.outside);

  FileTally tally;
  std::string log;
  {
    MountSession session(category.repo, mnt);
    // Any single category must finish well within this; a hang kills the daemon and fails.
    Watchdog watchdog((corpus_mode() == "long" ? 1800s : 240s) * timeout_scale(),
                      [&] { session.abort(); });
    const Walk mounted = walk_tree(mnt);
    for (const auto& [rel, node] : source.nodes) {
      if (!access.listed(rel)) continue;
      const auto served = mounted.nodes.find(rel);
      if (served == mounted.nodes.end()) {
        ADD_FAILURE() << printable(rel) << ": in the source but not listed by the mount";
        continue;
      }
      ++tally.listed;
      EXPECT_EQ(node.mode & S_IFMT, served->second.mode & S_IFMT) << printable(rel) << ": type";
      EXPECT_EQ(node.link_target, served->second.link_target) << printable(rel) << ": symlink";
    }
    for (const auto& [rel, node] : mounted.nodes) {
      EXPECT_TRUE(source.nodes.count(rel)) << printable(rel) << ": listed but not in the source";
    }
    for (const auto& [rel, error] : mounted.unlistable_dirs) {
      EXPECT_FALSE(access.can_list(rel))
          << printable(rel) << ": cannot list through the mount: " << std::strerror(error);
    }
    for (const auto& [rel, node] : mounted.nodes) {
      if (S_ISREG(node.mode) && source.nodes.count(rel)) {
        check_file(category, mnt, rel, node, access, tally);
      }
    }
    const RunResult ast = run({"python3", ANCHORFS_AST_CHECK, category.repo, mnt},
                              corpus_mode() == "long" ? 1200s : 180s);
    EXPECT_TRUE(ast.status.ok() && !ast.timed_out) << ast.out << ast.err;
    std::cout << "[ " << category.name << " ] " << ast.out;

    EXPECT_TRUE(session.daemon_running()) << "daemon died while serving:\n" << session.log();
    const RunResult unmounted = session.unmount();
    EXPECT_TRUE(unmounted.status.ok()) << unmounted.err;
    const auto status = session.wait_daemon(20s);
    ASSERT_TRUE(status.has_value()) << "daemon still running 20 s after unmount";
    EXPECT_TRUE(status->ok()) << "daemon " << status->describe() << ":\n" << session.log();
    EXPECT_FALSE(watchdog.expired()) << "a request hung; the watchdog killed the daemon";
    log = session.log();
    std::cout << "[ " << category.name << " ] mount ready in " << session.startup_seconds()
              << " s; " << tally.listed << " entries listed, " << tally.read << " files read ("
              << tally.tagged << " tagged, " << tally.unchanged << " unchanged), " << tally.refused
              << " refused as the source allows\n";
  }
  for (const auto& [rel, expect] : category.expect) {
    if (expect.count("skipped") || expect.count("error")) {
      EXPECT_NE(log.find(rel), std::string::npos)
          << printable(rel) << ": --verbose does not say it was skipped; log:\n"
          << log;
    }
  }
  for (const auto& problem_dir : {std::string("locked"), std::string("no_list")}) {
    if (source.nodes.count(problem_dir) && !access.can_list(problem_dir)) {
      EXPECT_NE(log.find(problem_dir), std::string::npos)
          << problem_dir << ": --verbose does not report the unlistable directory";
    }
  }
  const std::vector<std::string> opened_outside = outside_watch.events();
  EXPECT_TRUE(opened_outside.empty())
      << "something opened files outside the repository through a symlink: "
      << ::testing::PrintToString(opened_outside);
  EXPECT_EQ(before, tree_fingerprint(category.repo)) << "the source tree changed";
  RecordProperty("tagged", static_cast<int>(tally.tagged));
  RecordProperty("unchanged", static_cast<int>(tally.unchanged));
}

INSTANTIATE_TEST_SUITE_P(Categories, HostileCorpus, ::testing::ValuesIn(kCategories),
                         [](const auto& param_info) { return std::string(param_info.param); });

TEST(HostileCorpusList, CoversEveryGeneratorCategory) {
  std::vector<std::string> expected(std::begin(kCategories), std::end(kCategories));
  expected.push_back("mutations");  // driven by its own test (hostile_faults_test.cpp)
  std::vector<std::string> generated = all_categories();
  std::sort(expected.begin(), expected.end());
  std::sort(generated.begin(), generated.end());
  EXPECT_EQ(expected, generated);
}

}  // namespace
}  // namespace anchorfs::testing
