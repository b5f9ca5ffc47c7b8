// Real git inside real mounts: git sees the checkout's bytes (issue 11, "Git transparency").
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "support.h"

namespace anchorfs::itest {
namespace {

using namespace std::chrono_literals;

// git with no user or system configuration, fixed identities and dates: the same output in the
// checkout and in the mount.
ProcessResult git(const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"git", "-C", dir};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, in_dir(dir, {{"GIT_CONFIG_GLOBAL", "/dev/null"},
                                {"GIT_CONFIG_NOSYSTEM", "1"},
                                {"GIT_AUTHOR_NAME", "A"},
                                {"GIT_AUTHOR_EMAIL", "a@example.org"},
                                {"GIT_COMMITTER_NAME", "C"},
                                {"GIT_COMMITTER_EMAIL", "c@example.org"},
                                {"GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z"},
                                {"GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z"},
                                {"GIT_CEILING_DIRECTORIES", "/tmp"},
                                {"LC_ALL", "C"}}));
}

// `git hash-object --stdin --path PATH` in `dir`: the blob git would store for `content` at PATH
// (through the clean filter the directory's configuration names).
std::string hash_as(const std::string& dir, const std::string& path, std::string content) {
  RunOptions options = in_dir(dir, {{"GIT_CONFIG_GLOBAL", "/dev/null"},
                                    {"GIT_CONFIG_NOSYSTEM", "1"},
                                    {"GIT_CEILING_DIRECTORIES", "/tmp"},
                                    {"LC_ALL", "C"}});
  options.input = std::move(content);
  const ProcessResult result =
      run({"git", "-C", dir, "hash-object", "--stdin", "--path", path}, options);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return result.out;
}

std::string git_ok(const std::string& dir, const std::vector<std::string>& args) {
  const ProcessResult result = git(dir, args);
  EXPECT_EQ(result.exit_code, 0) << "git " << args.front() << " in " << dir << ": " << result.err;
  return result.out;
}

// The sample project as a repository with two commits (so log -p and blame have history).
void make_repository(const std::string& repo) {
  copy_tree(kSampleProject, repo);
  git_ok(repo, {"init", "-q", "-b", "main"});
  git_ok(repo, {"add", "-A"});
  git_ok(repo, {"commit", "-q", "-m", "first"});
  const std::string services = repo + "/bookshelf/services.py";
  std::string text = read_file(services);
  text.replace(text.find("days=14"), 7, "days=15");
  write_file(services, text);
  git_ok(repo, {"commit", "-q", "-am", "second"});
}

bool has_tags(const std::string& text) {
  return text.find(" Annotation ===") != std::string::npos;
}

// One read-only mount of a clean repository, shared by the tests that only read.
class GitInMount : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("anchorfs-git");
    repo_ = *dir_ / "repo";
    mnt_ = *dir_ / "mnt";
    make_repository(repo_);
    make_dirs(mnt_);
    mount_ = new Mount(repo_, mnt_, {"--no-cache"});
  }
  static void TearDownTestSuite() {
    delete mount_;
    delete dir_;
  }
  void SetUp() override {
    ASSERT_TRUE(mount_->ok()) << mount_->result().err;
    ASSERT_TRUE(has_tags(read_file(mnt_ + "/bookshelf/services.py")));
  }

  static TempDir* dir_;
  static Mount* mount_;
  static std::string repo_, mnt_;
};

TempDir* GitInMount::dir_ = nullptr;
Mount* GitInMount::mount_ = nullptr;
std::string GitInMount::repo_, GitInMount::mnt_;

TEST_F(GitInMount, StatusIsCleanAndDiffIsEmpty) {
  EXPECT_EQ(git_ok(mnt_, {"status", "--porcelain"}), "");
  EXPECT_EQ(git_ok(mnt_, {"diff"}), "");
  EXPECT_EQ(git_ok(mnt_, {"diff", "--stat"}), "");
  EXPECT_EQ(git(mnt_, {"diff", "--quiet"}).exit_code, 0);
  EXPECT_NE(git_ok(mnt_, {"status"}).find("nothing to commit, working tree clean"),
            std::string::npos);
}

// git reads as many bytes as its lstat said. Right after a change (a branch switch) a file is
// served untagged until the refresh re-tags it; a re-tag between git's lstat and its read hands
// git the start of the tagged view. The filter must store the checkout's bytes for every such
// cut, or `git status` lists an unchanged file as modified (it listed about 180 of 300 files
// after a branch switch in a writable mount).
TEST_F(GitInMount, TheFilterStoresTheCheckoutsBytesForAViewCutShort) {
  const std::string path = "bookshelf/services.py";
  const std::string view = read_file(mnt_ + "/" + path);
  const std::string checkout = read_file(repo_ + "/" + path);
  const std::string expected = git_ok(repo_, {"hash-object", path});
  ASSERT_GT(view.size(), checkout.size());
  // The size git saw before the re-tag, then the first 40 lines' starts and insides (the file's
  // block, code, and the blocks of the first definitions).
  std::vector<size_t> cuts{checkout.size()};
  size_t line = 0;
  for (int n = 0; n < 40 && line < view.size(); ++n, line = view.find('\n', line) + 1) {
    cuts.push_back(line);
    cuts.push_back(std::min(line + 6, view.size()));  // inside the line: its indent or marker
    if (view.find('\n', line) == std::string::npos) break;
  }
  size_t wrong = 0;
  for (const size_t cut : cuts) {
    if (hash_as(mnt_, path, view.substr(0, cut)) != expected && wrong++ == 0) {
      ADD_FAILURE() << "cut at byte " << cut << " of " << view.size()
                    << ": not the checkout's bytes";
    }
  }
  EXPECT_EQ(wrong, 0u) << "of " << cuts.size() << " cuts";
}

TEST_F(GitInMount, HistoryBlameShowAndCachedGrepAreTheCheckouts) {
  const std::vector<std::vector<std::string>> commands = {
      {"log", "-p"},
      {"log", "--stat", "--oneline"},
      {"show", "HEAD:bookshelf/services.py"},
      {"show", "HEAD"},
      {"blame", "bookshelf/services.py"},
      {"blame", "-n", "bookshelf/models.py"},
      {"diff", "HEAD~1"},
      {"diff", "HEAD~1", "--stat"},
      {"grep", "--cached", "-n", "def "},
      {"grep", "-n", "def ", "HEAD"},
      {"grep", "-n", "def "},
      {"grep", "-c", "return"},
      {"ls-files", "-s"},
      {"stash", "list"},
      {"rev-parse", "HEAD"},
  };
  for (const std::vector<std::string>& command : commands) {
    const std::string in_checkout = git_ok(repo_, command);
    EXPECT_EQ(git_ok(mnt_, command), in_checkout) << "git " << command[0] << " " << command[1];
    EXPECT_FALSE(has_tags(in_checkout)) << command[0];
  }
}

// Unmodified files are served "assume unchanged" in the index, so a worktree `git grep` searches
// the indexed blobs, which are the checkout's bytes: it never finds a tag line.
TEST_F(GitInMount, WorktreeGrepNeverFindsATagLine) {
  const ProcessResult grep = git(mnt_, {"grep", "-n", "Annotation ==="});
  EXPECT_EQ(grep.exit_code, 1) << grep.out;
  EXPECT_EQ(grep.out, "");
  EXPECT_NE(read_file(mnt_ + "/bookshelf/models.py").find("Annotation ==="), std::string::npos);
}

TEST_F(GitInMount, TheFilterIsConfiguredInTheViewOnly) {
  const std::string origin = git_ok(mnt_, {"config", "--show-origin", "filter.anchorfs.process"});
  EXPECT_NE(origin.find("file:.git/config"), std::string::npos) << origin;
  EXPECT_NE(origin.find("git-filter --checkout"), std::string::npos) << origin;
  EXPECT_EQ(git_ok(mnt_, {"check-attr", "filter", "--", "bookshelf/models.py"}),
            "bookshelf/models.py: filter: anchorfs\n");
  EXPECT_EQ(git_ok(mnt_, {"check-attr", "filter", "--", "README.md"}),
            "README.md: filter: unspecified\n");
  EXPECT_EQ(git(repo_, {"config", "filter.anchorfs.process"}).exit_code, 1);
  EXPECT_EQ(git_ok(repo_, {"check-attr", "filter", "--", "bookshelf/models.py"}),
            "bookshelf/models.py: filter: unspecified\n");
}

TEST_F(GitInMount, GitInTheMountChangesNothingInTheCheckoutsGitDirectory) {
  const std::string before = tree_fingerprint(repo_ + "/.git");
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"status"},
                                             {"diff"},
                                             {"blame", "bookshelf/services.py"},
                                             {"log", "-p"},
                                             {"add", "-A"},
                                             {"stash"}}) {
    git(mnt_, command);  // writes fail in a read-only mount; nothing else must happen
  }
  EXPECT_EQ(tree_fingerprint(repo_ + "/.git"), before);
  EXPECT_EQ(git_ok(mnt_, {"status", "--porcelain"}), "");
}

TEST_F(GitInMount, MapTranslatesLinesBothWays) {
  const std::string view = read_file(mnt_ + "/bookshelf/services.py");
  const std::string checkout = read_file(repo_ + "/bookshelf/services.py");
  auto line_of = [](const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
  };
  const size_t view_line = line_of(view, "    def lend(");
  const size_t checkout_line = line_of(checkout, "    def lend(");
  ASSERT_GT(view_line, checkout_line);  // tags above it in the view
  const std::string spec = "bookshelf/services.py:";
  ProcessResult mapped = anchorfs({"map", mnt_, spec + std::to_string(view_line)});
  EXPECT_EQ(mapped.exit_code, 0) << mapped.err;
  EXPECT_EQ(mapped.out, spec + std::to_string(checkout_line) + "\n");
  mapped = anchorfs({"map", mnt_, spec + std::to_string(checkout_line), "--to", "view"});
  EXPECT_EQ(mapped.out, spec + std::to_string(view_line) + "\n");
  // From the repository (rendered with the same default view), no mount needed.
  mapped =
      anchorfs({"map", repo_, spec + std::to_string(checkout_line), "--to", "view", "--no-cache"});
  EXPECT_EQ(mapped.out, spec + std::to_string(view_line) + "\n") << mapped.err;
  // A tag line maps to the code it describes.
  const size_t tag_line = line_of(view,
                                  "    # === Function Annotation ===\n    # function: "
                                  "bookshelf/services.py:LendingService.lend");
  mapped = anchorfs({"map", mnt_, spec + std::to_string(tag_line)});
  EXPECT_EQ(mapped.out, spec + std::to_string(checkout_line - 2) + "\n");  // decorators first
  EXPECT_NE(mapped.err.find("tag line"), std::string::npos);
  EXPECT_NE(anchorfs({"map", mnt_, spec + "100000"}).exit_code, 0);
}

TEST(GitView, AnEditInTheCheckoutShowsOnlyItsOwnLines) {
  TempDir dir("anchorfs-git-edit");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  make_repository(repo);
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  const std::string services = repo + "/bookshelf/services.py";
  std::string text = read_file(services);
  text.replace(text.find("days=15"), 7, "days=30");
  text += "\n\ndef added_helper():\n    return LendingService()\n";
  write_file(services, text);
  // Until the refresh swaps the snapshot the mount serves the old version (its attributes, and
  // the index that matches them); a stale page would end in padding instead of the new last line.
  ASSERT_TRUE(wait_until(30s, [&] {
    const std::string view = read_file_if_readable(mnt + "/bookshelf/services.py");
    return view.ends_with("def added_helper():\n    return LendingService()\n") &&
           view.find("days=30") != std::string::npos;
  }));
  const std::string diff = git_ok(repo, {"diff"});
  ASSERT_NE(diff.find("+def added_helper"), std::string::npos);
  EXPECT_EQ(git_ok(mnt, {"diff"}), diff);
  EXPECT_EQ(git_ok(mnt, {"diff", "--stat"}), git_ok(repo, {"diff", "--stat"}));
  EXPECT_EQ(git_ok(mnt, {"status", "--porcelain"}), " M bookshelf/services.py\n");
  // -s: lines not committed yet are stamped with the current time, which may tick between the
  // two commands.
  EXPECT_EQ(git_ok(mnt, {"blame", "-s", "bookshelf/services.py"}),
            git_ok(repo, {"blame", "-s", "bookshelf/services.py"}));
}

TEST(GitView, ALinkedWorktreeIsARepositoryInTheMount) {
  TempDir dir("anchorfs-git-worktree");
  const std::string repo = dir / "repo", worktree = dir / "wt", mnt = dir / "mnt";
  make_repository(repo);
  git_ok(repo, {"worktree", "add", "-q", "-b", "feature", worktree, "HEAD~1"});
  make_dirs(mnt);
  const std::string main_git = tree_fingerprint(repo + "/.git");
  Mount mount(worktree, mnt, {"--no-cache"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  ASSERT_TRUE(has_tags(read_file(mnt + "/bookshelf/services.py")));
  EXPECT_EQ(git_ok(mnt, {"status", "--porcelain"}), "");
  EXPECT_EQ(git_ok(mnt, {"diff"}), "");
  EXPECT_EQ(git_ok(mnt, {"rev-parse", "--abbrev-ref", "HEAD"}), "feature\n");
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"log", "-p", "--all"},
                                             {"blame", "bookshelf/services.py"},
                                             {"show", "main:bookshelf/services.py"},
                                             {"rev-parse", "HEAD", "main"}}) {
    EXPECT_EQ(git_ok(mnt, command), git_ok(worktree, command)) << command[0];
  }
  EXPECT_EQ(tree_fingerprint(repo + "/.git"), main_git);
}

// The repository with a second one nested in `vendor` (its own `.git` directory, untracked by
// the top one); returns the nested repository's path.
std::string make_nested_repository(const std::string& repo) {
  make_repository(repo);
  const std::string nested = repo + "/vendor";
  copy_tree(kSampleProject, nested);
  git_ok(nested, {"init", "-q", "-b", "main"});
  git_ok(nested, {"add", "-A"});
  git_ok(nested, {"commit", "-q", "-m", "vendored"});
  return nested;
}

TEST(GitView, ANestedRepositorySeesTheCheckoutsBytes) {
  TempDir dir("anchorfs-git-nested");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  const std::string nested = make_nested_repository(repo);
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  ASSERT_TRUE(has_tags(read_file(mnt + "/vendor/bookshelf/services.py")));
  EXPECT_EQ(git_ok(mnt + "/vendor", {"status", "--porcelain"}), "");
  EXPECT_EQ(git_ok(mnt + "/vendor", {"diff"}), "");
  EXPECT_EQ(git_ok(mnt, {"status", "--porcelain"}), "?? vendor/\n");
}

// Every change made through or beside the writable mount at `mnt` is refreshed and published.
void settle(const std::string& mnt) {
  char value[32];
  ASSERT_GE(::getxattr(mnt.c_str(), "user.anchorfs.settled", value, sizeof value), 0)
      << std::strerror(errno);
}

TEST(GitView, ACommitInANestedRepositoryOfAWritableMountHasNoTagLines) {
  TempDir dir("anchorfs-git-nested-write");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  const std::string nested = make_nested_repository(repo);
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache", "--writable"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  const std::string file = "/vendor/bookshelf/services.py";
  std::string text = read_file(mnt + file);
  ASSERT_TRUE(has_tags(text));
  EXPECT_EQ(git_ok(mnt + "/vendor", {"status", "--porcelain"}), "");
  text.replace(text.find("days=14"), 7, "days=21");
  write_file(mnt + file, text);
  // Git starts once the re-tag is published (the daemon says so; a deadline on polling the view
  // fails on a loaded machine): git lstats, then reads st_size bytes, and a re-tag in between
  // shows it a modified or cut file.
  settle(mnt);
  const std::string view = read_file(mnt + file);
  EXPECT_TRUE(has_tags(view) && view.find("days=21") != std::string::npos) << view;
  EXPECT_EQ(git_ok(mnt + "/vendor", {"status", "--porcelain"}), " M bookshelf/services.py\n");
  git_ok(mnt + "/vendor", {"commit", "-q", "-am", "edited"});
  const std::string committed = git_ok(nested, {"show", "HEAD:bookshelf/services.py"});
  EXPECT_FALSE(has_tags(committed));
  EXPECT_NE(committed.find("days=21"), std::string::npos);
  EXPECT_EQ(committed, read_file(nested + file.substr(std::string("/vendor").size())));
  EXPECT_EQ(git_ok(nested, {"status", "--porcelain"}), "");
  const std::string config = read_file(nested + "/.git/config");
  EXPECT_EQ(config.find("anchorfs"), std::string::npos) << config;
}

// The repository with the sample project added as a submodule at `lib` (its `.git` a "gitdir:"
// file into `.git/modules/lib`, whose core.worktree is relative), committed; returns the
// submodule's path in the checkout.
std::string make_submodule(const std::string& dir, const std::string& repo) {
  make_repository(repo);
  const std::string origin = dir + "/origin";
  make_repository(origin);
  git_ok(repo, {"-c", "protocol.file.allow=always", "submodule", "add", "-q", origin, "lib"});
  git_ok(repo, {"commit", "-q", "-m", "submodule"});
  EXPECT_TRUE(read_file(repo + "/lib/.git").starts_with("gitdir: ../.git/modules/lib"));
  return repo + "/lib";
}

TEST(GitView, ASubmoduleSeesTheCheckoutsBytes) {
  TempDir dir("anchorfs-git-submodule");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  const std::string sub = make_submodule(dir.path(), repo);
  const std::string modules = tree_fingerprint(repo + "/.git/modules");
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  ASSERT_TRUE(has_tags(read_file(mnt + "/lib/bookshelf/services.py")));
  EXPECT_EQ(git_ok(mnt + "/lib", {"status", "--porcelain"}), "");
  EXPECT_EQ(git_ok(mnt + "/lib", {"diff"}), "");
  EXPECT_EQ(git_ok(mnt + "/lib", {"rev-parse", "--show-toplevel"}), mnt + "/lib\n");
  EXPECT_EQ(git_ok(mnt + "/lib", {"log", "-p"}), git_ok(sub, {"log", "-p"}));
  EXPECT_EQ(git_ok(mnt + "/lib", {"blame", "-s", "bookshelf/services.py"}),
            git_ok(sub, {"blame", "-s", "bookshelf/services.py"}));
  EXPECT_EQ(git_ok(mnt, {"status", "--porcelain"}), "");
  EXPECT_EQ(git_ok(mnt, {"submodule", "status"}), git_ok(repo, {"submodule", "status"}));
  // Read-only: git there writes nothing, in the module's directory either.
  EXPECT_NE(git(mnt + "/lib", {"add", "-A"}).exit_code, 0);
  EXPECT_EQ(tree_fingerprint(repo + "/.git/modules"), modules);
}

TEST(GitView, EditsInASubmoduleOfAWritableMountReachGitWithoutTagLines) {
  TempDir dir("anchorfs-git-submodule-write");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  const std::string sub = make_submodule(dir.path(), repo);
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache", "--writable"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  const std::string lib = mnt + "/lib";
  const std::string file = "bookshelf/services.py";
  std::string text = read_file(lib + "/" + file);
  ASSERT_TRUE(has_tags(text));
  EXPECT_EQ(git_ok(lib, {"status", "--porcelain"}), "");
  text.replace(text.find("days=15"), 7, "days=21");
  write_file(lib + "/" + file, text);
  // Each git command below starts once what the one before wrote through the mount is re-tagged
  // (see the test above).
  settle(mnt);
  const std::string view = read_file(lib + "/" + file);
  EXPECT_TRUE(has_tags(view) && view.find("days=21") != std::string::npos) << view;
  const std::string checkout = read_file(sub + "/" + file);
  EXPECT_FALSE(has_tags(checkout));
  EXPECT_EQ(git_ok(lib, {"status", "--porcelain"}), " M " + file + "\n");
  EXPECT_EQ(git_ok(lib, {"diff"}), git_ok(sub, {"diff"}));
  EXPECT_EQ(git_ok(mnt, {"status", "--porcelain"}), git_ok(repo, {"status", "--porcelain"}));
  // stash and pop: the checkout gets back the user's edit, git's stash has no tag lines.
  git_ok(lib, {"stash", "-q"});
  settle(mnt);
  EXPECT_EQ(git_ok(sub, {"status", "--porcelain"}), "");
  EXPECT_FALSE(has_tags(git_ok(sub, {"show", "stash@{0}:" + file})));
  git_ok(lib, {"stash", "pop", "-q"});
  settle(mnt);
  EXPECT_EQ(read_file(sub + "/" + file), checkout);
  git_ok(lib, {"commit", "-q", "-am", "edited"});
  const std::string committed = git_ok(sub, {"show", "HEAD:" + file});
  EXPECT_FALSE(has_tags(committed));
  EXPECT_EQ(committed, checkout);
  EXPECT_EQ(git_ok(sub, {"status", "--porcelain"}), "");
  EXPECT_EQ(git_ok(lib, {"status", "--porcelain"}), "");
  // A new file added through the mount is committed as written.
  write_file(lib + "/notes.py", "# === Function Annotation ===\nx = 1\n");
  settle(mnt);
  git_ok(lib, {"add", "notes.py"});
  git_ok(lib, {"commit", "-q", "-m", "notes"});
  EXPECT_EQ(git_ok(sub, {"show", "HEAD:notes.py"}), "# === Function Annotation ===\nx = 1\n");
  EXPECT_EQ(git_ok(sub, {"status", "--porcelain"}), "");
  // The module's config written through the mount reaches the checkout without the view's filter.
  git_ok(lib, {"config", "user.name", "Sub"});
  const std::string config = read_file(repo + "/.git/modules/lib/config");
  EXPECT_EQ(config.find("filter"), std::string::npos) << config;
  EXPECT_NE(config.find("name = Sub"), std::string::npos) << config;
  EXPECT_NE(config.find("worktree = ../../../lib"), std::string::npos) << config;
  EXPECT_EQ(git_ok(repo, {"status", "--porcelain"}), " M lib\n");
}

struct stat stat_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path << ": " << std::strerror(errno);
  return st;
}

// `git checkout -- FILE` inside an inner repository (`inner` in the mount `mnt`, `checkout` its
// worktree in the checkout) of a file git in the checkout has just found unchanged: git skips
// it, as it does in the checkout, so the file keeps its mode and its hard link. With the inner
// index served untranslated, every file looked changed in the mount (the checkout's inode
// numbers), and git replaced it: mode 0644, link broken (fuzz seed 111).
void expect_forced_checkout_keeps_an_unchanged_file(const std::string& mnt,
                                                    const std::string& inner,
                                                    const std::string& checkout) {
  const std::string file = "bookshelf/services.py";
  ASSERT_TRUE(has_tags(read_file(mnt + "/" + inner + "/" + file)));
  ASSERT_EQ(::chmod((mnt + "/" + inner + "/" + file).c_str(), 0640), 0) << std::strerror(errno);
  ASSERT_EQ(::link((mnt + "/" + inner + "/" + file).c_str(), (mnt + "/linked.py").c_str()), 0)
      << std::strerror(errno);
  // Git in the checkout refreshes the index: the new change time is recorded.
  EXPECT_EQ(git_ok(checkout, {"status", "--porcelain"}), "");
  settle(mnt);
  const struct stat before = stat_of(checkout + "/" + file);
  ASSERT_EQ(before.st_nlink, 2u);
  EXPECT_EQ(git_ok(mnt + "/" + inner, {"status", "--porcelain"}), "");
  settle(mnt);
  git_ok(mnt + "/" + inner, {"checkout", "--", file});
  const struct stat after = stat_of(checkout + "/" + file);
  EXPECT_EQ(after.st_ino, before.st_ino) << "git replaced an unchanged file";
  EXPECT_EQ(after.st_mode & 07777, 0640u);
  EXPECT_EQ(after.st_nlink, 2u);
  // Git in the checkout still trusts the index git in the mount wrote: no entry to refresh.
  settle(mnt);
  EXPECT_EQ(git_ok(checkout, {"diff-files", "--name-only"}), "");
  EXPECT_EQ(git_ok(mnt + "/" + inner, {"status", "--porcelain"}), "");
}

TEST(GitView, AForcedCheckoutInASubmoduleOfAWritableMountSkipsAnUnchangedFile) {
  TempDir dir("anchorfs-git-submodule-checkout");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  const std::string sub = make_submodule(dir.path(), repo);
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache", "--writable"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  expect_forced_checkout_keeps_an_unchanged_file(mnt, "lib", sub);
}

TEST(GitView, AForcedCheckoutInANestedRepositoryOfAWritableMountSkipsAnUnchangedFile) {
  TempDir dir("anchorfs-git-nested-checkout");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  const std::string nested = make_nested_repository(repo);
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache", "--writable"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  expect_forced_checkout_keeps_an_unchanged_file(mnt, "vendor", nested);
}

// Adds `file` (a module the view leaves untagged, one the git filter covers) to the repository
// whose worktree is `checkout`, committed.
void commit_untagged_file(const std::string& checkout, const std::string& file) {
  write_file(checkout + "/" + file, "LIMIT = 3\n");
  git_ok(checkout, {"add", file});
  git_ok(checkout, {"commit", "-q", "-m", "limits"});
}

// `git checkout -- FILE` in the repository `inner` of the mount `mnt` (`checkout` its worktree
// in the checkout) of an untagged file whose change time alone moved (a user xattr set through
// the mount) and which git in the checkout then found unchanged: git skips it, as it does in the
// checkout, so the file keeps its xattr. The `index.lock` git makes through the mount used to
// publish a snapshot "awaiting analysis", whose index served every untagged file the filter covers
// with size 0; git's checkout takes that for a change without reading the file and replaces it
// (fuzz seed 129).
void expect_forced_checkout_keeps_an_untagged_files_xattr(const std::string& mnt,
                                                          const std::string& inner,
                                                          const std::string& checkout,
                                                          const std::string& file) {
  const std::string in_mount = mnt + "/" + inner + "/" + file;
  ASSERT_FALSE(has_tags(read_file(in_mount)));
  ASSERT_TRUE(has_tags(read_file(mnt + "/" + inner + "/bookshelf/services.py")));
  ASSERT_EQ(::setxattr(in_mount.c_str(), "user.note", "kept", 4, 0), 0) << std::strerror(errno);
  // Git in the checkout refreshes the index: the new change time is recorded.
  EXPECT_EQ(git_ok(checkout, {"status", "--porcelain"}), "");
  settle(mnt);
  const struct stat before = stat_of(checkout + "/" + file);
  git_ok(mnt + "/" + inner, {"checkout", "--", file});
  const struct stat after = stat_of(checkout + "/" + file);
  EXPECT_EQ(after.st_ino, before.st_ino) << "git replaced an unchanged file";
  char value[8] = {};
  EXPECT_EQ(::getxattr((checkout + "/" + file).c_str(), "user.note", value, sizeof value), 4)
      << std::strerror(errno);
  EXPECT_STREQ(value, "kept");
  settle(mnt);
  EXPECT_EQ(git_ok(checkout, {"status", "--porcelain"}), "");
  EXPECT_EQ(git_ok(mnt + "/" + inner, {"status", "--porcelain"}), "");
}

TEST(GitView, AForcedCheckoutInASubmoduleOfAWritableMountKeepsAnUntaggedFilesXattr) {
  TempDir dir("anchorfs-git-submodule-xattr");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  const std::string sub = make_submodule(dir.path(), repo);
  commit_untagged_file(sub, "bookshelf/limits.py");
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache", "--writable"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  expect_forced_checkout_keeps_an_untagged_files_xattr(mnt, "lib", sub, "bookshelf/limits.py");
}

TEST(GitView, AForcedCheckoutInAWritableMountKeepsAnUntaggedFilesXattr) {
  TempDir dir("anchorfs-git-top-xattr");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  make_repository(repo);
  commit_untagged_file(repo, "bookshelf/limits.py");
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache", "--writable"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  expect_forced_checkout_keeps_an_untagged_files_xattr(mnt, ".", repo, "bookshelf/limits.py");
}

// Right after a source edit through the mount, until its refresh (held open here by --no-watch),
// the snapshot awaits analysis and its index served every untagged file the filter covers with
// size 0 (so `git status` compares their bytes across a re-tag); git's forced checkout takes size
// 0 for a change without reading the file and replaced it: xattr, inode and hard link lost. A
// git command holding `index.lock` is served the sizes as served (no re-tag is published while it
// holds it), and `git status` in that window still lists exactly the edit.
TEST(GitView, AForcedCheckoutRightAfterASourceEditKeepsAnUntaggedFilesXattrAndLink) {
  TempDir dir("anchorfs-git-edit-window");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  make_repository(repo);
  commit_untagged_file(repo, "bookshelf/limits.py");
  const std::string file = repo + "/bookshelf/limits.py";
  ASSERT_EQ(::setxattr(file.c_str(), "user.note", "kept", 4, 0), 0) << std::strerror(errno);
  ASSERT_EQ(::link(file.c_str(), (dir / "limits-link.py").c_str()), 0) << std::strerror(errno);
  EXPECT_EQ(git_ok(repo, {"status", "--porcelain"}), "");  // the new ctime recorded
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache", "--writable", "--no-watch"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  ASSERT_FALSE(has_tags(read_file(mnt + "/bookshelf/limits.py")));
  const std::string services = mnt + "/bookshelf/services.py";
  ASSERT_TRUE(has_tags(read_file(services)));
  write_file(services, read_file(services) + "\n\ndef late():\n    return 1\n");
  const struct stat before = stat_of(file);
  git_ok(mnt, {"checkout", "-f", "--", "bookshelf/limits.py"});
  const struct stat after = stat_of(file);
  EXPECT_EQ(after.st_ino, before.st_ino) << "git replaced an unchanged file";
  EXPECT_EQ(after.st_nlink, 2u);
  char value[8] = {};
  EXPECT_EQ(::getxattr(file.c_str(), "user.note", value, sizeof value), 4) << std::strerror(errno);
  EXPECT_STREQ(value, "kept");
  EXPECT_EQ(git_ok(mnt, {"status", "--porcelain"}), " M bookshelf/services.py\n");
  EXPECT_EQ(git_ok(repo, {"status", "--porcelain"}), " M bookshelf/services.py\n");
}

// `index` (version 2, as git writes it here) with the recorded modification time of `name`
// moved within its second and its checksum made again: the file's times differ from the record
// only below the second, as when a file changes within the second git recorded it in.
void shift_recorded_mtime(const std::string& index, const std::string& name) {
  static const std::string kShift = R"(import hashlib, struct, sys
path, wanted = sys.argv[1], sys.argv[2].encode()
b = bytearray(open(path, 'rb').read())
assert b[:4] == b'DIRC' and struct.unpack('>I', b[4:8])[0] == 2
at = 12
for _ in range(struct.unpack('>I', b[8:12])[0]):
    length = struct.unpack('>H', b[at + 60:at + 62])[0] & 0xfff
    if b[at + 62:at + 62 + length] == wanted:
        ns = struct.unpack('>I', b[at + 12:at + 16])[0]
        b[at + 12:at + 16] = struct.pack('>I', ns - 1 if ns else 1)
    at += (62 + length + 8) // 8 * 8
b[-20:] = hashlib.sha1(bytes(b[:-20])).digest()
open(path, 'wb').write(b)
)";
  const ProcessResult result = run({"python3", "-c", kShift, index, name});
  ASSERT_EQ(result.exit_code, 0) << result.err;
}

// Git in the checkout (Debian's, comparing whole seconds) trusts a record whose times differ from
// its file's below the second, and so does the mount, which serves it with the view's size and
// inode number. `git stash` in the mount, with nothing to stash, writes the index back as it read
// it; the checkout's index then kept the view's size, and `git status` there listed the file as
// modified without reading it (fuzz seed 4011: a clone, edits and the removal of a hard link all
// within one second). The record goes back as it was.
TEST(GitView, ARecordTrustedBelowTheSecondGoesBackToTheCheckoutAsItWas) {
  TempDir dir("anchorfs-git-subsecond");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  make_repository(repo);
  shift_recorded_mtime(repo + "/.git/index", "bookshelf/services.py");
  ASSERT_EQ(git_ok(repo, {"diff-files", "--name-only"}), "");
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache", "--writable", "--no-watch"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  ASSERT_TRUE(has_tags(read_file(mnt + "/bookshelf/services.py")));
  git_ok(mnt, {"stash"});
  EXPECT_EQ(git_ok(repo, {"stash", "list"}), "");
  EXPECT_EQ(git_ok(repo, {"diff-files", "--name-only"}), "");
  EXPECT_EQ(git_ok(repo, {"status", "--porcelain"}), "");
}

TEST(GitView, ATreeWithoutGitIsNoRepositoryInTheMount) {
  TempDir dir("anchorfs-git-none");
  const std::string repo = dir / "repo", mnt = dir / "mnt";
  copy_tree(kSampleProject, repo);
  make_dirs(mnt);
  Mount mount(repo, mnt, {"--no-cache"});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  const ProcessResult status = git(mnt, {"status"});
  EXPECT_NE(status.exit_code, 0);
  EXPECT_NE(status.err.find("not a git repository"), std::string::npos) << status.err;
  EXPECT_EQ(list_tree(mnt).size(), list_tree(repo).size());
}

}  // namespace
}  // namespace anchorfs::itest
