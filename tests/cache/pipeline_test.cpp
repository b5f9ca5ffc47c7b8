// The one pipeline every command uses: what each view analyses, plans, and the summary line.
#include "refresh/pipeline.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>

#include "refresh/view_record.h"
#include "refresh_support.h"

namespace anchorfs::refresh::testing {
namespace {

class PipelineTest : public ScratchTree {
 protected:
  void SetUp() override {
    ScratchTree::SetUp();
    put(root_, "pkg/__init__.py", "");
    put(root_, "pkg/a.py", "import os\n\n\ndef helper():\n    return os.environ.get('HOME')\n");
    put(root_, "pkg/b.py", "from pkg.a import helper\n\n\ndef user():\n    return helper()\n");
    put(root_, "README.md", "hello\n");
    cache_options_.repo_root = root_;
    cache_options_.cache_dir = root_ + "-cache";
    cache_ = cache::LmdbFactCache::open(cache_options_);
    options_.threads = 2;
    options_.cache = cache_.get();
  }
  void TearDown() override {
    cache_.reset();
    std::filesystem::remove_all(root_ + "-cache");
  }

  Prepared run(render::View view) {
    options_.view.view = view;
    return prepare(analysis::scan_tree(root_), options_);
  }

  cache::CacheOptions cache_options_;
  std::unique_ptr<cache::LmdbFactCache> cache_;
  PipelineOptions options_;
};

TEST_F(PipelineTest, ViewNoneAnalysesNothing) {
  const Prepared prepared = run(render::View::None);
  EXPECT_FALSE(prepared.analysed);
  EXPECT_EQ(prepared.analysis.stats.source_files, 3u);
  EXPECT_EQ(prepared.analysis.stats.parsed, 0u);
  EXPECT_TRUE(prepared.analysis.graph.entities.empty());
  EXPECT_TRUE(prepared.plans->empty());
  EXPECT_EQ(cache_->info().entries, 0u);  // nothing parsed, nothing cached
  EXPECT_EQ(summary_line(summarize(prepared), 0.25),
            "3 source files (not analysed: view none (requested)); 0.25 s");
}

TEST_F(PipelineTest, TopoTagsWithoutDenseFactsAndDenseAddsThem) {
  const Prepared topo = run(render::View::Topo);
  EXPECT_TRUE(topo.analysed);
  EXPECT_EQ(topo.analysis.stats.parsed, 3u);
  EXPECT_TRUE(topo.analysis.graph.labels.empty()) << "dense facts extracted for topo";
  const std::optional<render::TagPlan> a = find_plan(*topo.plans, "pkg/a.py");
  ASSERT_TRUE(a.has_value());
  EXPECT_FALSE(a->insertions.empty());
  EXPECT_FALSE(find_plan(*topo.plans, "README.md").has_value());
  EXPECT_FALSE(find_plan(*topo.plans, "pkg/zzz.py").has_value());

  const Prepared dense = run(render::View::Dense);
  bool env_var = false;
  for (const analysis::Label& label : dense.analysis.graph.labels) {
    env_var |= label.relation == analysis::Relation::EnvVar && label.value == "HOME";
  }
  EXPECT_TRUE(env_var) << "the dense view lost its facts";
}

TEST_F(PipelineTest, SummaryLineSaysWhereTheAnalysisCameFrom) {
  const Prepared first = run(render::View::Topo);
  const RunSummary cold = summarize(first);
  EXPECT_EQ(summary_line(cold, 1.5), "3 source files (3 parsed), " + std::to_string(cold.entities) +
                                         " entities, " + std::to_string(cold.edges) + " edges; " +
                                         cold.view_reason + "; 1.50 s");
  const RunSummary warm = summarize(run(render::View::Topo));
  EXPECT_EQ(warm.entities, cold.entities);
  // Files written just now are racily clean: the survey reads all three to know them.
  EXPECT_NE(summary_line(warm, 0).find("(graph from cache, 3 read)"), std::string::npos)
      << summary_line(warm, 0);

  put(root_, "pkg/c.py", "# === Function Annotation ===\n# === Function Annotation ===\n");
  const std::string changed = summary_line(summarize(run(render::View::Topo)), 0);
  EXPECT_NE(changed.find("4 source files (1 parsed, 1 untagged, 3 from cache)"), std::string::npos)
      << changed;
}

// A warm run of an unchanged tree loads the rendered view (view_record.h): no graph, no facts,
// the same plans and summary; other view options never take another's view.
TEST_F(PipelineTest, AWarmRunLoadsTheRenderedViewAndNothingElse) {
  const Prepared cold = run(render::View::Topo);
  ASSERT_FALSE(cold.analysis.graph.entities.empty());
  ASSERT_FALSE(cold.plans->empty());
  const Prepared warm = run(render::View::Topo);
  EXPECT_TRUE(warm.analysis.graph.entities.empty()) << "the graph was loaded";
  EXPECT_TRUE(warm.analysis.stats.graph_from_cache);
  EXPECT_EQ(warm.plans->plans(), cold.plans->plans());
  EXPECT_EQ(warm.analysis.skipped.size(), cold.analysis.skipped.size());
  EXPECT_EQ(summarize(warm).entities, summarize(cold).entities);
  EXPECT_EQ(summarize(warm).edges, summarize(cold).edges);
  EXPECT_EQ(summarize(warm).view_reason, summarize(cold).view_reason);

  options_.view.style = render::Style::Lean;
  const Prepared lean = run(render::View::Topo);
  EXPECT_FALSE(lean.analysis.graph.entities.empty()) << "lean took the paper view's record";
  EXPECT_NE(lean.plans->plans(), cold.plans->plans());
  options_.cache = nullptr;
  EXPECT_EQ(run(render::View::Topo).plans->plans(), lean.plans->plans());
}

// A view record that does not read back (cut short, or with bytes after its end) is a miss: the
// view is rendered from the analysis again, the same as before.
TEST_F(PipelineTest, ADamagedViewRecordIsRenderedAgain) {
  options_.defer_records = true;
  const Prepared cold = run(render::View::Topo);
  ASSERT_TRUE(cold.unsaved_view.has_value());
  const std::string record = encode_view(view_parts(cold));
  ASSERT_TRUE(decode_view(record).has_value());
  for (const std::string& damaged : {record.substr(0, record.size() - 3), record + "x"}) {
    EXPECT_FALSE(decode_view(damaged).has_value());
  }
  cache_->store_derived(*cold.unsaved_view, record.substr(0, record.size() - 3));
  cache_->flush();
  const Prepared again = run(render::View::Topo);
  EXPECT_FALSE(again.analysis.graph.entities.empty()) << "the damaged record was served";
  EXPECT_EQ(again.plans->plans(), cold.plans->plans());
}

// The view follows the bytes: an edit of the same size whose mtime is set back (cp -p, rsync -t)
// is a new view, equal to an uncached run's.
TEST_F(PipelineTest, AnEditWithItsMtimeSetBackIsANewView) {
  const std::string path = root_ + "/pkg/b.py";
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  const Prepared first = run(render::View::Topo);
  put(root_, "pkg/b.py", "from pkg.a import helper\n\n\ndef used():\n    return helper()\n");
  const struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  const Prepared second = run(render::View::Topo);
  options_.cache = nullptr;
  const Prepared uncached = run(render::View::Topo);
  EXPECT_EQ(second.plans->plans(), uncached.plans->plans());
  EXPECT_NE(second.plans->plans(), first.plans->plans());
}

}  // namespace
}  // namespace anchorfs::refresh::testing
