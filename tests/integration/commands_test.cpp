// export, stats, graph and cache commands through the binary.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "checks.h"
#include "fixture.h"
#include "support.h"

namespace anchorfs::itest {
namespace {

class Commands : public ::testing::Test {
 protected:
  void SetUp() override {
    build_fixture_repo(repo_);
    fingerprint_ = tree_fingerprint(repo_);
  }
  void TearDown() override { EXPECT_EQ(tree_fingerprint(repo_), fingerprint_) << "REPO changed"; }

  // Runs python3 `code` with `input` on stdin; returns stdout (expects exit 0).
  static std::string python(const std::string& code, const std::string& input) {
    const ProcessResult result = run({"python3", "-c", code}, feeding(input));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return result.out;
  }

  TempDir dir_{"anchorfs-cmd"};
  std::string repo_ = dir_ / "repo";
  std::string fingerprint_;
};

TEST_F(Commands, ExportWritesWhatTheMountServes) {
  const std::string out = dir_ / "out";
  const ProcessResult exported = anchorfs({"export", repo_, out, "--view", "topo"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.err.find("anchorfs: exported " + repo_ + " to " + out), std::string::npos)
      << exported.err;

  const std::vector<TreeItem> original = list_tree(repo_);
  const std::vector<TreeItem> written = list_tree(out);
  ASSERT_EQ(original.size(), written.size());
  for (size_t i = 0; i < original.size(); ++i) {
    EXPECT_EQ(original[i].path, written[i].path);
    EXPECT_EQ(original[i].mode, written[i].mode) << original[i].path;
  }
  char target[256];
  const ssize_t n = readlink((out + "/models_link.py").c_str(), target, sizeof target);
  EXPECT_EQ(std::string(target, static_cast<size_t>(n > 0 ? n : 0)), "bookshelf/models.py");

  for (const std::string& path : regular_files(repo_)) {
    const std::string bytes = read_file(out + "/" + path);
    const ProcessResult rendered = anchorfs({"render", repo_, path, "--view", "topo"});
    EXPECT_EQ(bytes, rendered.out) << path;
    const ProcessResult stripped = anchorfs({"strip", out + "/" + path});
    EXPECT_EQ(stripped.out, read_file(repo_ + "/" + path)) << path;
  }
  size_t compared = 0;
  EXPECT_EQ(ast_mismatches(repo_, out, regular_files(repo_), compared), "");
  EXPECT_GE(compared, 18u);

  // Same again: refused unless --force, which rewrites identically.
  const ProcessResult again = anchorfs({"export", repo_, out});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "anchorfs: " + out + ": not empty (use --force to write into it)\n");
  const std::string before = tree_fingerprint(out);
  const ProcessResult forced = anchorfs({"export", repo_, out, "--view", "topo", "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(tree_fingerprint(out), before);
}

// View none is the study's baseline: the same files through the same commands, and no analysis
// (nothing parsed, nothing cached) in any command, not only in the mount.
TEST_F(Commands, ViewNoneAnalysesNothingInAnyCommand) {
  const std::string cache = dir_ / "cache";
  const std::string out = dir_ / "out";
  const ProcessResult exported =
      anchorfs({"export", repo_, out, "--view", "none", "--cache-dir", cache});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.err.find("(not analysed: view none"), std::string::npos) << exported.err;
  for (const std::string& path : regular_files(repo_)) {
    EXPECT_EQ(read_file(out + "/" + path), read_file(repo_ + "/" + path)) << path;
  }
  const ProcessResult rendered = anchorfs(
      {"render", repo_, "bookshelf/models.py", "--view", "none", "--cache-dir", cache});
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_EQ(rendered.out, read_file(repo_ + "/bookshelf/models.py"));
  const ProcessResult stats =
      anchorfs({"stats", repo_, "--view", "none", "--json", "--cache-dir", cache});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const nlohmann::json report = nlohmann::json::parse(stats.out);
  EXPECT_EQ(report["files"]["analysed"], 0) << stats.out;
  ASSERT_EQ(report["views"].size(), 2u) << stats.out;  // paper and lean
  for (const auto& row : report["views"]) EXPECT_EQ(row["tag_bytes"], 0) << stats.out;
  {
    const std::string mnt = dir_ / "mnt";
    make_dirs(mnt);
    Mount mount(repo_, mnt, {"--view", "none", "--no-watch", "--cache-dir", cache});
    ASSERT_TRUE(mount.ok()) << mount.result().err;
    EXPECT_NE(mount.result().err.find("(not analysed: view none"), std::string::npos)
        << mount.result().err;
    EXPECT_EQ(read_file(mnt + "/bookshelf/models.py"), read_file(repo_ + "/bookshelf/models.py"));
  }
  const ProcessResult cached = anchorfs({"cache", "stats", "--cache-dir", cache});
  EXPECT_NE(cached.out.find("0 file facts, 0 graphs"), std::string::npos) << cached.out;
}

TEST_F(Commands, ExportRefusesNestedDirectories) {
  const ProcessResult inside = anchorfs({"export", repo_, repo_ + "/tagged"});
  EXPECT_EQ(inside.exit_code, 1);
  EXPECT_EQ(inside.err, "anchorfs: " + repo_ + "/tagged: inside the repository " + repo_ +
                            " (anchorfs never writes there)\n");
  const ProcessResult around = anchorfs({"export", repo_, dir_.path()});
  EXPECT_EQ(around.exit_code, 1);
  EXPECT_EQ(around.err, "anchorfs: " + dir_.path() + ": contains the repository " + repo_ + "\n");
}

TEST_F(Commands, RenderAcceptsPathsRelativeToTheWorkingDirectory) {
  const ProcessResult relative_to_repo = anchorfs({"render", repo_, "bookshelf/models.py"});
  ASSERT_EQ(relative_to_repo.exit_code, 0) << relative_to_repo.err;
  RunOptions from_parent = in_dir(dir_.path());
  const ProcessResult relative_to_cwd =
      anchorfs({"render", "repo", "./repo/bookshelf/models.py"}, from_parent);
  EXPECT_EQ(relative_to_cwd.exit_code, 0) << relative_to_cwd.err;
  EXPECT_EQ(relative_to_cwd.out, relative_to_repo.out);
  const ProcessResult absolute = anchorfs({"render", repo_, repo_ + "/bookshelf/models.py"});
  EXPECT_EQ(absolute.out, relative_to_repo.out);
  const ProcessResult symlink = anchorfs({"render", repo_, "models_link.py"});
  EXPECT_EQ(symlink.exit_code, 1);
  EXPECT_EQ(symlink.err,
            "anchorfs: " + repo_ + "/models_link.py: a symbolic link, not a regular file\n");
}

TEST_F(Commands, StatsReportsTheSampleProject) {
  const ProcessResult table = anchorfs({"stats", kSampleProject});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("auto"), std::string::npos) << table.out;
  const ProcessResult json = anchorfs({"stats", kSampleProject, "--json", "--view", "topo"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  // The sample project has 10 Python files.
  EXPECT_EQ(python("import json,sys; print(json.load(sys.stdin)['files']['analysed'])", json.out),
            "10\n")
      << json.out;
}

TEST_F(Commands, GraphExportsPycgJsonAndDot) {
  const ProcessResult pycg = anchorfs({"graph", kSampleProject, "--format", "pycg"});
  ASSERT_EQ(pycg.exit_code, 0) << pycg.err;
  EXPECT_EQ(
      python("import json,sys; g=json.load(sys.stdin); "
             "print(sorted(c for c in g['bookshelf.cli.main'] if c.startswith('bookshelf.')))",
             pycg.out),
      "['bookshelf.cli.build_parser', 'bookshelf.cli.run', "
      "'bookshelf.services.LendingService.from_path']\n");
  const std::string file = dir_ / "graph.json";
  const ProcessResult json = anchorfs({"graph", kSampleProject, "-o", file});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, "");
  python("import json,sys; json.load(sys.stdin)", read_file(file));
  const ProcessResult dot = anchorfs({"graph", kSampleProject, "--format", "dot"});
  ASSERT_EQ(dot.exit_code, 0) << dot.err;
  EXPECT_EQ(dot.out.rfind("digraph", 0), 0u) << dot.out.substr(0, 200);
}

TEST_F(Commands, CacheIsUsedListedAndCleared) {
  const std::string cache = dir_ / "cache";
  const ProcessResult cold =
      anchorfs({"render", repo_, "bookshelf/models.py", "--cache-dir", cache});
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  const ProcessResult warm =
      anchorfs({"render", repo_, "bookshelf/models.py", "--cache-dir", cache});
  EXPECT_EQ(warm.out, cold.out);
  const ProcessResult stats = anchorfs({"cache", "stats", "--cache-dir", cache});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_TRUE(std::regex_search(stats.out, std::regex("entries +[1-9][0-9]* file facts, 1 graphs")))
      << stats.out;
  // The cold run asked for no graph: the cache held none of the tree's facts, so its survey was
  // its parse and no key was known before it (AnalysisOptions::survey_in_parse).
  EXPECT_TRUE(std::regex_search(stats.out,
                                std::regex("graphs +100\\.0% hit \\(1 local, 0 remote, 0 missed")))
      << stats.out;
  EXPECT_NE(stats.out.find("cap        2.0 GiB"), std::string::npos) << stats.out;

  const std::string mnt = dir_ / "mnt";
  make_dirs(mnt);
  Mount mount(repo_, mnt, {"--cache-dir", cache});
  ASSERT_TRUE(mount.ok()) << mount.result().err;
  EXPECT_NE(mount.result().err.find("from cache"), std::string::npos) << mount.result().err;

  const ProcessResult cleared = anchorfs({"cache", "clear", "--cache-dir", cache});
  EXPECT_EQ(cleared.exit_code, 0) << cleared.err;
  EXPECT_EQ(cleared.out, "removed 1 store from " + cache + "\n");
  const ProcessResult empty = anchorfs({"cache", "stats", "--cache-dir", cache});
  EXPECT_NE(empty.out.find("store      none yet"), std::string::npos) << empty.out;
}

}  // namespace
}  // namespace anchorfs::itest
