// The survey memo kept in the cache: a later run reads only the files whose stat identity changed
// since the last survey, and a changed file's new bytes are never missed, its mtime set back or
// not.
#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <optional>

#include "analysis/analyze.h"
#include "analysis/graph_serialize.h"
#include "analysis/resolution_key.h"
#include "analysis/source_files.h"
#include "analysis/source_survey.h"
#include "analysis/source_tree.h"
#include "analysis/survey.h"
#include "cache_test_support.h"

namespace anchorfs::cache::testing {
namespace {

class SurveyMemoTest : public CacheTest {
 protected:
  void SetUp() override {
    CacheTest::SetUp();
    put_small_package();
  }

  // One run as a mount makes it: a store opened afresh, the survey, the rest of the analysis
  // (which keeps the survey and its memo), the commit.
  struct Run {
    analysis::Survey survey;
    analysis::Analysis analysis;
  };
  Run remount() {
    auto store = open_cache();
    const analysis::AnalysisOptions o = aged_options(store.get());
    const analysis::SourceTree tree = analysis::scan_tree(repo_);
    Run run;
    run.survey = analysis::survey(tree, o);
    run.analysis = analysis::analyze(tree, o, run.survey);
    store->flush();
    return run;
  }

  std::string uncached() {
    return analysis::serialize_analysis(
        analysis::analyze(analysis::scan_tree(repo_), aged_options(nullptr)));
  }

  // The survey's state of `path` in `run`.
  static const analysis::SourceState& state_of(const Run& run, const std::string& path) {
    for (size_t i = 0; i < run.survey.sources.size(); ++i) {
      if (run.survey.sources[i].path == path) return run.survey.states.at(i);
    }
    throw std::runtime_error("no source " + path);
  }

  struct stat stat_of(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::stat((repo_ + "/" + path).c_str(), &st), 0);
    return st;
  }

  void set_mtime(const std::string& path, const struct stat& from) {
    const struct timespec times[2] = {from.st_atim, from.st_mtim};
    ASSERT_EQ(::utimensat(AT_FDCWD, (repo_ + "/" + path).c_str(), times, 0), 0);
  }
};

TEST_F(SurveyMemoTest, AfterOneFileIsTouchedTheNextRunReadsOnlyThatFile) {
  const Run cold = remount();
  EXPECT_EQ(cold.survey.read, 4u) << "mod.py and pkg/*: nothing known yet";
  const Run unchanged = remount();
  EXPECT_EQ(unchanged.survey.read, 0u) << "the stat alias knows the whole tree";

  const struct timespec now[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
  ASSERT_EQ(::utimensat(AT_FDCWD, (repo_ + "/pkg/core.py").c_str(), now, 0), 0);
  const Run touched = remount();
  EXPECT_EQ(touched.survey.read, 1u) << "the memo kept in the cache knows the other three";
  EXPECT_EQ(touched.analysis.stats.survey_reads, 1u);
  ASSERT_TRUE(touched.survey.key.has_value());
  EXPECT_EQ(*touched.survey.key, *cold.survey.key) << "the same bytes, the same key";
  EXPECT_TRUE(touched.analysis.stats.graph_from_cache);

  const Run after = remount();
  EXPECT_EQ(after.survey.read, 0u) << "the touched tree's alias was kept";
  EXPECT_TRUE(warnings().empty());
}

// cp -p: the bytes rewritten in place, the mtime set back. The ctime (which no user sets) tells.
TEST_F(SurveyMemoTest, AnEditWithItsMtimeSetBackIsReadAgain) {
  const struct stat before = stat_of("pkg/use.py");
  const Run cold = remount();
  put("pkg/use.py", std::string(kSmallPackageUseOther));
  set_mtime("pkg/use.py", before);
  const Run edited = remount();
  EXPECT_EQ(edited.survey.read, 1u);
  EXPECT_EQ(state_of(edited, "pkg/use.py").digest, analysis::digest_of(kSmallPackageUseOther));
  ASSERT_TRUE(edited.survey.key.has_value());
  EXPECT_NE(*edited.survey.key, *cold.survey.key);
  EXPECT_EQ(analysis::serialize_analysis(edited.analysis), uncached());
}

// rsync -t: a new file renamed over the old one, the mtime set back. The inode tells.
TEST_F(SurveyMemoTest, AReplacementWithItsMtimeSetBackIsReadAgain) {
  const struct stat before = stat_of("pkg/use.py");
  const Run cold = remount();
  put("pkg/.use.py.tmp", std::string(kSmallPackageUseOther));
  set_mtime("pkg/.use.py.tmp", before);
  std::filesystem::rename(repo_ + "/pkg/.use.py.tmp", repo_ + "/pkg/use.py");
  const Run replaced = remount();
  EXPECT_EQ(replaced.survey.read, 1u);
  EXPECT_EQ(state_of(replaced, "pkg/use.py").digest, analysis::digest_of(kSmallPackageUseOther));
  EXPECT_EQ(analysis::serialize_analysis(replaced.analysis), uncached());
  EXPECT_NE(analysis::serialize_analysis(replaced.analysis),
            analysis::serialize_analysis(cold.analysis));
}

// A memo the store holds but that is no memo (another build's layout, a bug) costs the reads.
TEST_F(SurveyMemoTest, AMemoThatDoesNotDecodeIsIgnored) {
  remount();
  const auto key = analysis::survey_memo_key(analysis::scan_tree(repo_), aged_options(nullptr));
  ASSERT_TRUE(key.has_value());
  {
    auto store = open_cache();
    store->replace_survey_memo(*key, "\x05pkg/u");
    store->flush();
  }
  put("pkg/use.py", std::string(kSmallPackageUseOther));
  const Run edited = remount();
  EXPECT_EQ(edited.survey.read, 4u);
  EXPECT_EQ(analysis::serialize_analysis(edited.analysis), uncached());
}

// A caller that selected the tree's sources already (the refresher, once per build) hands them
// over: the survey surveys exactly those, in their order, instead of selecting again.
TEST_F(SurveyMemoTest, ASurveyTakesTheSourcesItsCallerSelected) {
  const analysis::SourceTree tree = analysis::scan_tree(repo_);
  std::vector<analysis::SourceFile> selected = analysis::select_sources(tree);
  ASSERT_GE(selected.size(), 2u);
  selected.pop_back();  // a list the survey would not make itself: it must be the one used
  auto store = open_cache();
  analysis::AnalysisOptions o = aged_options(store.get());
  o.sources = &selected;
  const analysis::Survey survey = analysis::survey(tree, o);
  ASSERT_EQ(survey.sources.size(), selected.size());
  for (size_t i = 0; i < selected.size(); ++i) {
    EXPECT_EQ(survey.sources[i].path, selected[i].path);
    EXPECT_EQ(survey.sources[i].entry, selected[i].entry);
  }
  EXPECT_EQ(survey.states.size(), selected.size());
}

// A refresher's memo is remembered again after every survey of the same tree: it writes the new
// record over its own buffer (no fresh pages for the kernel to zero, on the kernel ~8 MB) and
// knows every file at its new state.
TEST_F(SurveyMemoTest, RememberingAgainWritesOverTheMemosOwnRecord) {
  const analysis::SourceTree tree = analysis::scan_tree(repo_);
  const auto sources = analysis::select_sources(tree);
  std::vector<analysis::SourceState> states =
      analysis::survey_sources(tree, sources, aged_options(nullptr));
  analysis::SurveyMemo memo;
  memo.remember(tree, sources, states, a_minute_from_now());
  const char* const buffer = memo.record_data();
  ASSERT_GE(states.size(), 2u);
  states[1].digest.low ^= 1;  // as if the file had been read again with other bytes
  memo.remember(tree, sources, states, a_minute_from_now());
  EXPECT_EQ(memo.record_data(), buffer);
  const auto entries = analysis::regular_entries(tree, sources);
  for (size_t i = 0; i < sources.size(); ++i) {
    const analysis::SourceState* known =
        memo.find(sources[i].path, sources[i].front_end, analysis::stat_identity(*entries[i]));
    ASSERT_NE(known, nullptr) << sources[i].path;
    EXPECT_EQ(known->digest, states[i].digest) << sources[i].path;
  }
}

// What the memo keeps: every aged regular file with its state, none written within the racy
// window, only at the front end it was surveyed for, in path order.
TEST_F(SurveyMemoTest, ARecordHoldsOnlyAgedFilesAndDecodesToTheirStates) {
  const analysis::SourceTree tree = analysis::scan_tree(repo_);
  const auto sources = analysis::select_sources(tree);
  const auto states = analysis::survey_sources(tree, sources, aged_options(nullptr));
  EXPECT_EQ(
      analysis::SurveyMemo::record(tree, sources, states, std::chrono::system_clock::now()).files,
      0u);
  const analysis::SurveyMemo::Record record =
      analysis::SurveyMemo::record(tree, sources, states, a_minute_from_now());
  EXPECT_EQ(record.files, sources.size());
  const std::optional<analysis::SurveyMemo> memo = analysis::SurveyMemo::decode(record.bytes);
  ASSERT_TRUE(memo.has_value());
  const auto entries = analysis::regular_entries(tree, sources);
  for (size_t i = 0; i < sources.size(); ++i) {
    const analysis::StatIdentity identity = analysis::stat_identity(*entries[i]);
    const analysis::SourceState* known =
        memo->find(sources[i].path, sources[i].front_end, identity);
    ASSERT_NE(known, nullptr) << sources[i].path;
    EXPECT_EQ(known->digest, states[i].digest);
    EXPECT_EQ(memo->find(sources[i].path, sources[i].front_end + 1, identity), nullptr);
  }
  EXPECT_FALSE(analysis::SurveyMemo::decode(record.bytes.substr(0, record.bytes.size() - 1)));
  // Lookups search by path: a record out of path order is no memo.
  const std::vector<analysis::SourceFile> reversed(sources.rbegin(), sources.rend());
  const std::vector<analysis::SourceState> reversed_states(states.rbegin(), states.rend());
  EXPECT_FALSE(analysis::SurveyMemo::decode(
      analysis::SurveyMemo::record(tree, reversed, reversed_states, a_minute_from_now()).bytes));
}

}  // namespace
}  // namespace anchorfs::cache::testing
