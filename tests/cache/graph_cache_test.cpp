// The graph cache through a real LMDB store: an unchanged tree reuses its whole analysis; any
// change resolution depends on is a miss that resolves to what a cache-less analysis gives.
#include <filesystem>

#include "analysis/analyze.h"
#include "analysis/graph_serialize.h"
#include "analysis/resolution_key.h"
#include "analysis/source_tree.h"
#include "cache/store_info.h"
#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

class GraphCacheTest : public CacheTest {
 protected:
  void SetUp() override {
    CacheTest::SetUp();
    put("pkg/__init__.py", "from pkg.core import Base\n");
    put("pkg/core.py",
        "import os\n\n\nclass Base:\n    def run(self):\n        return helper()\n\n\n"
        "def helper():\n    return os.environ.get('HOME')\n");
    put("pkg/derived.py",
        "from pkg.core import Base, helper\n\n\nclass Derived(Base):\n    def go(self):\n"
        "        return helper()\n");
    put("tool/__init__.py", "");
    put("tool/cli.py", "def main():\n    pass\n");
    put("setup.cfg", "[options.entry_points]\nconsole_scripts =\n    tool = tool.cli:main\n");
  }

  void put(const std::string& path, const std::string& bytes) {
    std::filesystem::create_directories(std::filesystem::path(repo_ + "/" + path).parent_path());
    write_file(repo_ + "/" + path, bytes);
  }
  void remove(const std::string& path) { std::filesystem::remove(repo_ + "/" + path); }

  analysis::Analysis analyse(LmdbFactCache* cache) {
    analysis::AnalysisOptions o;
    o.threads = 2;
    o.cache = cache;
    o.dense = dense_;
    o.keep_unchanged = keep_unchanged_;
    analysis::Analysis result = analysis::analyze(analysis::scan_tree(repo_), o);
    if (cache != nullptr) cache->flush();
    return result;
  }

  // Every field the serialization carries (its round trip is tested field by field).
  static std::string canonical(const analysis::Analysis& a) {
    return analysis::serialize_analysis(a);
  }

  // The tree as it is now: first a miss giving exactly the cache-less analysis, then a hit.
  void expect_miss_then_hit(LmdbFactCache& cache, const std::string& what) {
    SCOPED_TRACE(what);
    const analysis::Analysis uncached = analyse(nullptr);
    const analysis::Analysis first = analyse(&cache);
    EXPECT_FALSE(first.stats.graph_from_cache);
    EXPECT_EQ(canonical(first), canonical(uncached));
    const analysis::Analysis second = analyse(&cache);
    EXPECT_TRUE(second.stats.graph_from_cache);
    EXPECT_EQ(second.stats.parsed, 0u);
    EXPECT_EQ(canonical(second), canonical(uncached));
  }

  bool is_hit(LmdbFactCache& cache) { return analyse(&cache).stats.graph_from_cache; }

  bool dense_ = true;
  std::function<bool(const analysis::LanguageFrontEnd&, std::string_view)> keep_unchanged_;
};

TEST_F(GraphCacheTest, SecondAnalysisOfTheSameTreeIsAHitWithAnIdenticalResult) {
  auto cache = open_cache();
  const analysis::Analysis cold = analyse(cache.get());
  EXPECT_FALSE(cold.stats.graph_from_cache);
  EXPECT_GT(cold.stats.parsed, 0u);
  EXPECT_FALSE(cold.graph.labels.empty());  // the entry point and the environment variable
  EXPECT_EQ(cache->info().graph_entries, 1u);

  const analysis::Analysis warm = analyse(cache.get());
  EXPECT_TRUE(warm.stats.graph_from_cache);
  EXPECT_EQ(warm.stats.parsed, 0u);
  EXPECT_EQ(warm.stats.from_cache, warm.graph.files.size());
  EXPECT_EQ(warm.stats.source_files, cold.stats.source_files);
  EXPECT_EQ(warm.stats.lines, cold.stats.lines);
  EXPECT_EQ(canonical(warm), canonical(cold));
  EXPECT_EQ(cache->disk_hits(), 0u);  // no per-file facts were even looked up

  cache.reset();
  auto reopened = open_cache();
  const analysis::Analysis remount = analyse(reopened.get());
  EXPECT_TRUE(remount.stats.graph_from_cache);
  EXPECT_EQ(canonical(remount), canonical(cold));
  EXPECT_TRUE(warnings().empty());
}

TEST_F(GraphCacheTest, EveryChangeResolutionDependsOnIsAMiss) {
  auto cache = open_cache();
  expect_miss_then_hit(*cache, "initial tree");
  put("pkg/core.py", "def helper():\n    return 2\n\n\nclass Base:\n    pass\n");
  expect_miss_then_hit(*cache, "one file's content");
  put("pkg/extra.py", "from pkg.core import helper\n\n\ndef more():\n    return helper()\n");
  expect_miss_then_hit(*cache, "a file added");
  remove("pkg/derived.py");
  expect_miss_then_hit(*cache, "a file removed");
  std::filesystem::rename(repo_ + "/pkg/extra.py", repo_ + "/pkg/renamed.py");
  expect_miss_then_hit(*cache, "a file renamed");
  put("setup.cfg", "[options.entry_points]\nconsole_scripts =\n    other = tool.cli:main\n");
  expect_miss_then_hit(*cache, "setup.cfg, read by dense resolution");
  dense_ = false;
  expect_miss_then_hit(*cache, "dense off");
  put("setup.cfg", "[metadata]\nname = x\n");
  EXPECT_TRUE(is_hit(*cache)) << "without dense, setup.cfg is not read";
  keep_unchanged_ = [](const analysis::LanguageFrontEnd&, std::string_view bytes) {
    return bytes.starts_with("def helper");
  };
  expect_miss_then_hit(*cache, "a file kept unchanged");
  EXPECT_TRUE(warnings().empty());
}

// Build metadata below the root (a Go module nested in the repository, a workspace member's
// Cargo.toml) is read by resolution as much as the top-level file: editing only it is a miss.
// Copies inside directories the analysis never enters (node_modules) are not inputs.
TEST_F(GraphCacheTest, NestedBuildMetadataIsAResolutionInput) {
  put("svc/go.mod", "module example.com/svc\n\ngo 1.19\n");
  put("svc/main.go", "package main\n\nfunc main() {}\n");
  put("crates/a/Cargo.toml", "[package]\nname = \"a\"\nversion = \"0.1.0\"\n");
  put("crates/a/src/lib.rs", "pub fn f() {}\n");
  put("node_modules/dep/go.mod", "module dep\n");
  auto cache = open_cache();
  expect_miss_then_hit(*cache, "initial tree");
  put("svc/go.mod", "module example.com/renamed\n\ngo 1.19\n");
  expect_miss_then_hit(*cache, "a nested go.mod");
  put("crates/a/Cargo.toml", "[package]\nname = \"b\"\nversion = \"0.1.0\"\n");
  expect_miss_then_hit(*cache, "a member crate's Cargo.toml");
  put("node_modules/dep/go.mod", "module changed\n");
  EXPECT_TRUE(is_hit(*cache)) << "node_modules is never analysed";

  const analysis::SourceTree tree = analysis::scan_tree(repo_);
  EXPECT_EQ(analysis::resolution_input_paths(tree, {"go.mod", "docs/x.toml"}),
            (std::vector<std::string>{"docs/x.toml", "go.mod", "svc/go.mod"}));
}

TEST_F(GraphCacheTest, RevertingAnEditIsAHit) {
  auto cache = open_cache();
  expect_miss_then_hit(*cache, "original");
  const std::string original = read_file(repo_ + "/pkg/core.py");
  put("pkg/core.py", original + "\n\ndef added():\n    return helper()\n");
  expect_miss_then_hit(*cache, "edited");
  put("pkg/core.py", original);
  EXPECT_TRUE(is_hit(*cache));
}

TEST_F(GraphCacheTest, AnotherCheckoutOfTheSameTreeInAnotherDirectoryReusesEveryFact) {
  {
    auto cache = open_cache();
    analyse(cache.get());
  }
  const std::string first_repo = repo_;
  repo_ = scratch_ + "/second-checkout";
  std::filesystem::copy(first_repo, repo_, std::filesystem::copy_options::recursive);
  put("pkg/core.py", read_file(repo_ + "/pkg/core.py") + "\nEXTRA = 1\n");
  auto cache = open_cache();
  const analysis::Analysis second = analyse(cache.get());
  EXPECT_FALSE(second.stats.graph_from_cache);  // another root path: another resolution key
  EXPECT_EQ(second.stats.parsed, 1u) << "only the changed file is parsed";
  EXPECT_EQ(canonical(second), canonical(analyse(nullptr)));
}

// The serialized graph inside data.mdb (its payload starts with the format's magic).
size_t graph_record_offset(const std::string& data) {
  return read_file(data).find("AFGR");
}

TEST_F(GraphCacheTest, GraphRecordDamagedWhileOpenIsAMissAndTheStoreIsRebuilt) {
  auto cache = open_cache();
  const analysis::Analysis uncached = analyse(nullptr);
  analyse(cache.get());
  const std::string data = cache->store_dir() + "/data.mdb";
  const size_t at = graph_record_offset(data);
  ASSERT_NE(at, std::string::npos);
  const char old = read_file(data)[at + 40];
  patch_file(data, at + 40, std::string(1, static_cast<char>(old ^ 0x20)));

  const analysis::Analysis damaged = analyse(cache.get());  // flushes: rebuilds the store
  EXPECT_FALSE(damaged.stats.graph_from_cache);
  EXPECT_EQ(canonical(damaged), canonical(uncached));
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("failed verification"), std::string::npos) << warnings()[0];
  EXPECT_EQ(warnings()[0].find('\n'), std::string::npos);
  EXPECT_TRUE(cache->info().healthy);
  const analysis::Analysis rebuilt = analyse(cache.get());  // stored again after the rebuild
  EXPECT_TRUE(rebuilt.stats.graph_from_cache);
  EXPECT_EQ(canonical(rebuilt), canonical(uncached));
  EXPECT_EQ(warnings().size(), 1u);
}

TEST_F(GraphCacheTest, GraphRecordDamagedOnDiskIsAMissAndTheStoreIsSetAside) {
  const analysis::Analysis uncached = analyse(nullptr);
  std::string data;
  {
    auto cache = open_cache();
    analyse(cache.get());
    data = cache->store_dir() + "/data.mdb";
  }
  const size_t at = graph_record_offset(data);
  ASSERT_NE(at, std::string::npos);
  const char old = read_file(data)[at + 40];
  patch_file(data, at + 40, std::string(1, static_cast<char>(old ^ 0x20)));

  auto cache = open_cache();
  ASSERT_NE(cache, nullptr);
  const analysis::Analysis reopened = analyse(cache.get());
  EXPECT_FALSE(reopened.stats.graph_from_cache);
  EXPECT_EQ(canonical(reopened), canonical(uncached));
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_NE(warnings()[0].find("failed verification"), std::string::npos) << warnings()[0];
  EXPECT_TRUE(is_hit(*cache));
}

}  // namespace
}  // namespace anchorfs::cache::testing
