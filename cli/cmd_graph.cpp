// `anchorfs graph ROOT [--format json|pycg|dot] [-o FILE]`: the resolved graph for other tools.
#include <fcntl.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <memory>
#include <sstream>
#include <string>

#include "analysis/export/graph_export.h"
#include "cli/cache_args.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/file_io.h"
#include "cli/mount_checks.h"
#include "cli/pipeline.h"

namespace anchorfs::cli {
namespace {

struct GraphArgs {
  std::string root;
  std::string format = "json";
  std::string output;
  std::string package;
  std::string prefix;
  std::string scope;
  unsigned threads = 0;
  CacheArgs cache;
};

int run_graph(const GraphArgs& args) {
  const auto format = graph_export::parse_graph_format(args.format);
  if (!format) throw CliError("--format", "unknown format '" + args.format + "'", kExitUsage);
  const std::string root = check_repo(args.root);
  const auto store = open_cache(root, args.cache, warn_on_stderr);
  refresh::PipelineOptions options;
  options.cache = store.get();
  options.threads = args.threads;
  const analysis::Analysis analysed =
      refresh::analyse(scan_repo(root), options, /*dense=*/true);

  graph_export::ExportOptions export_options;
  export_options.package = args.package;
  export_options.name_prefix = args.prefix;
  export_options.scope = args.scope;
  std::ostringstream text;
  // The writers format in parallel: on as many threads as the analysis had.
  tbb::task_arena arena(args.threads == 0 ? tbb::task_arena::automatic
                                          : static_cast<int>(args.threads));
  arena.execute(
      [&] { graph_export::write_graph(text, analysed.graph, *format, export_options); });

  if (args.output.empty() || args.output == "-") {
    write_all(STDOUT_FILENO, text.view(), "stdout");
    return kExitOk;
  }
  const int fd = ::open(args.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw CliError(args.output, errno_text(errno));
  try {
    write_all(fd, text.view(), args.output);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw CliError(args.output, errno_text(errno));
  return kExitOk;
}

}  // namespace

Command add_graph_command(CLI::App& app) {
  auto args = std::make_shared<GraphArgs>();
  CLI::App* command = app.add_subcommand(
      "graph", "Analyse ROOT and print its call graph and relations (json, pycg or dot)");
  command->add_option("ROOT", args->root, "Repository or package root (names are relative to it)")
      ->required();
  command->add_option("--format", args->format, "json (anchorfs schema), pycg (PyCG's JSON) or dot")
      ->check(CLI::IsMember({"json", "pycg", "dot"}))
      ->capture_default_str();
  command->add_option("-o,--output", args->output, "Write to FILE instead of stdout")
      ->type_name("FILE");
  command->add_option("--package", args->package,
                      "pycg: directory below ROOT that module names are relative to");
  command->add_option("--prefix", args->prefix, "pycg: dotted prefix put before every module name");
  command->add_option("--scope", args->scope,
                      "dot: draw only this file, or the files below this directory");
  command->add_option("--threads", args->threads, "Analysis threads (0: all cores)");
  add_cache_args(*command, args->cache);
  return {command, [args] { return run_graph(*args); }};
}

}  // namespace anchorfs::cli
