// `anchorfs stats REPO [--view V] [--style S] [--tag-budget PCT] [--json]`: graph shape, hubs,
// auto's choice, tag cost in bytes and tokens per view, style and budget.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/cache_args.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/file_io.h"
#include "cli/mount_checks.h"
#include "cli/pipeline.h"
#include "cli/view_args.h"
#include "analysis/source_files.h"
#include "render/stats.h"
#include "render/token_count.h"

namespace anchorfs::cli {
namespace {

// The vocabulary an installed anchorfs ships (<prefix>/share/anchorfs, beside <prefix>/bin), else
// the one the build fetched.
std::string default_vocabulary() {
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    std::string prefix(exe, static_cast<size_t>(n));
    prefix = prefix.substr(0, prefix.rfind('/'));
    const std::string installed = prefix.substr(0, prefix.rfind('/')) + "/share/anchorfs/o200k_base.json";
    if (::access(installed.c_str(), R_OK) == 0) return installed;
  }
  return ANCHORFS_VOCABULARY;
}

struct StatsArgs {
  std::string repo;
  bool json = false;
  std::string tokenizer = default_vocabulary();
  unsigned threads = 0;
  CacheArgs cache;
  ViewArgs view;
};

// Tokens of every analysed source file as it is on disk (read again: stats only).
uint64_t source_tokens(const std::string& repo, const analysis::Graph& graph,
                       const render::TokenCounter& counter) {
  std::vector<uint64_t> counts(graph.files.size(), 0);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, graph.files.size(), 4),
                    [&](const tbb::blocked_range<size_t>& range) {
                      for (size_t f = range.begin(); f != range.end(); ++f) {
                        const std::string& path = graph.entities[graph.files[f].entity].name;
                        analysis::SourceBytes source =
                            analysis::read_source(repo, path, graph.files[f].size + 1);
                        if (source.ok) counts[f] = counter.count(source.bytes);
                      }
                    });
  uint64_t total = 0;
  for (uint64_t count : counts) total += count;
  return total;
}

int run_stats(const StatsArgs& args) {
  const std::string repo = check_repo(args.repo);
  const render::ViewOptions view_options = args.view.options();
  const auto store = open_cache(repo, args.cache, warn_on_stderr);
  refresh::PipelineOptions options;
  options.cache = store.get();
  options.threads = args.threads;
  // Stats reports the graph itself and every view's cost (dense included), whatever --view says;
  // but `--view none` alone tags nothing, so, as in every command, it analyses nothing (the
  // report then has no analysed file and a row of zero cost).
  const analysis::SourceTree tree = scan_repo(repo);
  const bool analyse = !args.view.view_given() || refresh::view_needs_analysis(view_options);
  const analysis::Analysis analysed =
      analyse ? refresh::analyse(tree, options, /*dense=*/true) : analysis::Analysis{};
  const analysis::Graph& graph = analysed.graph;
  // Without --view (--style) every view's (style's) cost is shown, so the choice can be made
  // before mounting; a --tag-budget adds a budgeted row after each.
  render::StatsRequest request;
  if (args.view.view_given()) request.views.push_back(view_options.view);
  if (args.view.style_given()) request.styles.push_back(view_options.style);
  request.budget = view_options.tag_budget;
  render::ViewOptions base = view_options;
  base.tag_budget.reset();
  std::string error;
  std::unique_ptr<render::TokenCounter> counter;
  if (!args.tokenizer.empty()) counter = render::load_bpe_vocabulary(args.tokenizer, error);
  if (!counter) {
    if (!args.tokenizer.empty()) warn_on_stderr("token counts estimated: " + error);
    counter = render::byte_estimator();
  }
  render::TokenInput tokens{counter.get(), source_tokens(repo, graph, *counter)};
  const render::RepoStats stats =
      render::compute_stats(graph, analysed.stats,
                            render::source_bytes(tree, graph), base, request, tokens);
  write_all(STDOUT_FILENO, args.json ? render::format_json(stats) : render::format_table(stats),
            "stdout");
  return kExitOk;
}

}  // namespace

Command add_stats_command(CLI::App& app) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* command = app.add_subcommand(
      "stats", "Analyse REPO and report its graph, hubs, auto's choice and each view's tag cost");
  command->add_option("REPO", args->repo, "Repository directory")->required();
  add_view_args(*command, args->view);
  command->add_flag("--json", args->json, "Print JSON (schema in docs/views.md)");
  command->add_option("--threads", args->threads, "Analysis threads (0: all cores)");
  command->add_option("--tokenizer", args->tokenizer,
                      "tiktoken encoder file for token counts (\"\": estimate from bytes)")
      ->type_name("FILE")
      ->capture_default_str();
  add_cache_args(*command, args->cache);
  return {command, [args] { return run_stats(*args); }};
}

}  // namespace anchorfs::cli
