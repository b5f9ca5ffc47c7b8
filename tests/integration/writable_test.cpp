// `anchorfs mount --writable` on a real git clone: the tools agents use to edit code, run inside
// the mount, leave exactly their edit in the checkout, never a tag line; the view re-tags it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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
    "    b = a * 2\n"
    "    c = b - 3\n"
    "    d = c + 4\n"
    "    e = d * 5\n"
    "    f = e - 6\n"
    "    return f\n"
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

const std::string kDelimiter = "Annotation ===";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// The first tag line of `field` ("CALLED_BY") in a view, or "".
std::string first_field(const std::string& view, const std::string& field) {
  const size_t at = view.find("# " + field + ": ");
  if (at == std::string::npos) return "";
  return view.substr(at, view.find('\n', at) - at);
}

// git with a clean filter that removes tags, so git hashes what the checkout would hold
// (the mount's own git transparency may make this redundant; it never hurts).
std::vector<std::string> git(const std::string& attributes, std::vector<std::string> args) {
  std::vector<std::string> argv{"git",
                                "-c",
                                "user.name=t",
                                "-c",
                                "user.email=t@t",
                                "-c",
                                "filter.anchorfs.clean=" + kAnchorfs + " strip",
                                "-c",
                                "core.attributesFile=" + attributes};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

class WritableMount : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = dir_ / "repo";
    mnt_ = dir_ / "mnt";
    attributes_ = dir_ / "attributes";
    write_file(attributes_, "*.py filter=anchorfs\n");
    make_dirs(repo_ + "/pkg");
    make_dirs(mnt_);
    write_file(repo_ + "/pkg/__init__.py", "");
    write_file(repo_ + "/pkg/core.py", kCore);
    write_file(repo_ + "/pkg/app.py", kApp);
    write_file(repo_ + "/README.md", "# sample\n");
    ASSERT_EQ(in_repo({"init", "-q", "-b", "main"}).exit_code, 0);
    ASSERT_EQ(in_repo({"add", "-A"}).exit_code, 0);
    ASSERT_EQ(in_repo({"commit", "-qm", "one"}).exit_code, 0);
  }

  void mount(std::vector<std::string> extra = {}) {
    extra.insert(extra.begin(), {"--writable", "--view", "topo"});
    mount_ = std::make_unique<Mount>(repo_, mnt_, extra);
    ASSERT_TRUE(mount_->ok()) << mount_->result().err;
    ASSERT_TRUE(contains(view("pkg/core.py"), "CALLED_BY: pkg/app.py:main")) << view("pkg/core.py");
  }

  ProcessResult in_repo(std::vector<std::string> args) {
    return run(git(attributes_, std::move(args)), in_dir(repo_));
  }
  // Git in the mount as an agent runs it: no options, the mount's own .git view does the rest.
  ProcessResult in_mount(std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-c", "user.name=t", "-c", "user.email=t@t"});
    return run(args, in_dir(mnt_));
  }
  ProcessResult shell(const std::string& command) {
    return run({"sh", "-c", command}, in_dir(mnt_));
  }

  // A read that fails (EIO for a version whose bytes were served and are gone: the mount never
  // serves bytes of another version under them) reads as "<unreadable>"; the waits below go on.
  std::string view(const std::string& path) {
    try {
      return read_file(mnt_ + "/" + path);
    } catch (const std::runtime_error&) {
      return "<unreadable>";
    }
  }
  std::string checkout(const std::string& path) { return read_file(repo_ + "/" + path); }
  std::string rendered(const std::string& path) {
    return anchorfs({"render", repo_, path, "--view", "topo"}).out;
  }

  // No file of the checkout (its .git included) holds a tag delimiter line.
  void expect_checkout_tag_free() {
    const ProcessResult grep =
        run({"grep", "-rlE", "^[[:space:]]*# === (Function|Class|File) Annotation ===", repo_});
    EXPECT_EQ(grep.exit_code, 1) << "tag lines in the checkout: " << grep.out;
  }

  // The live refresh re-tagged `path`: the mount serves exactly what `anchorfs render` makes of
  // the checkout's bytes now.
  void expect_retagged(const std::string& path) {
    EXPECT_TRUE(wait_until(30s, [&] { return view(path) == rendered(path); }))
        << "view:\n"
        << view(path) << "\nrendered:\n"
        << rendered(path);
  }

  TempDir dir_{"anchorfs-writable"};
  std::string repo_, mnt_, attributes_;
  std::unique_ptr<Mount> mount_;
};

TEST_F(WritableMount, SedInPlaceLandsTagFreeAndComesBackTagged) {
  mount();
  ASSERT_EQ(shell("sed -i 's/c = b - 3/c = b - 30/' pkg/core.py").exit_code, 0);
  EXPECT_EQ(checkout("pkg/core.py"), replaced(kCore, "c = b - 3", "c = b - 30"));
  expect_checkout_tag_free();
  expect_retagged("pkg/core.py");
  EXPECT_TRUE(contains(view("pkg/core.py"), "CALLED_BY: pkg/app.py:main"));
}

TEST_F(WritableMount, PythonOpenForWritingReplacesTheFile) {
  ASSERT_EQ(::chmod((repo_ + "/pkg/app.py").c_str(), 0640), 0);
  ASSERT_EQ(::chown((repo_ + "/pkg/app.py").c_str(), 1234, 4321), 0);
  mount();
  const std::string next = replaced(kApp, "helper(2)", "helper(7)");
  const ProcessResult python =
      run({"python3", "-c", "import sys; open(sys.argv[1], 'w').write(sys.argv[2])",
           mnt_ + "/pkg/app.py", next});
  ASSERT_EQ(python.exit_code, 0) << python.err;
  EXPECT_EQ(checkout("pkg/app.py"), next);
  struct stat st {};
  ASSERT_EQ(::stat((repo_ + "/pkg/app.py").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);  // replaced atomically, mode and owner kept
  EXPECT_EQ(st.st_uid, 1234u);
  EXPECT_EQ(st.st_gid, 4321u);
  expect_checkout_tag_free();
  expect_retagged("pkg/app.py");
}

// The daemon dies while a writer has written but not closed: the checkout keeps the old file,
// whole, and no temporary is left behind.
TEST_F(WritableMount, ADaemonCrashLeavesTheOldFile) {
  mount();
  const std::string before = read_file(repo_ + "/pkg/core.py");
  const ProcessResult python =
      run({"python3", "-c",
           "import os, signal, sys\n"
           "f = open(sys.argv[1], 'w'); f.write('x = 1\\n' * 50000); f.flush()\n"
           "os.kill(int(sys.argv[2]), signal.SIGKILL)\n",
           mnt_ + "/pkg/core.py",
           std::to_string(find_processes({kAnchorfs, "mount", repo_, mnt_}).at(0))});
  EXPECT_EQ(python.exit_code, 0) << python.err;
  EXPECT_TRUE(wait_until(30s, [&] {
    return find_processes({kAnchorfs, "mount", repo_, mnt_}).empty();
  }));
  EXPECT_EQ(checkout("pkg/core.py"), before);
  std::vector<std::string> names;
  for (const auto& item : std::filesystem::directory_iterator(repo_ + "/pkg")) {
    names.push_back(item.path().filename());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"__init__.py", "app.py", "core.py"}));
  EXPECT_EQ(anchorfs({"unmount", mnt_}).exit_code, 0);
}

TEST_F(WritableMount, AppendAddsCodeAndOtherFilesTagsFollow) {
  mount();
  ASSERT_EQ(shell("printf '\\n\\ndef extra():\\n    return helper(3)\\n' >> pkg/core.py").exit_code,
            0);
  EXPECT_EQ(checkout("pkg/core.py"), kCore + "\n\ndef extra():\n    return helper(3)\n");
  expect_checkout_tag_free();
  expect_retagged("pkg/core.py");
  // helper's block (the first to list callers) now names its new caller.
  EXPECT_TRUE(contains(first_field(view("pkg/core.py"), "CALLED_BY"), "extra"))
      << view("pkg/core.py");
}

// While a tagged file is open for writing its size is the writer's; fsync stores it (tag-free)
// before close; after close every stat agrees with the bytes a read returns.
TEST_F(WritableMount, SizesStayCoherentAndFsyncStoresBeforeClose) {
  mount();
  const std::string before = view("pkg/core.py");
  const ProcessResult python =
      run({"python3", "-c",
           "import os, sys\n"
           "path, checkout = sys.argv[1], sys.argv[2]\n"
           "f = open(path, 'r+')\n"
           "f.seek(0, 2); f.write('\\nLIMIT = 3\\n'); f.flush()\n"
           "print(os.fstat(f.fileno()).st_size, os.stat(path).st_size)\n"
           "os.fsync(f.fileno())\n"
           "print(open(checkout).read().endswith('\\nLIMIT = 3\\n'))\n"
           "f.close()\n"
           "print(os.stat(path).st_size == len(open(path, 'rb').read()))\n",
           mnt_ + "/pkg/core.py", repo_ + "/pkg/core.py"});
  ASSERT_EQ(python.exit_code, 0) << python.err;
  const std::string grown = std::to_string(before.size() + 11);
  EXPECT_EQ(python.out, grown + " " + grown + "\nTrue\nTrue\n");
  EXPECT_EQ(checkout("pkg/core.py"), kCore + "\nLIMIT = 3\n");
  expect_checkout_tag_free();
  expect_retagged("pkg/core.py");
  struct stat st {};
  ASSERT_EQ(::stat((mnt_ + "/pkg/core.py").c_str(), &st), 0);
  EXPECT_EQ(static_cast<size_t>(st.st_size), view("pkg/core.py").size());
}

TEST_F(WritableMount, AnEditElsewhereUpdatesCalledByHere) {
  mount();
  ASSERT_EQ(shell("sed -i 's/return helper(2) + Engine().run()/return 0/' pkg/app.py").exit_code,
            0);
  EXPECT_TRUE(wait_until(30s, [&] { return !contains(view("pkg/core.py"), "pkg/app.py:main"); }))
      << view("pkg/core.py");
  expect_retagged("pkg/core.py");
  expect_checkout_tag_free();
}

TEST_F(WritableMount, ChangedTagLinesAreDiscardedAndInsertedCodeIsKept) {
  mount();
  std::string text = view("pkg/core.py");
  text = replaced(text, "CALLED_BY: pkg/app.py:main", "CALLED_BY: somebody.py:else");
  text = replaced(text, "def helper(x):\n", "def helper(x):\n    x = abs(x)\n");
  text = replaced(text, "class Engine:\n", "LIMIT = 3\n\n\nclass Engine:\n");
  write_file(mnt_ + "/pkg/core.py", text);
  std::string expected = replaced(kCore, "def helper(x):\n", "def helper(x):\n    x = abs(x)\n");
  expected = replaced(expected, "class Engine:\n", "LIMIT = 3\n\n\nclass Engine:\n");
  EXPECT_EQ(checkout("pkg/core.py"), expected);
  expect_checkout_tag_free();
  expect_retagged("pkg/core.py");
}

TEST_F(WritableMount, PatchP1AppliesToTheTaggedView) {
  mount();
  const std::string diff =
      "--- a/pkg/core.py\n"
      "+++ b/pkg/core.py\n"
      "@@ -5,7 +5,7 @@\n"
      "     a = x + 1\n"
      "     b = a * 2\n"
      "     c = b - 3\n"
      "-    d = c + 4\n"
      "+    d = c + 40\n"
      "     e = d * 5\n"
      "     f = e - 6\n"
      "     return f\n";
  write_file(dir_ / "change.diff", diff);
  const ProcessResult patch = shell("patch -p1 < " + (dir_ / "change.diff"));
  ASSERT_EQ(patch.exit_code, 0) << patch.out << patch.err;
  EXPECT_EQ(checkout("pkg/core.py"), replaced(kCore, "d = c + 4", "d = c + 40"));
  expect_checkout_tag_free();
  expect_retagged("pkg/core.py");
}

TEST_F(WritableMount, GitApplyInsideTheMount) {
  mount();
  write_file(repo_ + "/pkg/core.py", replaced(kCore, "e = d * 5", "e = d * 50"));
  const ProcessResult diff = in_repo({"diff"});
  ASSERT_EQ(diff.exit_code, 0);
  ASSERT_EQ(in_repo({"checkout", "--", "pkg/core.py"}).exit_code, 0);
  write_file(dir_ / "change.diff", diff.out);
  expect_retagged("pkg/core.py");
  const ProcessResult apply = in_mount({"apply", dir_ / "change.diff"});
  ASSERT_EQ(apply.exit_code, 0) << apply.err;
  EXPECT_EQ(checkout("pkg/core.py"), replaced(kCore, "e = d * 5", "e = d * 50"));
  expect_checkout_tag_free();
  expect_retagged("pkg/core.py");
}

TEST_F(WritableMount, GitCheckoutFileRestoresTheCommittedBytes) {
  mount();
  ASSERT_EQ(shell("sed -i 's/a = x + 1/a = x + 100/' pkg/core.py").exit_code, 0);
  ASSERT_NE(checkout("pkg/core.py"), kCore);
  expect_retagged("pkg/core.py");
  const ProcessResult restore = in_mount({"checkout", "--", "pkg/core.py"});
  ASSERT_EQ(restore.exit_code, 0) << restore.err;
  EXPECT_EQ(checkout("pkg/core.py"), kCore);
  expect_checkout_tag_free();
  expect_retagged("pkg/core.py");
  EXPECT_EQ(in_repo({"status", "--porcelain"}).out, "");
}

// git stores every object as create tmp_obj_*, write, close, link(tmp, obj), unlink(tmp), and
// reads it back by name. The unlink moves obj's ctime, so obj becomes a new version; the kernel
// may still hold obj's name for the version the link returned (its invalidation is queued) and
// open that. Such an open must reach the file the name holds now, never fail: it once failed
// with EIO (about 1 open in 70 here), which git reports as "loose object ... is corrupt".
TEST_F(WritableMount, AnObjectLinkedThenUnlinkedUnderItsTemporaryNameOpensByItsName) {
  mount({"--no-watch"});
  const std::filesystem::path objects = std::filesystem::path(mnt_) / "objects";
  ASSERT_TRUE(std::filesystem::create_directory(objects));
  int failed_opens = 0;
  std::string first_failure;
  for (int i = 0; i < 300; ++i) {
    const std::string tmp = objects / ("tmp_obj_" + std::to_string(i));
    const std::string obj = objects / ("obj_" + std::to_string(i));
    const std::string bytes(static_cast<size_t>(100 + i), static_cast<char>('a' + i % 26));
    const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    ASSERT_EQ(::close(fd), 0) << std::strerror(errno);
    ASSERT_EQ(::link(tmp.c_str(), obj.c_str()), 0) << std::strerror(errno);
    ASSERT_EQ(::unlink(tmp.c_str()), 0) << std::strerror(errno);
    const int reader = ::open(obj.c_str(), O_RDONLY | O_CLOEXEC);
    if (reader < 0) {
      if (failed_opens++ == 0) first_failure = obj + ": " + std::strerror(errno);
      continue;
    }
    std::string read_back(bytes.size() + 1, '\0');
    const ssize_t n = ::read(reader, read_back.data(), read_back.size());
    ::close(reader);
    ASSERT_EQ(n, static_cast<ssize_t>(bytes.size())) << obj;
    read_back.resize(bytes.size());
    EXPECT_EQ(read_back, bytes) << obj;
  }
  EXPECT_EQ(failed_opens, 0) << "first: " << first_failure;
}

// Under --no-watch, so the view of a file git rewrote stays untagged (nothing re-analyses it).
TEST_F(WritableMount, GitStashAndPopRoundTrip) {
  mount({"--no-watch"});
  const std::string edited = replaced(kCore, "f = e - 6", "f = e - 60");
  ASSERT_EQ(shell("sed -i 's/f = e - 6/f = e - 60/' pkg/core.py").exit_code, 0);
  const ProcessResult stash = in_mount({"stash"});
  ASSERT_EQ(stash.exit_code, 0) << stash.err;
  EXPECT_EQ(checkout("pkg/core.py"), kCore);
  EXPECT_EQ(view("pkg/core.py"), kCore);
  EXPECT_EQ(in_repo({"show", "stash@{0}:pkg/core.py"}).out, edited);
  expect_checkout_tag_free();
  const ProcessResult pop = in_mount({"stash", "pop"});
  ASSERT_EQ(pop.exit_code, 0) << pop.err;
  EXPECT_EQ(checkout("pkg/core.py"), edited);
  EXPECT_EQ(view("pkg/core.py"), edited);
  EXPECT_EQ(in_repo({"stash", "list"}).out, "");
  expect_checkout_tag_free();
}

// Git writing its index and config through the mount leaves the checkout's repository as git in
// the checkout expects it: plain git there sees a clean tree after an add and commit made in the
// mount (its index holds the checkout's sizes, not the view's), and no filter line of the view
// reaches the checkout's .git/config.
TEST_F(WritableMount, GitWritingThroughTheMountLeavesTheCheckoutsRepositoryConsistent) {
  mount();
  const std::string config_before = checkout(".git/config");
  ASSERT_EQ(shell("sed -i 's/c = b - 3/c = b - 30/' pkg/core.py").exit_code, 0);
  expect_retagged("pkg/core.py");
  EXPECT_EQ(in_mount({"status", "--porcelain"}).out, " M pkg/core.py\n");
  ASSERT_EQ(in_mount({"add", "pkg/core.py"}).exit_code, 0);
  ASSERT_EQ(in_mount({"commit", "-qm", "two"}).exit_code, 0);
  ASSERT_EQ(in_mount({"config", "core.abbrev", "12"}).exit_code, 0);
  EXPECT_EQ(in_mount({"status", "--porcelain"}).out, "");
  EXPECT_EQ(in_mount({"diff", "HEAD~1", "--stat"}).out,
            " pkg/core.py | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n");

  const ProcessResult outside = run({"git", "status", "--porcelain"}, in_dir(repo_));
  EXPECT_EQ(outside.out, "") << outside.err;
  // git diff-files trusts stat data alone: nothing listed means every size and inode matches.
  EXPECT_EQ(run({"git", "diff-files", "--name-only"}, in_dir(repo_)).out, "");
  EXPECT_EQ(run({"git", "show", "HEAD:pkg/core.py"}, in_dir(repo_)).out,
            replaced(kCore, "c = b - 3", "c = b - 30"));
  const std::string config_after = checkout(".git/config");
  EXPECT_FALSE(contains(config_after, "anchorfs")) << config_after;
  EXPECT_TRUE(contains(config_after, "abbrev = 12")) << config_after;
  EXPECT_EQ(replaced(config_after, "\tabbrev = 12\n", ""), config_before);
  expect_checkout_tag_free();
  // And git in the mount still trusts its own view after git in the checkout refreshed the index.
  EXPECT_TRUE(wait_until(30s, [&] { return in_mount({"diff-files", "--name-only"}).out.empty(); }));
}

// The SWE-bench flow on a clone: edit with sed -i inside the mount, take the patch with plain git
// diff inside the mount; it is the checkout's own diff, tag-free, and applies onto a fresh clone.
TEST_F(WritableMount, SweBenchFlowPatchFromTheMountAppliesToAFreshClone) {
  const std::string clone = dir_ / "clone";
  ASSERT_EQ(run({"git", "clone", "-q", repo_, clone}).exit_code, 0);
  mount_ = std::make_unique<Mount>(clone, mnt_,
                                   std::vector<std::string>{"--writable", "--view", "topo"});
  ASSERT_TRUE(mount_->ok()) << mount_->result().err;
  ASSERT_EQ(shell("sed -i 's/return helper(1)/return helper(1) + 1/' pkg/core.py").exit_code, 0);
  EXPECT_TRUE(wait_until(30s, [&] {
    return contains(view("pkg/core.py"), "helper(1) + 1\n") &&
           contains(view("pkg/core.py"), kDelimiter);
  }));
  const ProcessResult inside = in_mount({"diff"});
  const ProcessResult outside = run({"git", "diff"}, in_dir(clone));
  ASSERT_EQ(inside.exit_code, 0) << inside.err;
  EXPECT_EQ(inside.out, outside.out);
  EXPECT_TRUE(contains(inside.out, "+        return helper(1) + 1")) << inside.out;
  EXPECT_FALSE(contains(inside.out, kDelimiter));
  EXPECT_FALSE(contains(inside.out, "CALLED_BY"));
  const std::string fresh = dir_ / "fresh";
  ASSERT_EQ(run({"git", "clone", "-q", repo_, fresh}).exit_code, 0);
  write_file(dir_ / "agent.diff", inside.out);
  ASSERT_EQ(run({"git", "apply", dir_ / "agent.diff"}, in_dir(fresh)).exit_code, 0);
  EXPECT_EQ(read_file(fresh + "/pkg/core.py"), read_file(clone + "/pkg/core.py"));
  const ProcessResult grep =
      run({"grep", "-rlE", "# === (Function|Class|File) Annotation ===", clone});
  EXPECT_EQ(grep.exit_code, 1) << grep.out;
}

TEST_F(WritableMount, EditorSaveWritesATemporaryAndRenamesItOver) {
  mount();
  // What an editor holds is the view it loaded, tags included, with the user's change.
  const std::string buffer = replaced(view("pkg/core.py"), "b = a * 2", "b = a * 20");
  write_file(mnt_ + "/pkg/.core.py.swp", buffer);
  ASSERT_EQ(::rename((mnt_ + "/pkg/.core.py.swp").c_str(), (mnt_ + "/pkg/core.py").c_str()), 0);
  EXPECT_EQ(checkout("pkg/core.py"), replaced(kCore, "b = a * 2", "b = a * 20"));
  EXPECT_FALSE(std::filesystem::exists(repo_ + "/pkg/.core.py.swp"));
  expect_checkout_tag_free();
  expect_retagged("pkg/core.py");
}

TEST_F(WritableMount, CopyMoveAndRemove) {
  mount();
  ASSERT_EQ(shell("cp pkg/core.py pkg/copy.py && cp README.md NOTES.md").exit_code, 0);
  EXPECT_EQ(checkout("pkg/copy.py"), kCore);
  EXPECT_EQ(checkout("NOTES.md"), "# sample\n");
  expect_checkout_tag_free();
  ASSERT_EQ(shell("mv pkg/copy.py pkg/moved.py").exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(repo_ + "/pkg/copy.py"));
  EXPECT_EQ(checkout("pkg/moved.py"), kCore);
  expect_retagged("pkg/moved.py");
  ASSERT_EQ(shell("rm pkg/moved.py NOTES.md").exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(repo_ + "/pkg/moved.py"));
  EXPECT_FALSE(std::filesystem::exists(repo_ + "/NOTES.md"));
  EXPECT_FALSE(std::filesystem::exists(mnt_ + "/pkg/moved.py"));
  expect_checkout_tag_free();
}

TEST_F(WritableMount, OtherOperationsPassThrough) {
  mount();
  const ProcessResult script = shell(
      "mkdir -p docs/sub && rmdir docs/sub && ln -s ../README.md docs/readme && "
      "ln README.md HARD.md && chmod 600 pkg/app.py && truncate -s 3 README.md && "
      "touch -d '2001-02-03 04:05:06' pkg/__init__.py && "
      "python3 -c \"import os; f = os.open('docs/log.txt', os.O_WRONLY | os.O_CREAT, 0o640); "
      "os.write(f, b'log\\n'); os.fsync(f); os.close(f)\" && echo more >> docs/log.txt");
  ASSERT_EQ(script.exit_code, 0) << script.err;
  struct stat st {};
  EXPECT_FALSE(std::filesystem::exists(repo_ + "/docs/sub"));
  ASSERT_EQ(::lstat((repo_ + "/docs/readme").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  ASSERT_EQ(::stat((repo_ + "/HARD.md").c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 2u);
  ASSERT_EQ(::stat((repo_ + "/pkg/app.py").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(checkout("README.md"), "# s");
  EXPECT_EQ(view("README.md"), "# s");
  ASSERT_EQ(::stat((repo_ + "/pkg/__init__.py").c_str(), &st), 0);
  EXPECT_EQ(st.st_mtim.tv_sec, 981173106);
  EXPECT_EQ(checkout("docs/log.txt"), "log\nmore\n");
  EXPECT_EQ(view("docs/log.txt"), "log\nmore\n");
  ASSERT_EQ(::stat((mnt_ + "/docs/log.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 9);
  // chmod keeps the tags: the file's bytes did not change.
  EXPECT_TRUE(contains(view("pkg/app.py"), kDelimiter));
  expect_checkout_tag_free();
}

TEST_F(WritableMount, UnparsableCodeIsStoredAsWrittenAndServedUntagged) {
  mount();
  const std::string broken = "def helper(x:\n    return (\n";
  write_file(mnt_ + "/pkg/core.py", broken);
  EXPECT_EQ(checkout("pkg/core.py"), broken);
  EXPECT_TRUE(wait_until(30s, [&] { return view("pkg/core.py") == broken; }))
      << view("pkg/core.py");
  write_file(mnt_ + "/pkg/core.py", kCore);
  EXPECT_EQ(checkout("pkg/core.py"), kCore);
  EXPECT_TRUE(wait_until(30s, [&] { return contains(view("pkg/core.py"), kDelimiter); }));
  expect_retagged("pkg/core.py");
}

// Two writers of one file: the first complete close stores; the second was made from a version
// the checkout no longer holds, so its close fails (ESTALE) rather than overwrite the first.
TEST_F(WritableMount, TwoWritersTheFirstCloseStoresTheSecondIsRefused) {
  mount();
  const std::string first(20000, 'a');
  const std::string second = "def second():\n    return 2\n";
  const ProcessResult python =
      run({"python3", "-c",
           "import sys\n"
           "a = open(sys.argv[1], 'w'); b = open(sys.argv[1], 'w')\n"
           "a.write(sys.argv[2][:10000]); a.flush(); b.write(sys.argv[3]); b.flush()\n"
           "a.write(sys.argv[2][10000:]); a.close()\n"
           "try:\n"
           "    b.close(); print('closed')\n"
           "except OSError as e: print('error', e.errno)\n",
           mnt_ + "/pkg/core.py", first, second});
  ASSERT_EQ(python.exit_code, 0) << python.err;
  EXPECT_EQ(python.out, "error 116\n");
  EXPECT_EQ(checkout("pkg/core.py"), first);
  expect_checkout_tag_free();
}

TEST_F(WritableMount, ReadOnlyStaysTheDefault) {
  mount_ = std::make_unique<Mount>(repo_, mnt_, std::vector<std::string>{"--view", "topo"});
  ASSERT_TRUE(mount_->ok()) << mount_->result().err;
  const ProcessResult sed = shell("sed -i 's/c = b - 3/c = b - 30/' pkg/core.py");
  EXPECT_NE(sed.exit_code, 0);
  EXPECT_TRUE(contains(sed.err, "Read-only file system")) << sed.err;
  EXPECT_EQ(checkout("pkg/core.py"), kCore);
}

TEST_F(WritableMount, PathsLeavingTheCheckoutAreRefused) {
  mount({"--no-watch"});
  const std::string outside = dir_ / "outside";
  make_dirs(outside);
  ASSERT_TRUE(std::filesystem::is_directory(mnt_ + "/pkg"));  // the kernel knows pkg
  std::filesystem::rename(repo_ + "/pkg", repo_ + "/pkg.real");
  std::filesystem::create_directory_symlink(outside, repo_ + "/pkg");
  const ProcessResult touch = shell("echo x > pkg/new.py");
  EXPECT_NE(touch.exit_code, 0);
  EXPECT_TRUE(std::filesystem::is_empty(outside));
}

// Files created through the mount are staged in memory while small (at most 64 at once, up to
// 256 KiB each; fs/checkout_io.h): 70 new files written while all are open, one of them grown
// past the bound a chunk at a time and read back through its own handle, one cut past it with
// truncate, times set on both: every byte and time lands in the checkout as written.
TEST_F(WritableMount, NewFilesStagedInMemoryOrPastItLandExactly) {
  make_dirs(repo_ + "/new");
  mount();
  const ProcessResult python = run(
      {"python3", "-c",
       "import os, sys\n"
       "root = sys.argv[1]\n"
       "files = [open(f'{root}/new/f{i}.txt', 'w+b') for i in range(70)]\n"
       "for i, f in enumerate(files): f.write(f'file {i}\\n'.encode() * (i + 1)); f.flush()\n"
       "big = files[3]\n"
       "chunk = bytes(range(256)) * 32\n"
       "for _ in range(80): big.write(chunk)\n"
       "big.flush()\n"
       "big.seek(0)\n"
       "expected = b'file 3\\n' * 4 + chunk * 80\n"
       "assert big.read() == expected, 'read back through the handle'\n"
       "files[5].truncate(300 * 1024)\n"
       "os.utime(big.fileno(), ns=(1_000_000_000_000_000_000, 1_100_000_000_123_456_789))\n"
       "os.utime(files[7].fileno(), ns=(1_000_000_000_000_000_000, 1_200_000_000_000_000_001))\n"
       "for f in files: f.close()\n",
       mnt_});
  ASSERT_EQ(python.exit_code, 0) << python.err;
  for (int i = 0; i < 70; ++i) {
    std::string expected;
    for (int k = 0; k <= i; ++k) expected += "file " + std::to_string(i) + "\n";
    if (i == 3) {
      std::string chunk;
      for (int b = 0; b < 256; ++b) chunk += static_cast<char>(b);
      for (int k = 0; k < 32 * 80; ++k) expected += chunk;
    }
    if (i == 5) expected.resize(300 * 1024, '\0');
    ASSERT_EQ(checkout("new/f" + std::to_string(i) + ".txt"), expected) << "f" << i;
  }
  struct stat big {};
  struct stat small {};
  ASSERT_EQ(::stat((repo_ + "/new/f3.txt").c_str(), &big), 0);
  ASSERT_EQ(::stat((repo_ + "/new/f7.txt").c_str(), &small), 0);
  EXPECT_EQ(big.st_mtim.tv_sec, 1'100'000'000);
  EXPECT_EQ(big.st_mtim.tv_nsec, 123'456'789);
  EXPECT_EQ(small.st_mtim.tv_sec, 1'200'000'000);
  EXPECT_EQ(small.st_mtim.tv_nsec, 1);
}

// A checkout on a full filesystem, and one the daemon may not write: the writer gets ENOSPC and
// EACCES, the errors the checkout gave.
TEST_F(WritableMount, NoSpaceReachesTheWriter) {
  const std::string small = dir_ / "small";
  make_dirs(small);
  ASSERT_EQ(::mount("tmpfs", small.c_str(), "tmpfs", 0, "size=256k"), 0) << std::strerror(errno);
  copy_tree(repo_ + "/pkg", small + "/pkg");
  std::unique_ptr<Mount> mounted = std::make_unique<Mount>(
      small, mnt_, std::vector<std::string>{"--writable", "--view", "topo"});
  const bool ok = mounted->ok();
  const std::string mount_errors = mounted->result().err;
  ProcessResult python;
  if (ok) {
    python = run({"python3", "-c",
                  "import sys, errno\n"
                  "try:\n"
                  "    with open(sys.argv[1], 'w') as f: f.write('x = 1\\n' * 100000)\n"
                  "except OSError as e: print(errno.errorcode[e.errno])\n",
                  mnt_ + "/pkg/core.py"});
  }
  const std::string after = read_file(small + "/pkg/core.py");
  mounted.reset();
  ::umount2(small.c_str(), MNT_DETACH);
  ASSERT_TRUE(ok) << mount_errors;
  EXPECT_EQ(python.out, "ENOSPC\n") << python.err;
  EXPECT_EQ(after, kCore);  // the old file, whole
}

TEST_F(WritableMount, PermissionDeniedReachesTheWriter) {
  ASSERT_EQ(::chmod((repo_ + "/pkg").c_str(), 0555), 0);
  // The daemon without the capability to override file permissions: the checkout's modes bind it.
  const ProcessResult mounted =
      run({"setpriv", "--bounding-set", "-dac_override,-dac_read_search", kAnchorfs, "mount", repo_,
           mnt_, "--writable", "--view", "topo"});
  ASSERT_EQ(mounted.exit_code, 0) << mounted.err;
  const ProcessResult python = run({"python3", "-c",
                                    "import sys, errno\n"
                                    "try:\n"
                                    "    open(sys.argv[1], 'w').write('x = 1\\n')\n"
                                    "except OSError as e: print(errno.errorcode[e.errno])\n",
                                    mnt_ + "/pkg/core.py"});
  anchorfs({"unmount", mnt_});
  ::chmod((repo_ + "/pkg").c_str(), 0755);
  EXPECT_EQ(python.out, "EACCES\n") << python.err;
  EXPECT_EQ(checkout("pkg/core.py"), kCore);
}

}  // namespace
}  // namespace anchorfs::itest
