// Stat aliases: a warm analysis of a tree whose files kept their stat identity finds its graph
// without opening a source; any write, a young (racily clean) tree or a lost graph falls back
// to reading, and the result is always the cache-less one.
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <utility>

#include "analysis/analyze.h"
#include "analysis/graph_serialize.h"
#include "analysis/resolution_key.h"
#include "analysis/source_files.h"
#include "analysis/source_survey.h"
#include "analysis/source_tree.h"
#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

// Counts what the analysis asked the store, forwarding everything.
class CountingCache final : public analysis::FactCache {
 public:
  explicit CountingCache(LmdbFactCache& store) : store_(store) {}
  std::optional<std::string> load(const analysis::FactsKey& key) override {
    ++fact_loads;
    return store_.load(key);
  }
  void store(const analysis::FactsKey& key, std::string_view facts) override {
    store_.store(key, facts);
  }
  std::optional<std::string> load_graph(const analysis::ResolutionKey& key) override {
    return store_.load_graph(key);
  }
  void store_graph(const analysis::ResolutionKey& key, std::string analysis) override {
    store_.store_graph(key, std::move(analysis));
  }
  std::optional<std::string> load_alias(const analysis::ResolutionKey& alias) override {
    auto survey = store_.load_alias(alias);
    alias_hits += survey.has_value();
    return survey;
  }
  void store_alias(const analysis::ResolutionKey& alias, std::string_view survey) override {
    ++alias_stores;
    store_.store_alias(alias, survey);
  }
  std::optional<std::string> load_survey_memo(const analysis::ResolutionKey& key) override {
    return store_.load_survey_memo(key);
  }
  void replace_survey_memo(const analysis::ResolutionKey& key, std::string_view memo) override {
    store_.replace_survey_memo(key, memo);
  }
  int fact_loads = 0;
  int alias_hits = 0;
  int alias_stores = 0;

 private:
  LmdbFactCache& store_;
};

class StatAliasTest : public CacheTest {
 protected:
  void SetUp() override {
    CacheTest::SetUp();
    put_small_package();
  }

  // `aged`: the analysis's clock runs a minute ahead, so every file is old enough to alias.
  analysis::Analysis analyse(analysis::FactCache* cache, bool aged = true,
                             size_t max_file_bytes = 16 << 20) {
    analysis::AnalysisOptions o = aged_options(cache);
    o.max_file_bytes = max_file_bytes;
    if (!aged) o.now = std::chrono::system_clock::now;
    return analysis::analyze(analysis::scan_tree(repo_), o);
  }

  static std::string canonical(const analysis::Analysis& a) {
    return analysis::serialize_analysis(a);
  }
};

TEST_F(StatAliasTest, UnchangedAgedTreeFindsItsGraphWithoutReadingASource) {
  auto store = open_cache();
  const std::string uncached = canonical(analyse(nullptr));
  CountingCache first(*store);
  const analysis::Analysis cold = analyse(&first);
  store->flush();
  EXPECT_FALSE(cold.stats.graph_from_cache);
  EXPECT_EQ(first.alias_hits, 0);
  EXPECT_EQ(first.alias_stores, 1);
  EXPECT_EQ(canonical(cold), uncached);

  store.reset();  // a later mount: a new process's view of the store
  auto reopened = open_cache();
  CountingCache second(*reopened);
  const analysis::Analysis warm = analyse(&second);
  EXPECT_TRUE(warm.stats.graph_from_cache);
  EXPECT_EQ(second.alias_hits, 1);
  EXPECT_EQ(second.fact_loads, 0);
  EXPECT_EQ(canonical(warm), uncached);
  // Aliases are not analyses: the store still counts one graph.
  EXPECT_EQ(reopened->info().graph_entries, 1u);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(StatAliasTest, AWriteOfTheSameSizeMissesTheAliasAndResolvesTheNewBytes) {
  auto store = open_cache();
  CountingCache first(*store);
  analyse(&first);
  // Same length, other callee: only the content (and so the ctime) tells them apart.
  put("pkg/use.py", std::string(kSmallPackageUseOther));
  const std::string uncached = canonical(analyse(nullptr));
  CountingCache second(*store);
  const analysis::Analysis after = analyse(&second);
  EXPECT_EQ(second.alias_hits, 0);
  EXPECT_FALSE(after.stats.graph_from_cache);
  EXPECT_EQ(canonical(after), uncached);
}

// cp -p, rsync -t: same size, the mtime set back. The ctime (which no user sets) tells.
TEST_F(StatAliasTest, AnEditWithItsMtimeSetBackMissesTheAlias) {
  const std::string path = repo_ + "/pkg/use.py";
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  auto store = open_cache();
  CountingCache first(*store);
  analyse(&first);
  ASSERT_EQ(first.alias_stores, 1);
  put("pkg/use.py", std::string(kSmallPackageUseOther));
  const struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  const std::string uncached = canonical(analyse(nullptr));
  CountingCache second(*store);
  const analysis::Analysis after = analyse(&second);
  EXPECT_EQ(second.alias_hits, 0);
  EXPECT_EQ(canonical(after), uncached);
}

// A file the analysis cannot take (here: too large) is part of the alias too, with its reason.
TEST_F(StatAliasTest, AFileTooLargeToAnalyseKeepsTheTreeWarm) {
  put("pkg/huge.py", std::string(4096, '#') + "\n");
  auto store = open_cache();
  CountingCache first(*store);
  const analysis::Analysis cold = analyse(&first, true, 1024);
  store->flush();
  EXPECT_EQ(first.alias_stores, 1);
  CountingCache second(*store);
  const analysis::Analysis warm = analyse(&second, true, 1024);
  EXPECT_EQ(second.alias_hits, 1);
  EXPECT_TRUE(warm.stats.graph_from_cache);
  EXPECT_EQ(canonical(warm), canonical(cold));
  ASSERT_EQ(warm.skipped.size(), cold.skipped.size());
}

TEST_F(StatAliasTest, AYoungTreeGetsNoAliasButStillItsGraph) {
  auto store = open_cache();
  CountingCache first(*store);
  analyse(&first, /*aged=*/false);
  EXPECT_EQ(first.alias_stores, 0) << "files written just now may change within a clock tick";
  CountingCache second(*store);
  const analysis::Analysis warm = analyse(&second, /*aged=*/false);
  EXPECT_TRUE(warm.stats.graph_from_cache) << "found through the files' digests";
  EXPECT_EQ(second.alias_hits, 0);
}

// A survey that does not fit the bytes (as if the files had been rewritten in place with their
// stat forged) costs the graph lookup, never the result: facts are keyed by what is parsed.
TEST_F(StatAliasTest, ASurveyThatDoesNotFitTheBytesStillGivesTheirAnalysis) {
  const std::string uncached = canonical(analyse(nullptr));
  const analysis::SourceTree tree = analysis::scan_tree(repo_);
  const auto sources = analysis::select_sources(tree);
  const auto alias =
      analysis::stat_alias_key(tree, sources, analysis::AnalysisOptions{}, a_minute_from_now());
  ASSERT_TRUE(alias.has_value());
  std::vector<analysis::SourceState> wrong(sources.size());
  for (auto& state : wrong) state.ok = true;  // every digest zero
  auto store = open_cache();
  store->store_alias(*alias, analysis::encode_survey(wrong));
  store->flush();
  CountingCache counting(*store);
  const analysis::Analysis result = analyse(&counting);
  EXPECT_EQ(counting.alias_hits, 1);
  EXPECT_FALSE(result.stats.graph_from_cache);
  EXPECT_EQ(canonical(result), uncached);
}

// A refresh's survey reads only the files whose stat identity changed: the memo's (here
// deliberately wrong) states stand for the others, the rewritten file gets its own again.
TEST_F(StatAliasTest, TheSurveyMemoSkipsFilesWhoseIdentityIsUnchanged) {
  analysis::SourceTree tree = analysis::scan_tree(repo_);
  auto sources = analysis::select_sources(tree);
  ASSERT_EQ(sources.size(), 4u);  // mod.py (the fixture's) and pkg/*
  const analysis::AnalysisOptions options;
  const auto real = analysis::survey_sources(tree, sources, options);
  std::vector<analysis::SourceState> marked(sources.size());
  for (size_t i = 0; i < marked.size(); ++i) {
    marked[i].ok = true;
    marked[i].digest = {i + 1, 0};
  }
  const auto lows = [](const std::vector<analysis::SourceState>& states) {
    std::vector<uint64_t> result;
    for (const auto& state : states) result.push_back(state.digest.low);
    return result;
  };
  analysis::SurveyMemo memo;
  memo.remember(tree, sources, marked, std::chrono::system_clock::now());
  EXPECT_EQ(lows(analysis::survey_sources(tree, sources, options, &memo)), lows(real))
      << "files written within the racy window are never remembered";
  memo.remember(tree, sources, marked, a_minute_from_now());
  EXPECT_EQ(lows(analysis::survey_sources(tree, sources, options, &memo)),
            (std::vector<uint64_t>{1, 2, 3, 4}));
  put("pkg/use.py", "def run():\n    return 2\n");
  tree = analysis::scan_tree(repo_);
  sources = analysis::select_sources(tree);
  const auto after = analysis::survey_sources(tree, sources, options, &memo);
  ASSERT_EQ(sources[3].path, "pkg/use.py");
  EXPECT_EQ(lows({after[0], after[1], after[2]}), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(after[3].digest, analysis::digest_of("def run():\n    return 2\n"));
  EXPECT_NE(after[3].digest, real[3].digest);
}

}  // namespace
}  // namespace anchorfs::cache::testing
