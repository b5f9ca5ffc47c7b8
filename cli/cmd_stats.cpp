// `anchorfs stats REPO [--view V] [--json]`: graph shape, hubs, auto's choice, tag cost per view.
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
#include "render/stats.h"

namespace anchorfs::cli {
namespace {

struct StatsArgs {
  std::string repo;
  bool json = false;
  unsigned threads = 0;
  CacheArgs cache;
  ViewArgs view;
};

int run_stats(const StatsArgs& args) {
  const std::string repo = check_repo(args.repo);
  const render::ViewOptions view_options = args.view.options();
  const auto store = open_cache(repo, args.cache, warn_on_stderr);
  refresh::PipelineOptions options;
  options.cache = store.get();
  options.threads = args.threads;
  // Stats reports the graph itself and every view's cost (dense included), whatever --view says.
  const analysis::SourceTree tree = scan_repo(repo);
  const analysis::Analysis analysed = refresh::analyse(tree, options, /*dense=*/true);
  const analysis::Graph& graph = analysed.graph;
  // Without --view every view's cost is shown, so the choice can be made before mounting.
  std::vector<render::View> views;
  if (args.view.view_given()) views.push_back(view_options.view);
  const render::RepoStats stats =
      render::compute_stats(graph, analysed.stats, render::source_bytes(tree, graph), view_options, views);
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
  add_cache_args(*command, args->cache);
  return {command, [args] { return run_stats(*args); }};
}

}  // namespace anchorfs::cli
