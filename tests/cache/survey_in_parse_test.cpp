// A tree the cache knows nothing of is surveyed by its parse (AnalysisOptions::survey_in_parse):
// each file read once, the key made from the bytes parsed, and what a survey keeps kept all the
// same.
#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

#include "analysis/analyze.h"
#include "analysis/graph_serialize.h"
#include "analysis/source_tree.h"
#include "analysis/survey.h"
#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

class SurveyInParseTest : public CacheTest {
 protected:
  void SetUp() override {
    CacheTest::SetUp();
    put_small_package();
  }

  // As a mount asks (refresh::analysis_options): the survey may be left to the parse. The clock
  // runs a minute ahead, so every file is old enough for the survey memo and the stat alias.
  static analysis::AnalysisOptions options_for(analysis::FactCache* cache, bool in_parse = true) {
    analysis::AnalysisOptions o = aged_options(cache);
    o.survey_in_parse = in_parse;
    return o;
  }

  struct Run {
    analysis::Survey survey;
    analysis::Analysis analysis;
  };
  // One run as a mount makes it, in the store at `cache_dir` (opened afresh); `between` runs
  // after the survey, before the rest of the analysis.
  Run run(const std::string& root, bool in_parse = true,
          const std::function<void()>& between = {}) {
    auto store = open_cache();
    const analysis::AnalysisOptions o = options_for(store.get(), in_parse);
    const analysis::SourceTree tree = analysis::scan_tree(root);
    Run result;
    result.survey = analysis::survey(tree, o);
    if (between) between();
    result.analysis = analysis::analyze(tree, o, result.survey);
    store->flush();
    return result;
  }
};

TEST_F(SurveyInParseTest, AnUnknownTreeIsReadOnceAndKeyedByTheBytesParsed) {
  const Run cold = run(repo_, true, [&] {
    // Rewritten after the survey: a survey that had read it would key the old bytes, see the
    // parse's differ, and keep no key (the graph stored for neither content).
    put("pkg/use.py", std::string(kSmallPackageUseOther));
  });
  EXPECT_TRUE(cold.survey.in_parse);
  EXPECT_EQ(cold.survey.read, 0u) << "no file read before the parse";
  EXPECT_EQ(cold.analysis.stats.survey_reads, 4u)
      << "mod.py and pkg/*, each read once, by the parse";
  ASSERT_TRUE(cold.analysis.key.has_value()) << "keyed by the bytes the parse read";

  // The same key and the same analysis as a survey of the rewritten tree makes.
  std::filesystem::remove_all(cache_root_);
  const Run surveyed = run(repo_, false);
  EXPECT_FALSE(surveyed.survey.in_parse);
  ASSERT_TRUE(surveyed.survey.key.has_value());
  EXPECT_EQ(*cold.analysis.key, *surveyed.survey.key);
  EXPECT_EQ(analysis::serialize_analysis(cold.analysis),
            analysis::serialize_analysis(surveyed.analysis));
  EXPECT_TRUE(warnings().empty());
}

TEST_F(SurveyInParseTest, WhatTheParseSurveyedIsKeptForTheNextRun) {
  const Run cold = run(repo_);
  ASSERT_TRUE(cold.survey.in_parse);
  const Run warm = run(repo_);
  EXPECT_FALSE(warm.survey.in_parse);
  EXPECT_EQ(warm.survey.read, 0u) << "the stat alias the parse's survey kept knows the tree";
  EXPECT_TRUE(warm.analysis.stats.graph_from_cache);
  ASSERT_TRUE(warm.survey.key.has_value());
  EXPECT_EQ(*warm.survey.key, *cold.analysis.key);

  // One file touched: the survey memo the parse's survey kept knows the other two.
  const struct timespec now[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
  ASSERT_EQ(::utimensat(AT_FDCWD, (repo_ + "/pkg/core.py").c_str(), now, 0), 0);
  const Run touched = run(repo_);
  EXPECT_FALSE(touched.survey.in_parse);
  EXPECT_EQ(touched.survey.read, 1u);
  EXPECT_TRUE(touched.analysis.stats.graph_from_cache);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(SurveyInParseTest, ATreeWhoseFactsTheCacheHoldsIsSurveyedFirst) {
  run(repo_);
  // A checkout of the same bytes elsewhere: no stat alias, no memo, but every file's facts.
  const std::string copy = scratch_ + "/copy";
  std::filesystem::copy(repo_, copy, std::filesystem::copy_options::recursive);
  const Run other = run(copy);
  EXPECT_FALSE(other.survey.in_parse) << "the cache may hold its whole analysis";
  EXPECT_EQ(other.survey.read, 4u);
  EXPECT_EQ(other.analysis.stats.parsed, 0u) << "every file's facts from the cache";
  EXPECT_TRUE(warnings().empty());
}

}  // namespace
}  // namespace anchorfs::cache::testing
