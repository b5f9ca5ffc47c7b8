// Where a one-file refresh's CPU goes: refresh_bench REPO FILE [ROUNDS [KEEP_DIR [EDIT]]]. A
// benchmark tool.
//
// Copies REPO, analyses it once with a cache, then ROUNDS times appends a function to FILE
// (relative to REPO; EDIT `comment` appends a comment line instead, an edit the Python resolver
// does not see) and runs the refresher's steps one by one (scan, survey, facts and
// resolution, render and lay out, snapshot, view record) on two threads, printing each step's
// process CPU. Every edit is refreshed twice, with the facts memo the refresher keeps
// (SnapshotBuilder) and without it, each with its own memos and its own copy of the cache (else
// the second would find the first's graph), so the two rows differ by the facts memo alone.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "analysis/source_survey.h"
#include "analysis/survey.h"
#include "cache/lmdb_fact_cache.h"
#include "fs/snapshot.h"
#include "refresh/pipeline.h"
#include "refresh/view_record.h"

namespace {

using namespace anchorfs;

double cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// The memos a refresher keeps from one build to the next.
struct Memos {
  analysis::SurveyMemo survey;
  analysis::ResolutionMemo resolution;
  analysis::FactsMemo facts;
};

struct Steps {
  double scan = 0, survey = 0, analyse = 0, parse = 0, resolve = 0, render = 0, snapshot = 0,
         record = 0;
  double total() const { return scan + survey + analyse + render + snapshot + record; }
};

Steps refresh_once(const std::string& repo, cache::LmdbFactCache& cache, Memos& memos,
                   bool keep_facts) {
  Steps steps;
  double mark = cpu_seconds();
  const auto lap = [&mark](double& into) {
    const double now = cpu_seconds();
    into += now - mark;
    mark = now;
  };
  analysis::SourceTree tree = analysis::scan_tree(repo);
  lap(steps.scan);
  refresh::PipelineOptions options;
  options.view.view = render::View::Topo;
  options.threads = 2;
  options.cache = &cache;
  options.survey_memo = &memos.survey;
  options.resolution_memo = &memos.resolution;
  options.facts_memo = keep_facts ? &memos.facts : nullptr;
  const analysis::AnalysisOptions analysis_options = refresh::analysis_options(options, false);
  analysis::Survey survey = analysis::survey(tree, analysis_options);
  lap(steps.survey);
  analysis::Analysis analysis = analysis::analyze(tree, analysis_options, std::move(survey));
  lap(steps.analyse);
  steps.parse = analysis.stats.parse_seconds;
  steps.resolve = analysis.stats.resolve_seconds;
  refresh::Prepared prepared;
  prepared.analysed = true;
  prepared.analysis = std::move(analysis);
  const analysis::Graph& graph = prepared.analysis.graph;
  prepared.choice = render::choose_view(graph, options.view);
  prepared.plans = render::LaidOutPlans::lay_out(render::plans_by_path(graph, prepared.choice));
  lap(steps.render);
  const auto snapshot = fs::make_snapshot_from(std::move(tree), prepared.plans);
  lap(steps.snapshot);
  if (prepared.analysis.key) {
    cache.store_derived(refresh::view_key(*prepared.analysis.key, options.view),
                        refresh::encode_view(refresh::view_parts(prepared)));
    cache.flush();
  }
  lap(steps.record);
  return steps;
}

void print(const char* name, const Steps& s) {
  std::printf("%-24s %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f | %6.3f  (wall: facts %.3f, resolve %.3f)\n",
              name, s.scan, s.survey, s.analyse, s.render, s.snapshot, s.record, s.total(),
              s.parse, s.resolve);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: refresh_bench REPO FILE [ROUNDS [KEEP_DIR [append|comment]]]\n");
    return 2;
  }
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  const bool comment = argc > 5 && std::string_view(argv[5]) == "comment";
  // KEEP_DIR keeps the copy and its caches for the next run (under valgrind, the cold analysis
  // is then made once, natively): the edited file is restored at the end, and the probes are
  // named by process so that no run finds another's graph in the cache.
  char scratch_template[] = "/tmp/anchorfs-refresh-bench-XXXXXX";
  const std::string scratch = argc > 4 ? std::string(argv[4]) : std::string(::mkdtemp(scratch_template));
  const std::string repo = scratch + "/repo";
  const bool made = !std::filesystem::exists(repo);
  std::filesystem::create_directories(scratch);
  if (made) std::filesystem::copy(argv[1], repo, std::filesystem::copy_options::recursive);
  const auto open = [&](const std::string& dir) {
    cache::CacheOptions cache_options;
    cache_options.repo_root = repo;
    cache_options.cache_dir = scratch + "/" + dir;
    return cache::LmdbFactCache::open(cache_options);
  };
  Memos with_memo, without_memo;
  if (made) {
    {
      auto cold = open("cache");
      refresh_once(repo, *cold, with_memo, true);
    }
    std::filesystem::copy(scratch + "/cache", scratch + "/cache-copy",
                          std::filesystem::copy_options::recursive);
  }
  auto cache = open("cache");
  auto copy = open("cache-copy");
  if (!made) refresh_once(repo, *cache, with_memo, true);
  refresh_once(repo, *copy, without_memo, false);
  const std::string edited = repo + "/" + argv[2];
  std::string original;
  {
    std::ifstream in(edited, std::ios::binary);
    original.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::printf("process CPU seconds per step (%s, append %s to %s)\n", argv[1],
              comment ? "a comment" : "functions", argv[2]);
  std::printf("%-24s %6s %6s %6s %6s %6s %6s | %6s\n", "", "scan", "survey", "analys", "render",
              "snap", "record", "total");
  for (int i = 0; i < rounds; ++i) {
    std::ofstream(edited, std::ios::app)
        << (comment ? fmt::format("\n# anchorfs probe {} {}\n", i, ::getpid()) : fmt::format("\n\ndef anchorfs_probe_{0}_{1}():\n    return anchorfs_probe_{0}_{1}_helper()\n\n\n"
                       "def anchorfs_probe_{0}_{1}_helper():\n    return 1\n",
                       i, ::getpid()));
    print(fmt::format("refresh {} facts memo", i).c_str(),
          refresh_once(repo, *cache, with_memo, true));
    print(fmt::format("refresh {} no memo", i).c_str(),
          refresh_once(repo, *copy, without_memo, false));
  }
  std::ofstream(edited, std::ios::binary | std::ios::trunc) << original;
  cache.reset();
  copy.reset();
  if (argc <= 4) std::filesystem::remove_all(scratch);
  return 0;
}
