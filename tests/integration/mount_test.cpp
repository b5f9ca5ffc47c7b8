// A real mount of the fixture repository (topo view): every byte, the tags, read-only, tools.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "checks.h"
#include "fixture.h"
#include "support.h"
#include "tags.h"

namespace anchorfs::itest {
namespace {

class MountedFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("anchorfs-mount");
    repo_ = *dir_ / "repo";
    mnt_ = *dir_ / "mnt";
    build_fixture_repo(repo_);
    make_dirs(mnt_);
    fingerprint_ = tree_fingerprint(repo_);
    mount_ = new Mount(repo_, mnt_, {"--view", "topo"});
  }
  static void TearDownTestSuite() {
    delete mount_;
    delete dir_;
  }
  void SetUp() override {
    ASSERT_TRUE(mount_->ok()) << mount_->result().err;
    ASSERT_EQ(mount_fstype(mnt_), "fuse.anchorfs");
  }

  // What `anchorfs render` says the mount should serve for `path`.
  static std::string rendered(const std::string& path) {
    const ProcessResult result = anchorfs({"render", repo_, path, "--view", "topo"});
    EXPECT_EQ(result.exit_code, 0) << path << ": " << result.err;
    return result.out;
  }
  static std::string view(const std::string& path) { return read_file(mnt_ + "/" + path); }

  static TempDir* dir_;
  static Mount* mount_;
  static std::string repo_, mnt_, fingerprint_;
};

TempDir* MountedFixture::dir_ = nullptr;
Mount* MountedFixture::mount_ = nullptr;
std::string MountedFixture::repo_, MountedFixture::mnt_, MountedFixture::fingerprint_;

TEST_F(MountedFixture, MountSummaryNamesFilesEntitiesEdgesAndView) {
  const std::string& err = mount_->result().err;
  EXPECT_NE(err.find("mounted " + repo_ + " on " + mnt_), std::string::npos) << err;
  EXPECT_NE(err.find("source files"), std::string::npos) << err;
  EXPECT_NE(err.find("entities"), std::string::npos) << err;
  EXPECT_NE(err.find("edges"), std::string::npos) << err;
  EXPECT_NE(err.find("topo"), std::string::npos) << err;
}

TEST_F(MountedFixture, TreeShapeModesAndSymlinksMatchTheRepository) {
  const std::vector<TreeItem> original = list_tree(repo_);
  const std::vector<TreeItem> served = list_tree(mnt_);
  ASSERT_EQ(original.size(), served.size());
  for (size_t i = 0; i < original.size(); ++i) {
    EXPECT_EQ(original[i].path, served[i].path);
    EXPECT_EQ(original[i].mode, served[i].mode) << original[i].path;
    if (S_ISLNK(original[i].mode)) {
      char a[4096], b[4096];
      const ssize_t na = readlink((repo_ + "/" + original[i].path).c_str(), a, sizeof a);
      const ssize_t nb = readlink((mnt_ + "/" + served[i].path).c_str(), b, sizeof b);
      ASSERT_GT(na, 0);
      EXPECT_EQ(std::string(a, static_cast<size_t>(na)), std::string(b, static_cast<size_t>(nb)));
    }
  }
}

TEST_F(MountedFixture, EveryFileServesExactlyWhatRenderPrints) {
  size_t tagged = 0;
  for (const std::string& path : regular_files(repo_)) {
    const std::string served = view(path);
    EXPECT_EQ(served, rendered(path)) << path;
    struct stat st {};
    ASSERT_EQ(stat((mnt_ + "/" + path).c_str(), &st), 0) << path;
    EXPECT_EQ(static_cast<size_t>(st.st_size), served.size()) << path;
    const std::string original = read_file(repo_ + "/" + path);
    if (served != original) ++tagged;
    const bool source = path.size() > 3 && path.compare(path.size() - 3, 3, ".py") == 0;
    if (!source) {
      EXPECT_EQ(served, original) << path << " is not Python and must be untouched";
    }
  }
  EXPECT_GE(tagged, 10u) << "most sample modules should carry tags";
  EXPECT_EQ(view("tricky/broken.py"), read_file(repo_ + "/tricky/broken.py"));
  EXPECT_EQ(view("tricky/empty.py"), "");
  EXPECT_EQ(tree_fingerprint(repo_), fingerprint_) << "the repository changed";
}

TEST_F(MountedFixture, StripGivesBackEveryOriginal) {
  for (const std::string& path : regular_files(repo_)) {
    const ProcessResult stripped = anchorfs({"strip", mnt_ + "/" + path});
    ASSERT_EQ(stripped.exit_code, 0) << stripped.err;
    EXPECT_EQ(stripped.out, read_file(repo_ + "/" + path)) << path;
  }
  // And from stdin.
  const ProcessResult piped = anchorfs({"strip"}, feeding(view("bookshelf/models.py")));
  EXPECT_EQ(piped.out, read_file(repo_ + "/bookshelf/models.py"));
}

TEST_F(MountedFixture, EveryPythonFileKeepsItsAst) {
  size_t compared = 0;
  EXPECT_EQ(ast_mismatches(repo_, mnt_, regular_files(repo_), compared), "");
  EXPECT_GE(compared, 18u);
}

TEST_F(MountedFixture, ReadsAtRandomOffsetsAndMmapReturnTheRightSlice) {
  std::mt19937_64 random(20240611);
  for (const std::string& path : regular_files(repo_)) {
    const std::string expected = view(path);
    const int fd = open((mnt_ + "/" + path).c_str(), O_RDONLY);
    ASSERT_GE(fd, 0) << path;
    for (int i = 0; i < 40; ++i) {
      const size_t offset = random() % (expected.size() + 16);
      const size_t size = 1 + random() % 5000;
      std::string buffer(size, '\0');
      const ssize_t n = pread(fd, buffer.data(), size, static_cast<off_t>(offset));
      ASSERT_GE(n, 0) << path;
      const std::string want = offset < expected.size() ? expected.substr(offset, size) : "";
      ASSERT_EQ(buffer.substr(0, static_cast<size_t>(n)), want)
          << path << " at " << offset << "+" << size;
    }
    if (!expected.empty()) {
      void* map = mmap(nullptr, expected.size(), PROT_READ, MAP_PRIVATE, fd, 0);
      ASSERT_NE(map, MAP_FAILED) << path;
      EXPECT_EQ(std::string(static_cast<const char*>(map), expected.size()), expected) << path;
      munmap(map, expected.size());
    }
    close(fd);
  }
}

TEST_F(MountedFixture, TagsLinkCallersCalleesBasesAndImportsAcrossModules) {
  const std::string models = view("bookshelf/models.py");
  const auto item = tag_fields(models, "class: bookshelf/models.py:Item");
  EXPECT_TRUE(lists(item, "DERIVED", "Book")) << models;
  EXPECT_TRUE(lists(item, "DERIVED", "Magazine"));
  const auto book = tag_fields(models, "class: bookshelf/models.py:Book");
  EXPECT_TRUE(lists(book, "BASE", "Item"));
  EXPECT_TRUE(lists(book, "DERIVED", "ReferenceBook"));
  const auto item_init = tag_fields(models, "function: bookshelf/models.py:Item.__init__");
  EXPECT_TRUE(lists(item_init, "CALLS", "bookshelf/util/text.py:normalize_title"));
  EXPECT_TRUE(lists(item_init, "CALLED_BY", "Book.__init__")) << "super().__init__()";
  EXPECT_TRUE(lists(item_init, "CALLED_BY", "Magazine.__init__"));
  EXPECT_TRUE(lists(item_init, "PARENT", "Item"));
  const auto book_init = tag_fields(models, "function: bookshelf/models.py:Book.__init__");
  EXPECT_TRUE(lists(book_init, "CALLS", "Item.__init__"));
  EXPECT_TRUE(lists(book_init, "CALLED_BY", "item_from_record")) << "Book() -> Book.__init__";
  EXPECT_TRUE(lists(book_init, "CALLED_BY", "bookshelf/cli.py:run"));

  const std::string text = view("bookshelf/util/text.py");
  const auto normalize = tag_fields(text, "function: bookshelf/util/text.py:normalize_title");
  EXPECT_TRUE(lists(normalize, "CALLED_BY", "bookshelf/models.py:Item.__init__")) << text;
  const auto slugify = tag_fields(text, "function: bookshelf/util/text.py:slugify");
  EXPECT_TRUE(lists(slugify, "CALLS", "strip_accents"));
  EXPECT_TRUE(lists(slugify, "CALLED_BY", "bookshelf/models.py:Item.key"));
  const auto text_file = tag_fields(text, "file: bookshelf/util/text.py");
  EXPECT_TRUE(lists(text_file, "IMPORTED_BY", "bookshelf/models.py"));
  EXPECT_TRUE(lists(text_file, "IMPORTED_BY", "bookshelf/util/__init__.py"));

  const std::string storage = view("bookshelf/storage.py");
  const auto json_catalogue = tag_fields(storage, "class: bookshelf/storage.py:JsonCatalogue");
  EXPECT_TRUE(lists(json_catalogue, "BASE", "Catalogue")) << storage;
  const auto load = tag_fields(storage, "function: bookshelf/storage.py:JsonCatalogue._load");
  EXPECT_TRUE(lists(load, "CALLS", "bookshelf/models.py:item_from_record")) << "models.f()";

  const std::string services = view("bookshelf/services.py");
  const auto services_file = tag_fields(services, "file: bookshelf/services.py");
  for (const char* imported : {"bookshelf/errors.py", "bookshelf/models.py", "bookshelf/storage.py",
                               "bookshelf/util/decorators.py"}) {
    EXPECT_TRUE(lists(services_file, "IMPORTS", imported)) << imported << "\n" << services;
  }
  const auto from_path =
      tag_fields(services, "function: bookshelf/services.py:LendingService.from_path");
  EXPECT_TRUE(lists(from_path, "CALLS", "bookshelf/storage.py:open_catalogue"));
  EXPECT_TRUE(lists(from_path, "CALLED_BY", "bookshelf/cli.py:main"));

  const std::string errors = view("bookshelf/errors.py");
  const auto shelf_error = tag_fields(errors, "class: bookshelf/errors.py:ShelfError");
  EXPECT_TRUE(lists(shelf_error, "DERIVED", "NotFound")) << errors;
  EXPECT_TRUE(lists(shelf_error, "DERIVED", "AlreadyLent"));

  const std::string cli = view("bookshelf/cli.py");
  const auto main_fields = tag_fields(cli, "function: bookshelf/cli.py:main");
  EXPECT_TRUE(lists(main_fields, "CALLS", "build_parser")) << cli;
  EXPECT_TRUE(lists(main_fields, "CALLS", "run"));
  EXPECT_TRUE(lists(main_fields, "CALLS", "bookshelf/services.py:LendingService.from_path"));
}

TEST_F(MountedFixture, AwkwardFormatsKeepTheirShape) {
  // CRLF: tag lines end in CRLF like the rest of the file.
  const std::string crlf = view("tricky/crlf.py");
  const std::string shout = tag_block(crlf, "function: tricky/crlf.py:Shouter.shout");
  ASSERT_FALSE(shout.empty()) << crlf;
  EXPECT_NE(shout.find("CALLS: bookshelf/util/text.py:slugify\r\n"), std::string::npos) << shout;
  EXPECT_EQ(std::count(shout.begin(), shout.end(), '\n'),
            std::count(shout.begin(), shout.end(), '\r'))
      << "every tag line must end in CRLF";
  EXPECT_EQ(crlf.find("\r\r"), std::string::npos);

  // BOM stays first; the file still starts with the original bytes' BOM.
  const std::string bom = view("tricky/bom.py");
  EXPECT_EQ(bom.rfind("\xEF\xBB\xBF", 0), 0u);
  EXPECT_TRUE(lists(tag_fields(bom, "function: tricky/bom.py:make_book"), "CALLS",
                    "bookshelf/models.py:Book.__init__"))
      << bom;

  // No final newline: still none, and the tags are there.
  const std::string no_newline = view("tricky/no_newline.py");
  EXPECT_EQ(no_newline.back(), '1');
  EXPECT_TRUE(
      lists(tag_fields(no_newline, "function: tricky/no_newline.py:helper"), "CALLED_BY", "last"))
      << no_newline;

  // Tabs: the block takes the method's own indentation.
  const std::string tabs = view("tricky/tabs.py");
  const std::string run = tag_block(tabs, "function: tricky/tabs.py:Base.run");
  ASSERT_FALSE(run.empty()) << tabs;
  EXPECT_EQ(run.rfind("\t# === Function Annotation ===\n", 0), 0u) << run;
  EXPECT_TRUE(lists(tag_fields(tabs, "class: tricky/tabs.py:Child"), "BASE", "Base"));

  // Decorators: the block sits above the first decorator.
  const std::string decorated = view("tricky/decorated.py");
  const std::string handler = tag_block(decorated, "function: tricky/decorated.py:handler");
  ASSERT_FALSE(handler.empty()) << decorated;
  EXPECT_EQ(decorated.substr(decorated.find(handler) + handler.size(), 30),
            "@register\n@traced(\"handler\")\nd");
  EXPECT_TRUE(
      lists(tag_fields(decorated, "function: tricky/decorated.py:handler"), "CALLS", "transform"));

  // Shebang and encoding declaration stay the first two lines.
  const std::string script = view("tricky/script.py");
  EXPECT_EQ(script.rfind(
                "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n# === File Annotation ===\n", 0),
            0u)
      << script;
}

TEST_F(MountedFixture, EveryWriteFailsWithReadOnlyFilesystem) {
  const std::string file = mnt_ + "/bookshelf/models.py";
  auto expect_erofs = [](int rc, const char* what) {
    EXPECT_EQ(rc, -1) << what;
    EXPECT_EQ(errno, EROFS) << what << ": " << strerror(errno);
  };
  expect_erofs(open(file.c_str(), O_WRONLY), "open for writing");
  expect_erofs(open(file.c_str(), O_RDWR), "open read-write");
  expect_erofs(open((mnt_ + "/new.py").c_str(), O_WRONLY | O_CREAT, 0644), "create");
  expect_erofs(mkdir((mnt_ + "/newdir").c_str(), 0755), "mkdir");
  expect_erofs(unlink(file.c_str()), "unlink");
  expect_erofs(rmdir((mnt_ + "/tricky").c_str()), "rmdir");
  expect_erofs(rename(file.c_str(), (mnt_ + "/moved.py").c_str()), "rename");
  expect_erofs(chmod(file.c_str(), 0777), "chmod");
  expect_erofs(truncate(file.c_str(), 0), "truncate");
  expect_erofs(symlink("x", (mnt_ + "/link").c_str()), "symlink");
  expect_erofs(link(file.c_str(), (mnt_ + "/hard").c_str()), "link");
  EXPECT_EQ(tree_fingerprint(repo_), fingerprint_);
}

TEST_F(MountedFixture, PythonImportsCompilesAndTestsInTheMount) {
  TempDir pycache("anchorfs-pycache");
  const RunOptions in_mount = in_dir(mnt_, {{"PYTHONPYCACHEPREFIX", pycache.path()}});
  const ProcessResult imported = run(
      {"python3", "-c", "import bookshelf, tricky.crlf, tricky.bom; print(bookshelf.__version__)"},
      in_mount);
  EXPECT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(imported.out, "0.3.0\n");
  const ProcessResult compiled =
      run({"python3", "-m", "compileall", "-q", "-x", "broken", "bookshelf", "tricky", "tests"},
          in_mount);
  EXPECT_EQ(compiled.exit_code, 0) << compiled.out << compiled.err;
  const ProcessResult tests =
      run({"python3", "-m", "unittest", "-q", "tests.test_services"}, in_mount);
  EXPECT_EQ(tests.exit_code, 0) << tests.err;
  const ProcessResult cli = run({"python3", "-m", "bookshelf.cli", "list"}, in_mount);
  EXPECT_EQ(cli.exit_code, 0) << cli.err;
}

TEST_F(MountedFixture, SearchToolsFindTagLines) {
  const ProcessResult rg = run({"rg", "-n", "CALLS: .*util/text.py:normalize_title", mnt_});
  EXPECT_EQ(rg.exit_code, 0) << rg.err;
  EXPECT_NE(rg.out.find(mnt_ + "/bookshelf/models.py:"), std::string::npos) << rg.out;
  const ProcessResult defs =
      run({"rg", "-c", "^\\s*# === Function Annotation ===", mnt_ + "/bookshelf"});
  EXPECT_EQ(defs.exit_code, 0) << defs.err;
  const ProcessResult grep = run({"grep", "-rn", "# class: bookshelf/models.py:Book$", mnt_});
  EXPECT_EQ(grep.exit_code, 0) << grep.err;
  EXPECT_NE(grep.out.find("bookshelf/models.py"), std::string::npos);
  const ProcessResult hidden = run({"rg", "--hidden", "-l", "loan_days", mnt_});
  EXPECT_NE(hidden.out.find(".config/settings.ini"), std::string::npos) << hidden.out;
}

}  // namespace
}  // namespace anchorfs::itest
