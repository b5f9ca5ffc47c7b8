// The pipeline: file selection, safe reads, determinism across thread counts, the fact cache.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "analysis/source_files.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::analysis::test {
namespace {

std::vector<std::string> file_paths(const Graph& g) {
  std::vector<std::string> out;
  for (const FileInfo& f : g.files) out.push_back(g.entities[f.entity].name);
  return out;
}

TEST(Selection, SkipsHiddenGeneratedAndVirtualenvDirectories) {
  TempRepo repo;
  repo.write("pkg/__init__.py", "");
  repo.write("pkg/mod.py", "def f(): pass\n");
  repo.write("pkg/mod.pyi", "def f() -> None: ...\n");
  repo.write(".git/hooks/x.py", "x = 1\n");
  repo.write(".venv/lib/y.py", "y = 1\n");
  repo.write("env/pyvenv.cfg", "home = /usr\n");
  repo.write("env/lib/z.py", "z = 1\n");
  repo.write("pkg/__pycache__/c.py", "c = 1\n");
  repo.write("web/node_modules/n.py", "n = 1\n");
  repo.write("vendor/site-packages/s.py", "s = 1\n");
  repo.write("README.md", "# not python\n");
  const Graph g = repo.analyze().graph;
  EXPECT_EQ(file_paths(g), (std::vector<std::string>{"pkg/__init__.py", "pkg/mod.py"}));
}

TEST(Selection, NeverFollowsSymlinksOrBlocksOnSpecialFiles) {
  TempRepo repo;
  repo.write("real.py", "def f(): pass\n");
  std::filesystem::create_symlink("real.py", repo.root() + "/link.py");
  ASSERT_EQ(::mkfifo((repo.root() + "/pipe.py").c_str(), 0644), 0);
  const Analysis a = repo.analyze();
  EXPECT_EQ(file_paths(a.graph), (std::vector<std::string>{"real.py"}));
}

TEST(Selection, SkipsBinaryOversizedAndUnreadableFiles) {
  TempRepo repo;
  repo.write("ok.py", "x = 1\n");
  repo.write("nul.py", std::string("x = 1\n\0\n", 8));
  repo.write("big.py", std::string(5000, '#') + "\n");
  AnalysisOptions options;
  options.max_file_bytes = 4096;
  const Analysis a = analyze(scan_tree(repo.root()), options);
  EXPECT_EQ(file_paths(a.graph), (std::vector<std::string>{"ok.py"}));
  std::map<std::string, std::string> reasons;
  for (const SkippedFile& s : a.skipped) reasons[s.path] = s.reason;
  ASSERT_EQ(reasons.size(), 2u);
  EXPECT_NE(reasons["nul.py"].find("NUL"), std::string::npos);
  EXPECT_NE(reasons["big.py"].find("too large"), std::string::npos);
  const SourceBytes missing = read_source(repo.root(), "gone.py", 100);
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.problem.find("unreadable"), std::string::npos);
}

// A repository large enough that several threads really share the work.
void write_generated_repo(const TempRepo& repo) {
  for (int m = 0; m < 40; ++m) {
    std::string text = "from . import m" + std::to_string((m + 1) % 40) + " as nxt\n";
    text += "class C" + std::to_string(m) + "(nxt.C" + std::to_string((m + 1) % 40) + "):\n";
    text += "    def run(self, k):\n        return helper(k) + nxt.helper(k)\n";
    text += "def helper(k):\n    return [lambda: k, C" + std::to_string(m) + "().run(k)]\n";
    repo.write("pkg/m" + std::to_string(m) + ".py", text);
  }
  repo.write("pkg/__init__.py", "");
}

TEST(Determinism, SameGraphForAnyThreadCount) {
  TempRepo repo;
  write_generated_repo(repo);
  const Analysis one = repo.analyze(1);
  const Analysis many = repo.analyze(4);
  ASSERT_EQ(one.graph.entities.size(), many.graph.entities.size());
  for (size_t e = 0; e < one.graph.entities.size(); ++e) {
    EXPECT_EQ(one.graph.id(static_cast<EntityIndex>(e)),
              many.graph.id(static_cast<EntityIndex>(e)));
  }
  EXPECT_EQ(one.graph.edges, many.graph.edges);
  EXPECT_FALSE(edges_of(one.graph, Relation::Calls).empty());
  EXPECT_FALSE(edges_of(one.graph, Relation::Inherits).empty());
  // Edges come sorted by (relation, from, to) without duplicates.
  for (size_t i = 1; i < one.graph.edges.size(); ++i) {
    const Edge& a = one.graph.edges[i - 1];
    const Edge& b = one.graph.edges[i];
    EXPECT_TRUE(std::tie(a.relation, a.from, a.to) < std::tie(b.relation, b.from, b.to));
  }
}

// The job beside the resolution (the render prepares its index of the entities there) runs once
// per analysis, on any thread count, and sees the final entities and files before any edge.
TEST(Determinism, BesideResolutionSeesTheFinalEntitiesBeforeTheEdges) {
  TempRepo repo;
  write_generated_repo(repo);
  for (const unsigned threads : {1u, 2u}) {
    AnalysisOptions options;
    options.threads = threads;
    int calls = 0;
    std::vector<std::string> seen;
    size_t files_seen = 0;
    size_t edges_seen = 0;
    options.beside_resolution = [&](const Graph& graph) {
      ++calls;
      for (size_t e = 0; e < graph.entities.size(); ++e) {
        seen.push_back(graph.id(static_cast<EntityIndex>(e)));
      }
      files_seen = graph.files.size();
      edges_seen = graph.edges.size();
    };
    const Analysis analysis = analysis::analyze(scan_tree(repo.root()), options);
    EXPECT_EQ(calls, 1) << threads;
    ASSERT_EQ(seen.size(), analysis.graph.entities.size()) << threads;
    for (size_t e = 0; e < seen.size(); ++e) {
      EXPECT_EQ(seen[e], analysis.graph.id(static_cast<EntityIndex>(e))) << threads;
    }
    EXPECT_EQ(files_seen, analysis.graph.files.size()) << threads;
    EXPECT_EQ(edges_seen, 0u) << threads;
    EXPECT_FALSE(edges_of(analysis.graph, Relation::Calls).empty());
  }
}

// Front ends resolve side by side; the graph is the same as when they resolved one by one.
TEST(Determinism, SameGraphForAnyThreadCountAcrossFrontEnds) {
  TempRepo repo;
  write_generated_repo(repo);
  repo.write("go.mod", "module example.com/m\n\ngo 1.19\n");
  repo.write("cmd/main.go",
             "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { lib.Run() }\n");
  repo.write("lib/lib.go", "package lib\n\nfunc Run() { helper() }\n\nfunc helper() {}\n");
  repo.write("Cargo.toml", "[package]\nname = \"m\"\nversion = \"0.1.0\"\n");
  repo.write("src/lib.rs", "mod util;\npub fn run() { util::helper(); }\n");
  repo.write("src/util.rs", "pub fn helper() {}\n");
  repo.write("web/app.js", "import { helper } from './util.js';\nexport function run() { helper(); }\n");
  repo.write("web/util.js", "export function helper() {}\n");
  repo.write("java/A.java", "class A extends B { void run() { go(); } }\n");
  repo.write("java/B.java", "class B { void go() {} }\n");
  const Analysis one = repo.analyze(1);
  const Analysis many = repo.analyze(4);
  std::set<std::string> languages;
  for (const FileInfo& file : one.graph.files) languages.insert(file.language);
  EXPECT_GE(languages.size(), 5u);
  ASSERT_EQ(one.graph.entities.size(), many.graph.entities.size());
  for (size_t e = 0; e < one.graph.entities.size(); ++e) {
    EXPECT_EQ(one.graph.id(static_cast<EntityIndex>(e)),
              many.graph.id(static_cast<EntityIndex>(e)));
  }
  EXPECT_EQ(one.graph.edges, many.graph.edges);
  EXPECT_EQ(one.graph.labels, many.graph.labels);
  // Every front end contributed calls of its own.
  std::map<EntityIndex, std::string> language_of_file;
  for (const FileInfo& file : one.graph.files) language_of_file[file.entity] = file.language;
  std::set<std::string> calling;
  for (const Edge& edge : one.graph.edges) {
    if (edge.relation == Relation::Calls) {
      calling.insert(language_of_file[one.graph.entities[edge.from].file]);
    }
  }
  EXPECT_EQ(calling, languages);
}

class MemoryCache : public FactCache {
 public:
  std::optional<std::string> load(const FactsKey& key) override {
    std::lock_guard lock(mutex_);
    ++loads;
    const auto it = entries_.find({key.digest.low, key.digest.high});
    if (it == entries_.end()) return std::nullopt;
    return it->second;
  }
  void store(const FactsKey& key, std::string_view facts) override {
    std::lock_guard lock(mutex_);
    entries_[{key.digest.low, key.digest.high}] = std::string(facts);
  }
  void corrupt_all() {
    for (auto& [key, value] : entries_) value = "garbage";
  }
  size_t records() {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }
  size_t loads = 0;

 private:
  std::mutex mutex_;
  std::map<std::pair<uint64_t, uint64_t>, std::string> entries_;
};

TEST(Cache, SecondRunLoadsFactsAndGivesTheSameGraph) {
  TempRepo repo;
  write_generated_repo(repo);
  MemoryCache cache;
  const Analysis cold = repo.analyze(2, &cache);
  EXPECT_EQ(cold.stats.from_cache, 0u);
  EXPECT_EQ(cold.stats.parsed, 41u);
  const Analysis warm = repo.analyze(2, &cache);
  EXPECT_EQ(warm.stats.from_cache, 41u);
  EXPECT_EQ(warm.stats.parsed, 0u);
  EXPECT_EQ(warm.graph.edges, cold.graph.edges);
  cache.corrupt_all();
  const Analysis recovered = repo.analyze(2, &cache);
  EXPECT_EQ(recovered.stats.parsed, 41u);
  EXPECT_EQ(recovered.graph.edges, cold.graph.edges);
}

// Records are written after the parse, beside the resolution; a file whose bytes an earlier file
// had still takes that file's facts instead of being parsed again, and one record is written.
TEST(Cache, FilesWithTheSameBytesAreParsedOnceAndStoredOnce) {
  TempRepo repo;
  const std::string shared = "def helper():\n    return 1\n";
  repo.write("a/__init__.py", shared);
  repo.write("b/__init__.py", shared);
  repo.write("c/__init__.py", shared);
  repo.write("main.py", "from a import helper\n\nhelper()\n");
  MemoryCache cache;
  const Analysis cold = repo.analyze(1, &cache);
  EXPECT_EQ(cold.stats.parsed, 2u);
  EXPECT_EQ(cold.stats.from_cache, 2u);
  EXPECT_EQ(cache.records(), 2u);
  const Analysis uncached = repo.analyze(1);
  EXPECT_EQ(cold.graph.edges, uncached.graph.edges);
  const Analysis warm = repo.analyze(2, &cache);
  EXPECT_EQ(warm.stats.parsed, 0u);
  EXPECT_EQ(warm.graph.edges, cold.graph.edges);
}

}  // namespace
}  // namespace anchorfs::analysis::test
