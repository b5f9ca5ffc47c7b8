// `mount --trace` and `trace report` on a real mount: what the trace records (processes, reads,
// the tag links in the bytes returned, definition spans) and the report's hand-worked measures.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support.h"

namespace anchorfs::itest {
namespace {

using namespace std::chrono_literals;

using nlohmann::json;

std::vector<json> trace_lines(const std::string& path) {
  std::vector<json> lines;
  std::istringstream in(read_file(path));
  std::string line;
  while (std::getline(in, line)) lines.push_back(json::parse(line));
  return lines;
}

bool trace_closed(const std::string& path) {
  const std::string text = read_file(path);
  return text.find("\"type\":\"end\"") != std::string::npos;
}

// b.py calls a.helper (a tag link), mentions c.unrelated only in a comment (a lexical link);
// d.py is linked to nothing.
void write_repo(const std::string& repo) {
  make_dirs(repo + "/pkg");
  write_file(repo + "/pkg/__init__.py", "");
  write_file(repo + "/pkg/a.py", "def helper():\n    return 1\n");
  write_file(repo + "/pkg/b.py",
             "from pkg.a import helper\n\n\n# see unrelated\ndef main():\n    return helper()\n");
  write_file(repo + "/pkg/c.py", "def unrelated():\n    return 2\n");
  write_file(repo + "/pkg/d.py", "def lonely():\n    return 3\n");
}

class TracedMount : public ::testing::Test {
 protected:
  void SetUp() override {
    write_repo(repo_);
    make_dirs(mnt_);
  }
  // Runs `steps` against a traced mount, unmounts, and waits for the trace to be closed.
  void traced(const std::vector<std::vector<std::string>>& steps,
              const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"--view", "topo", "--no-watch", "--trace", trace_};
    args.insert(args.end(), extra.begin(), extra.end());
    {
      Mount mount(repo_, mnt_, args);
      ASSERT_TRUE(mount.ok()) << mount.result().err;
      for (const auto& step : steps) {
        const ProcessResult result = run(step);
        ASSERT_EQ(result.exit_code, 0) << step[0] << ": " << result.err;
      }
    }
    ASSERT_TRUE(wait_until(30s, [&] { return trace_closed(trace_); })) << read_file(trace_);
  }

  TempDir dir_{"anchorfs-trace"};
  std::string repo_ = dir_ / "repo";
  std::string mnt_ = dir_ / "mnt";
  std::string trace_ = dir_ / "trace.jsonl";
};

TEST_F(TracedMount, RecordsProcessesReadsTheTagLinksReturnedAndDefinitionSpans) {
  traced({{"cat", mnt_ + "/pkg/b.py"}, {"cat", mnt_ + "/pkg/b.py"}});
  const std::vector<json> lines = trace_lines(trace_);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front()["type"], "header");
  EXPECT_EQ(lines.front()["root"], repo_);
  EXPECT_EQ(lines.back()["type"], "end");
  EXPECT_EQ(lines.back()["dropped"], 0);

  std::vector<int> reading_pids;
  json b_file;
  for (const json& line : lines) {
    if (line.value("type", "") == "file" && line["path"] == "pkg/b.py") b_file = line;
    if (line.value("op", "") != "read" || line["path"] != "pkg/b.py") continue;
    EXPECT_EQ(line["comm"], "cat");
    EXPECT_EQ(line["off"], 0);
    // b.py's blocks link to a.py (IMPORTS) and a.helper (CALLS), nothing to c or d.
    const std::vector<std::string> tags = line["tags"];
    EXPECT_EQ(tags, (std::vector<std::string>{"pkg/a.py", "pkg/a.py:helper"}));
    const int pid = line["pid"];
    if (std::find(reading_pids.begin(), reading_pids.end(), pid) == reading_pids.end()) {
      reading_pids.push_back(pid);
    }
  }
  // Both cats reached the daemon: a traced mount drops cached pages at every open.
  EXPECT_EQ(reading_pids.size(), 2u);

  ASSERT_TRUE(b_file.is_object());
  const std::string served = read_file(repo_ + "/pkg/b.py");
  EXPECT_EQ(b_file["original_size"], served.size());
  ASSERT_EQ(b_file["entities"].size(), 2u);  // the file and main
  EXPECT_EQ(b_file["entities"][0][3], "pkg/b.py");
  EXPECT_EQ(b_file["entities"][1][2], "function");
  EXPECT_EQ(b_file["entities"][1][3], "pkg/b.py:main");
  // main's span runs from its tag block to the end of the served file.
  EXPECT_EQ(b_file["entities"][1][1], b_file["size"]);
  EXPECT_EQ(b_file["entities"][0][1], b_file["size"]);

  int processes = 0;
  for (const json& line : lines) {
    if (line.value("type", "") != "process" || line["comm"] != "cat") continue;
    ++processes;
    EXPECT_EQ(line["sid"], static_cast<int>(getsid(0)));
    ASSERT_FALSE(line["chain"].empty());
    EXPECT_EQ(line["chain"][0][0], static_cast<int>(getpid()));  // run() forks cat from here
  }
  EXPECT_EQ(processes, 2);
}

// The header says how the tags were made: the style and the mount's options as given.
TEST_F(TracedMount, HeaderRecordsTheMountConfiguration) {
  traced({{"cat", mnt_ + "/pkg/b.py"}},
         {"--style", "lean", "--max-links", "3", "--tag-budget", "12.5"});
  const json header = trace_lines(trace_).front();
  EXPECT_EQ(header["style"], "lean");
  EXPECT_EQ(header["options"], (json{{"view", "topo"},
                                     {"style", "lean"},
                                     {"max_links", "3"},
                                     {"tag_budget", "12.5"},
                                     {"watch", "no"},
                                     {"writable", "no"}}));
  const ProcessResult report = anchorfs({"trace", "report", "--json", trace_});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json run = json::parse(report.out)["runs"][0];
  EXPECT_EQ(run["style"], "lean");
  EXPECT_EQ(run["options"]["max_links"], "3");
}

TEST_F(TracedMount, KeepingTheKernelCacheSeesOnlyTheFirstRead) {
  traced({{"cat", mnt_ + "/pkg/b.py"}, {"cat", mnt_ + "/pkg/b.py"}}, {"--trace-keep-cache"});
  size_t reads = 0;
  for (const json& line : trace_lines(trace_)) {
    reads += line.value("op", "") == "read" && line["path"] == "pkg/b.py";
  }
  EXPECT_EQ(reads, 1u);
}

TEST_F(TracedMount, ReportClassifiesStructuralLexicalAndExploratoryHopsAndSearches) {
  traced({{"cat", mnt_ + "/pkg/b.py"},
          {"cat", mnt_ + "/pkg/a.py"},
          {"cat", mnt_ + "/pkg/c.py"},
          {"grep", "-r", "-l", "helper", mnt_ + "/pkg"},
          {"cat", mnt_ + "/pkg/d.py"}});
  const ProcessResult result = anchorfs({"trace", "report", "--json", trace_});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json report = json::parse(result.out);
  const json& run = report["runs"][0];
  const json& session = run["sessions"][run["primary"].get<size_t>()];
  const json& steps = session["steps"];
  ASSERT_EQ(steps.size(), 5u) << steps.dump(1);
  EXPECT_EQ(steps[0]["path"], "pkg/b.py");
  EXPECT_TRUE(steps[0]["hop"].is_null());
  EXPECT_EQ(steps[0]["entities"], json::array({"pkg/b.py:main"}));
  EXPECT_EQ(steps[1]["path"], "pkg/a.py");
  EXPECT_EQ(steps[1]["hop"], "structural");
  EXPECT_EQ(steps[1]["via"], "pkg/a.py");
  EXPECT_EQ(steps[2]["path"], "pkg/c.py");
  EXPECT_EQ(steps[2]["hop"], "lexical");
  EXPECT_EQ(steps[2]["via"], "pkg/c.py:unrelated");
  EXPECT_EQ(steps[3]["kind"], "search");
  EXPECT_EQ(steps[3]["comm"], "grep");
  EXPECT_EQ(steps[3]["files"], 4);  // a.py to d.py: the empty __init__.py needs no read
  EXPECT_EQ(steps[4]["path"], "pkg/d.py");
  EXPECT_EQ(steps[4]["hop"], "exploratory");
  EXPECT_EQ(steps[4]["after_search"], true);
  const json& m = session["metrics"];
  EXPECT_EQ(m["visits"], 4);
  EXPECT_EQ(m["searches"], 1);
  EXPECT_EQ(m["rounds"], 5);
  EXPECT_EQ(m["hops"], 3);
  EXPECT_EQ(m["structural"], 1);
  EXPECT_EQ(m["lexical"], 1);
  EXPECT_EQ(m["exploratory"], 1);
  EXPECT_DOUBLE_EQ(m["lfr"].get<double>(), 1.0 / 3.0);

  const ProcessResult markdown = anchorfs({"trace", "report", trace_});
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_NE(markdown.out.find("| 4 | 1 | 5 | 3 | 1 | 1 | 1 | 0.333 |"), std::string::npos)
      << markdown.out;
}

TEST_F(TracedMount, ReportRefusesWhatIsNotATrace) {
  write_file(trace_, "{\"hello\": 1}\n");
  const ProcessResult result = anchorfs({"trace", "report", trace_});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find("not an anchorfs trace"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace anchorfs::itest
