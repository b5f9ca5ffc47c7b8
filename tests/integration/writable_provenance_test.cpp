// Writable mounts untag by provenance (issue 23): each case a plain directory gets right and the
// old shape-based store got wrong, run through a real `anchorfs mount --writable`.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cstdio>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.h"

namespace anchorfs::itest {
namespace {

using namespace std::chrono_literals;

const std::string kCore =
    "\"\"\"Core arithmetic.\"\"\"\n"
    "\n"
    "\n"
    "def helper(x):\n"
    "    a = x + 1\n"
    "    return a\n"
    "\n"
    "\n"
    "class Engine:\n"
    "    def run(self):\n"
    "        return helper(1)\n";

const std::string kApp =
    "from pkg.core import Engine, helper\n"
    "\n"
    "\n"
    "def main():\n"
    "    return helper(2) + Engine().run()\n";

// Lines a user may write that look exactly like tags.
const std::string kTagShaped =
    "# === Function Annotation ===\n"
    "# function: example.py:f\n"
    "# CALLS: g\n"
    "# === Function Annotation ===\n";

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class Provenance : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = dir_ / "repo";
    mnt_ = dir_ / "mnt";
    make_dirs(repo_ + "/pkg");
    make_dirs(mnt_);
    write_file(repo_ + "/pkg/__init__.py", "");
    write_file(repo_ + "/pkg/core.py", kCore);
    write_file(repo_ + "/pkg/app.py", kApp);
    write_file(repo_ + "/README.md", "# sample\n\nAn example block:\n\n" + kTagShaped + "\nx\n");
    write_file(repo_ + "/build.sh", "#!/bin/sh\n# @file libexample\necho x\n");
    ASSERT_EQ(git({"init", "-q", "-b", "main"}, repo_).exit_code, 0);
    ASSERT_EQ(git({"add", "-A"}, repo_).exit_code, 0);
    ASSERT_EQ(git({"commit", "-qm", "one"}, repo_).exit_code, 0);
  }

  void mount(std::vector<std::string> extra = {}, const std::string& view_name = "topo") {
    extra.insert(extra.begin(), {"--writable", "--view", view_name});
    mount_ = std::make_unique<Mount>(repo_, mnt_, extra);
    ASSERT_TRUE(mount_->ok()) << mount_->result().err;
    if (view_name != "none") {
      ASSERT_TRUE(contains(view("pkg/core.py"), "Annotation ===")) << view("pkg/core.py");
    }
  }

  static ProcessResult git(std::vector<std::string> args, const std::string& cwd) {
    args.insert(args.begin(), {"git", "-c", "user.name=t", "-c", "user.email=t@t"});
    return run(args, in_dir(cwd));
  }
  ProcessResult shell(const std::string& command) { return run({"sh", "-c", command}, in_dir(mnt_)); }
  ProcessResult python(const std::string& script, std::vector<std::string> args = {}) {
    args.insert(args.begin(), {"python3", "-c", script});
    return run(args, in_dir(mnt_));
  }
  std::string view(const std::string& path) { return read_file_if_readable(mnt_ + "/" + path); }
  std::string checkout(const std::string& path) { return read_file(repo_ + "/" + path); }
  // The mount serves `path` with tags again (the live refresh re-analysed it).
  void wait_tagged(const std::string& path) {
    EXPECT_TRUE(wait_until(30s, [&] { return contains(view(path), "Annotation ==="); })) << view(path);
  }
  // Every change made so far is refreshed and its re-tag published (git in the mount reads a
  // file's size, then its bytes: it must not straddle a re-tag).
  void settle() {
    char value[32];
    ASSERT_GE(::getxattr(mnt_.c_str(), "user.anchorfs.settled", value, sizeof value), 0)
        << std::strerror(errno);
  }
  ProcessResult in_mount(std::vector<std::string> args) {
    settle();
    return git(std::move(args), mnt_);
  }
  // No code file of the checkout holds a tag line the view served.
  void expect_no_served_tags() {
    for (const char* path : {"pkg/core.py", "pkg/app.py"}) {
      if (!std::filesystem::exists(repo_ + "/" + path)) continue;
      const std::string text = checkout(path);
      EXPECT_FALSE(contains(text, "Annotation ===")) << path << ":\n" << text;
      EXPECT_FALSE(contains(text, "CALLED_BY")) << path << ":\n" << text;
    }
  }

  TempDir dir_{"anchorfs-provenance"};
  std::string repo_, mnt_;
  std::unique_ptr<Mount> mount_;
};

TEST_F(Provenance, TagShapedLinesOfAnUntaggedFileSurviveSedInPlace) {
  for (const char* view_name : {"topo", "none"}) {
    SCOPED_TRACE(view_name);
    mount({}, view_name);
    const std::string before = checkout("README.md");
    ASSERT_EQ(shell("sed -i 's/^x$/y/' README.md").exit_code, 0);
    EXPECT_EQ(checkout("README.md"), replaced(before, "\nx\n", "\ny\n"));
    ASSERT_EQ(shell("sed -i 's/echo x/echo y/' build.sh").exit_code, 0);
    EXPECT_EQ(checkout("build.sh"), "#!/bin/sh\n# @file libexample\necho y\n");
    mount_.reset();
    ASSERT_EQ(git({"checkout", "--", "."}, repo_).exit_code, 0);
  }
}

TEST_F(Provenance, ANewFileFromElsewhereKeepsItsTagShapedString) {
  mount();
  const std::string test =
      "def test_doc():\n    text = '''\n" + kTagShaped + "'''\n    assert text\n";
  write_file(dir_ / "test_doc.py", test);
  ASSERT_EQ(shell("cp " + (dir_ / "test_doc.py") + " pkg/test_doc.py").exit_code, 0);
  EXPECT_EQ(checkout("pkg/test_doc.py"), test);
  // Stored again through the mount after it is tagged itself: still every byte.
  wait_tagged("pkg/test_doc.py");
  ASSERT_EQ(shell("sed -i 's/assert text/assert text != \"\"/' pkg/test_doc.py").exit_code, 0);
  EXPECT_EQ(checkout("pkg/test_doc.py"), replaced(test, "assert text", "assert text != \"\""));
}

TEST_F(Provenance, GitCheckoutRestoresAFileWithTagShapedLines) {
  mount();
  ASSERT_EQ(shell("echo extra >> README.md").exit_code, 0);
  const ProcessResult restore = git({"checkout", "--", "README.md"}, mnt_);
  ASSERT_EQ(restore.exit_code, 0) << restore.err;
  EXPECT_EQ(git({"status", "--porcelain"}, repo_).out, "");
  EXPECT_TRUE(contains(checkout("README.md"), kTagShaped));
}

TEST_F(Provenance, ACodeLineJoinedWithATagLineKeepsTheCodeOnly) {
  mount();
  const std::string served = view("pkg/core.py");
  // The line after `def helper(x):` in the view, whatever it is, is joined to it.
  ASSERT_EQ(shell("sed -i '/^def helper(x):$/{N;s/\\n/ /}' pkg/core.py").exit_code, 0);
  const std::string stored = checkout("pkg/core.py");
  expect_no_served_tags();
  EXPECT_TRUE(contains(stored, "def helper(x):")) << stored;
  EXPECT_TRUE(contains(stored, "class Engine:\n    def run(self):\n")) << stored;
  // And the line before a tag block joined with its first line.
  mount_.reset();
  ASSERT_EQ(git({"checkout", "--", "."}, repo_).exit_code, 0);
  mount();
  ASSERT_EQ(shell("sed -i '/^    return a$/{N;N;N;s/\\n/ /g}' pkg/core.py").exit_code, 0);
  expect_no_served_tags();
  EXPECT_TRUE(contains(checkout("pkg/core.py"), "    return a")) << checkout("pkg/core.py");
}

TEST_F(Provenance, TruncatingInsideATagBlockLeavesNoTagLine) {
  mount();
  const std::string served = view("pkg/core.py");
  const size_t block = served.find("Annotation ===");
  ASSERT_NE(block, std::string::npos);
  const size_t line_start = served.rfind('\n', block) + 1;
  for (size_t cut : {line_start + 3, block + 20, served.find('\n', block) + 5}) {
    SCOPED_TRACE(cut);
    ASSERT_EQ(shell("truncate -s " + std::to_string(cut) + " pkg/core.py").exit_code, 0);
    // The code before the block, whole: the view before it without its (complete) blocks.
    const std::string code_before = anchorfs({"strip"}, feeding(served.substr(0, line_start))).out;
    EXPECT_EQ(checkout("pkg/core.py"), code_before);
    EXPECT_TRUE(kCore.starts_with(code_before));
    expect_no_served_tags();
    mount_.reset();
    write_file(repo_ + "/pkg/core.py", kCore);
    mount();
  }
}

// An outside rewrite of the same size whose mtime was put back (cp -p, rsync -t, tar x), then an
// append through the mount: the stale tags are never spliced into the new bytes.
TEST_F(Provenance, AnAppendAfterASameSizeRewriteWithItsMtimeRestoredNeverSplicesOldTags) {
  for (const bool watch : {false, true}) {
    SCOPED_TRACE(watch ? "watching" : "--no-watch");
    write_file(repo_ + "/pkg/core.py", kCore);
    mount(watch ? std::vector<std::string>{} : std::vector<std::string>{"--no-watch"});
    const std::string rewritten = replaced(kCore, "return a\n", "return 7\n");
    ASSERT_EQ(rewritten.size(), kCore.size());
    write_file(dir_ / "new.py", rewritten);
    ASSERT_EQ(run({"touch", "-r", repo_ + "/pkg/core.py", dir_ / "new.py"}).exit_code, 0);
    ASSERT_EQ(run({"cp", "-p", dir_ / "new.py", repo_ + "/pkg/core.py"}).exit_code, 0);
    ASSERT_EQ(shell("echo 'x = 1' >> pkg/core.py").exit_code, 0);
    EXPECT_EQ(checkout("pkg/core.py"), rewritten + "x = 1\n");
    mount_.reset();
  }
}

// An outside edit of a tagged file before any refresh: the mount serves the checkout's bytes,
// untagged (never EIO), git in the mount sees exactly the outside change, and what an agent
// writes back from what it read is stored as written (nothing served was a tag).
TEST_F(Provenance, AnOutsideEditBeforeItsRefreshIsServedUntaggedAndStoredAsWritten) {
  mount({"--no-watch"});  // pkg/core.py read tagged
  const std::string outside = replaced(kCore, "a = x + 1", "a = x + 2");
  write_file(repo_ + "/pkg/core.py", outside);  // in place, outside the mount
  EXPECT_EQ(view("pkg/core.py"), outside);
  struct stat st {};
  ASSERT_EQ(::stat((mnt_ + "/pkg/core.py").c_str(), &st), 0);
  EXPECT_EQ(st.st_size, static_cast<off_t>(outside.size()));
  const ProcessResult checkout_diff = git({"diff"}, repo_);
  const ProcessResult mount_diff = in_mount({"diff"});
  EXPECT_EQ(mount_diff.exit_code, 0) << mount_diff.err;
  EXPECT_EQ(mount_diff.out, checkout_diff.out);

  const ProcessResult edit = python(
      "t = open('pkg/core.py').read()\n"
      "open('pkg/core.py', 'w').write(t.replace('return a\\n', 'return a * 2\\n'))\n");
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_EQ(checkout("pkg/core.py"), replaced(outside, "return a\n", "return a * 2\n"));
  expect_no_served_tags();
}

TEST_F(Provenance, AFileRenamedInTheCheckoutWhileOpenNeverLosesTheEditSilently) {
  mount({"--no-watch"});
  const ProcessResult result = python(
      "import os, sys\n"
      "f = open('pkg/core.py', 'r+')\n"
      "f.seek(0, 2); f.write('x = 1\\n')\n"
      "os.rename(sys.argv[1] + '/pkg/core.py', sys.argv[1] + '/pkg/moved.py')\n"
      "try:\n"
      "    f.close(); print('closed')\n"
      "except OSError as e: print('error', e.errno)\n",
      {repo_});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const bool stored = std::filesystem::exists(repo_ + "/pkg/moved.py") &&
                      checkout("pkg/moved.py") == kCore + "x = 1\n";
  // Either the edit is in the file under its new name, or close said it is not.
  EXPECT_TRUE(stored || contains(result.out, "error")) << result.out;
  EXPECT_FALSE(std::filesystem::exists(repo_ + "/pkg/core.py"));
}

TEST_F(Provenance, AnAppenderHeldOpenKeepsAnOutsideAppend) {
  mount({"--no-watch"});
  const ProcessResult result = python(
      "import sys\n"
      "f = open('pkg/core.py', 'a'); f.write('mine = 1\\n'); f.flush()\n"
      "open(sys.argv[1] + '/pkg/core.py', 'a').write('theirs = 2\\n')\n"
      "f.write('mine = 3\\n'); f.close()\n",
      {repo_});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string stored = checkout("pkg/core.py");
  EXPECT_TRUE(contains(stored, "theirs = 2\n")) << stored;
  EXPECT_TRUE(contains(stored, "mine = 1\n")) << stored;
  EXPECT_TRUE(contains(stored, "mine = 3\n")) << stored;
  EXPECT_TRUE(stored.starts_with(kCore)) << stored;
  expect_no_served_tags();
}

TEST_F(Provenance, TwoOverlappingAppendersBothLand) {
  mount({"--no-watch"});
  const ProcessResult result = python(
      "a = open('pkg/core.py', 'a'); b = open('pkg/core.py', 'a')\n"
      "a.write('first = 1\\n'); b.write('second = 2\\n')\n"
      "a.close(); b.close()\n");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(checkout("pkg/core.py"), kCore + "first = 1\nsecond = 2\n");
}

TEST_F(Provenance, AHardLinkedFileIsWrittenInPlace) {
  ASSERT_EQ(::link((repo_ + "/pkg/core.py").c_str(), (repo_ + "/pkg/alias.py").c_str()), 0);
  mount();
  const ProcessResult result =
      python("t = open('pkg/core.py').read(); open('pkg/core.py', 'w').write(t.replace('x + 1', 'x + 2'))");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string expected = replaced(kCore, "x + 1", "x + 2");
  EXPECT_EQ(checkout("pkg/core.py"), expected);
  EXPECT_EQ(checkout("pkg/alias.py"), expected);
  struct stat st {};
  ASSERT_EQ(::stat((repo_ + "/pkg/core.py").c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 2u);
}

TEST_F(Provenance, XattrsModeAndTimesSurviveAStore) {
  const std::string core = repo_ + "/pkg/core.py";
  ASSERT_EQ(::setxattr(core.c_str(), "user.origin", "kept", 4, 0), 0);
  ASSERT_EQ(::chmod(core.c_str(), 0640), 0);
  mount();
  // (sed -i writes a new file: xattrs go, as in any directory; an editor writing the file keeps them)
  ASSERT_EQ(python("t = open('pkg/core.py').read(); open('pkg/core.py', 'w').write(t.replace('x + 1', 'x + 3'))").exit_code, 0);
  EXPECT_EQ(checkout("pkg/core.py"), replaced(kCore, "x + 1", "x + 3"));
  char value[16] = {};
  EXPECT_EQ(::getxattr(core.c_str(), "user.origin", value, sizeof value), 4);
  EXPECT_EQ(std::string(value), "kept");
  // Set through the mount, read back through it and in the checkout.
  const ProcessResult set = python("import os; os.setxattr('pkg/app.py', 'user.tag', b'v1')");
  ASSERT_EQ(set.exit_code, 0) << set.err;
  EXPECT_EQ(::getxattr((repo_ + "/pkg/app.py").c_str(), "user.tag", value, sizeof value), 2);
  EXPECT_EQ(python("import os; print(os.getxattr('pkg/app.py', 'user.tag').decode())").out, "v1\n");
  // cp -p into the mount keeps the source's mtime, mode and xattrs.
  const std::string source = dir_ / "stamped.py";
  write_file(source, "value = 1\n");
  ASSERT_EQ(::chmod(source.c_str(), 0600), 0);
  ASSERT_EQ(::setxattr(source.c_str(), "user.kind", "k", 1, 0), 0);
  ASSERT_EQ(run({"touch", "-d", "2001-02-03 04:05:06", source}).exit_code, 0);
  for (const char* target : {"pkg/stamped.py", "pkg/app.py"}) {
    SCOPED_TRACE(target);
    const ProcessResult cp = shell("cp --preserve=all " + source + " " + target);
    ASSERT_EQ(cp.exit_code, 0) << cp.err;
    struct stat st {};
    ASSERT_EQ(::stat((repo_ + "/" + target).c_str(), &st), 0);
    EXPECT_EQ(st.st_mtim.tv_sec, 981173106);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    EXPECT_EQ(::getxattr((repo_ + "/" + target).c_str(), "user.kind", value, sizeof value), 1);
    EXPECT_EQ(checkout(target), "value = 1\n");
  }
}

TEST_F(Provenance, CopyingATaggedFileInsideTheMountStoresCleanBytes) {
  mount();
  ASSERT_EQ(shell("cp pkg/core.py pkg/copy.py && cp pkg/core.py pkg/app.py").exit_code, 0);
  EXPECT_EQ(checkout("pkg/copy.py"), kCore);
  EXPECT_EQ(checkout("pkg/app.py"), kCore);
}

TEST_F(Provenance, AnEditedTagLineIsStillATag) {
  mount();
  std::string text = view("pkg/core.py");
  const size_t called = text.find("CALLED_BY");
  ASSERT_NE(called, std::string::npos) << text;
  text.insert(called + 9, "_EDITED");
  text = replaced(text, "    a = x + 1\n", "    a = x + 10\n");
  write_file(mnt_ + "/pkg/core.py", text);
  EXPECT_EQ(checkout("pkg/core.py"), replaced(kCore, "x + 1\n", "x + 10\n"));
  // The same through sed -i (a new file renamed over the tagged one).
  wait_tagged("pkg/core.py");
  ASSERT_EQ(shell("sed -i 's/CALLED_BY/CALLERS/; s/x + 10/x + 11/' pkg/core.py").exit_code, 0);
  EXPECT_EQ(checkout("pkg/core.py"), replaced(kCore, "x + 1\n", "x + 11\n"));
}

// Found by the editing fuzzer (seed 114): `sed -i` renaming a called function changes most code
// lines of a small file and the CALLS line naming it. sed's temporary is stored first (its
// untouched file block, whole, goes), then renamed over the file: the edited block must go too.
TEST_F(Provenance, SedRenamingACalledFunctionInASmallFileStoresNoTagLine) {
  mount();
  const std::string served = view("pkg/app.py");
  ASSERT_TRUE(contains(served, "File Annotation ===")) << served;
  ASSERT_TRUE(contains(served, "pkg/core.py:helper\n")) << served;
  ASSERT_EQ(shell("sed -i 's/\\bhelper\\b/helper_2/' pkg/app.py").exit_code, 0);
  EXPECT_EQ(checkout("pkg/app.py"), replaced(replaced(kApp, "helper", "helper_2"), "helper(2)", "helper_2(2)"));
  expect_no_served_tags();
}

// A refresh re-tags a file whose bytes did not change while an agent holds its view: a caller
// of `lonely` came (the file got a block) and went (the block is gone from the view). What the
// agent writes back, by open 'w' or by an editor's temporary renamed over the file, is aligned
// with the view it read, not the current one: the old block does not reach the checkout.
TEST_F(Provenance, AViewReadBeforeAReTagIsStoredByTheTagsItWasServed) {
  const auto lonely = [](const std::string& name) {
    return "def " + name + "():\n    return 0\n\n\ndef other():\n    return 1\n";
  };
  write_file(repo_ + "/pkg/lonely_a.py", lonely("lonely_a"));
  write_file(repo_ + "/pkg/lonely_b.py", lonely("lonely_b"));
  mount();
  ASSERT_EQ(view("pkg/lonely_a.py"), lonely("lonely_a"));  // nothing to say: no block
  write_file(repo_ + "/pkg/caller.py",
             "from pkg.lonely_a import lonely_a\nfrom pkg.lonely_b import lonely_b\n\n\n"
             "def late():\n    return lonely_a() + lonely_b()\n");
  ASSERT_TRUE(wait_until(30s, [&] {
    return contains(view("pkg/lonely_a.py"), "CALLED_BY") &&
           contains(view("pkg/lonely_b.py"), "CALLED_BY");
  })) << view("pkg/lonely_a.py");
  const std::string held_a = view("pkg/lonely_a.py");
  const std::string held_b = view("pkg/lonely_b.py");
  std::filesystem::remove(repo_ + "/pkg/caller.py");
  ASSERT_TRUE(wait_until(30s, [&] {
    return view("pkg/lonely_a.py") == lonely("lonely_a") &&
           view("pkg/lonely_b.py") == lonely("lonely_b");
  })) << view("pkg/lonely_a.py");

  write_file(mnt_ + "/pkg/lonely_a.py", replaced(held_a, "return 1", "return 2"));
  EXPECT_EQ(checkout("pkg/lonely_a.py"), replaced(lonely("lonely_a"), "return 1", "return 2"));
  write_file(mnt_ + "/pkg/.lonely_b.py.swp", replaced(held_b, "return 1", "return 2"));
  ASSERT_EQ(::rename((mnt_ + "/pkg/.lonely_b.py.swp").c_str(), (mnt_ + "/pkg/lonely_b.py").c_str()), 0);
  EXPECT_EQ(checkout("pkg/lonely_b.py"), replaced(lonely("lonely_b"), "return 1", "return 2"));
}

// Fuzz seed 157: a cut at an offset of the view a reader was served lands there in the checkout
// even when the refresh re-tagged the file (code elsewhere changed) between the read and the cut,
// and nobody read the new view: the block comes (read untagged, the cut used to reach the tagged
// view and empty the file) or goes (read tagged, the cut used to reach the checkout past the code).
TEST_F(Provenance, ATruncateAtAnOffsetReadBeforeAReTagCutsWhereTheReaderSawIt) {
  const std::string lonely = "def lonely():\n    return 0\n\n\ndef other():\n    return 1\n";
  const std::string cut = lonely.substr(0, lonely.find("def other():"));
  const std::string caller = "from pkg.lonely import lonely\n\n\ndef late():\n    return lonely()\n";
  write_file(repo_ + "/pkg/lonely.py", lonely);
  mount();
  // Through a descriptor (coreutils truncate: open, ftruncate) and by path (truncate(2)).
  for (const bool by_path : {false, false, true, true}) {
    const bool block_comes = !std::filesystem::exists(repo_ + "/pkg/caller.py");
    SCOPED_TRACE(std::string(by_path ? "truncate(2), " : "ftruncate(2), ") +
                 (block_comes ? "the block comes" : "the block goes"));
    const std::string held = view("pkg/lonely.py");
    ASSERT_EQ(contains(held, "CALLED_BY"), !block_comes) << held;
    if (block_comes) {
      write_file(repo_ + "/pkg/caller.py", caller);
    } else {
      std::filesystem::remove(repo_ + "/pkg/caller.py");
    }
    settle();  // the re-tag is published and the kernel told; nobody reads the new view
    const size_t at = held.find("def other():");
    const ProcessResult truncated =
        by_path ? python("import os, sys; os.truncate('pkg/lonely.py', int(sys.argv[1]))",
                         {std::to_string(at)})
                : shell("truncate -s " + std::to_string(at) + " pkg/lonely.py");
    ASSERT_EQ(truncated.exit_code, 0) << truncated.err;
    EXPECT_EQ(checkout("pkg/lonely.py"), cut);
    write_file(repo_ + "/pkg/lonely.py", lonely);
    settle();
  }
}

TEST_F(Provenance, AConcurrentOutsideRewriteIsRefusedAtClose) {
  mount({"--no-watch"});
  const ProcessResult result = python(
      "import sys\n"
      "f = open('pkg/core.py', 'r+'); t = f.read()\n"
      "open(sys.argv[1] + '/pkg/core.py', 'w').write('outside = 1\\n')\n"
      "f.seek(0); f.write(t.replace('x + 1', 'x + 5'))\n"
      "try:\n"
      "    f.close(); print('closed')\n"
      "except OSError as e: print('error', e.errno)\n",
      {repo_});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "error 116\n");  // ESTALE
  EXPECT_EQ(checkout("pkg/core.py"), "outside = 1\n");
}

TEST_F(Provenance, ATaggedFileRenamedToBakIsCommittedAsTheCheckoutHasIt) {
  mount();
  ASSERT_EQ(shell("mv pkg/core.py pkg/core.py.bak").exit_code, 0);
  ASSERT_TRUE(contains(view("pkg/core.py.bak"), "Annotation ==="));  // still served tagged
  ASSERT_EQ(in_mount({"add", "-A"}).exit_code, 0);
  const ProcessResult commit = in_mount({"commit", "-qm", "bak"});
  ASSERT_EQ(commit.exit_code, 0) << commit.err;
  EXPECT_EQ(git({"show", "HEAD:pkg/core.py.bak"}, repo_).out, kCore);
  EXPECT_EQ(git({"status", "--porcelain"}, repo_).out, "");
  EXPECT_EQ(in_mount({"status", "--porcelain"}).out, "");
}

TEST_F(Provenance, GitWorktreeAddIsRefusedWithAClearMessage) {
  mount();
  const ProcessResult add = in_mount({"worktree", "add", "-q", dir_ / "wt"});
  EXPECT_NE(add.exit_code, 0);
  EXPECT_TRUE(contains(add.err, ".git/worktrees")) << add.err;
  EXPECT_TRUE(contains(add.err, "Operation not permitted")) << add.err;
  EXPECT_FALSE(std::filesystem::exists(repo_ + "/.git/worktrees"));
  EXPECT_EQ(git({"worktree", "list", "--porcelain"}, repo_).out.find(dir_ / "wt"), std::string::npos);
}

// A diff made in the checkout whose hunk context runs across the place of a tag block (the
// `def` line and the lines above it): git apply in the mount reads through the clean filter.
TEST_F(Provenance, GitApplyOfACheckoutDiffAcrossTagLines) {
  mount();
  const std::string changed = replaced(kCore, "def helper(x):\n    a = x + 1", "def helper(x, y=0):\n    a = x + y");
  write_file(repo_ + "/pkg/core.py", changed);
  const ProcessResult diff = git({"diff"}, repo_);
  ASSERT_EQ(git({"checkout", "--", "pkg/core.py"}, repo_).exit_code, 0);
  ASSERT_TRUE(contains(diff.out, "@@")) << diff.out;
  write_file(dir_ / "change.diff", diff.out);
  wait_tagged("pkg/core.py");
  const std::string served = view("pkg/core.py");
  // The view splits the hunk's context: a tag block stands between the blank lines and `def`.
  ASSERT_TRUE(contains(served, "\n\n# === Function Annotation ===")) << served;
  ASSERT_TRUE(contains(served, "# === Function Annotation ===\ndef helper(x):")) << served;
  const ProcessResult apply = in_mount({"apply", dir_ / "change.diff"});
  ASSERT_EQ(apply.exit_code, 0) << apply.err;
  EXPECT_EQ(checkout("pkg/core.py"), changed);
  expect_no_served_tags();
}

}  // namespace
}  // namespace anchorfs::itest
