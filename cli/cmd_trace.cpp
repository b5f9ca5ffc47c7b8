// `anchorfs trace report TRACE... [--json]`: the study's navigation measures from mount traces.
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/file_io.h"
#include "trace/report.h"

namespace anchorfs::cli {
namespace {

struct TraceReportArgs {
  std::vector<std::string> traces;
  bool json = false;
  size_t bulk_files = trace::NavigationOptions{}.bulk_files;
};

int run_trace_report(const TraceReportArgs& args) {
  trace::NavigationOptions options;
  options.bulk_files = args.bulk_files;
  std::vector<trace::RunReport> runs;
  for (const std::string& path : args.traces) {
    try {
      runs.push_back(trace::report_run(trace::read_run(path), options));
    } catch (const std::exception& error) {
      throw CliError("", error.what());
    }
  }
  const std::string text =
      args.json ? trace::format_json(runs).dump(2) + "\n" : trace::format_markdown(runs);
  write_all(STDOUT_FILENO, text, "stdout");
  return kExitOk;
}

}  // namespace

Command add_trace_command(CLI::App& app) {
  auto args = std::make_shared<TraceReportArgs>();
  CLI::App* command = app.add_subcommand("trace", "Read navigation traces (mount --trace)");
  command->require_subcommand(1);
  CLI::App* report = command->add_subcommand(
      "report",
      "Per session: visits, searches, hops classified structural/lexical/exploratory, LFR; "
      "with several traces of one task, run-to-run stability (docs/study.md)");
  report->add_option("TRACE", args->traces, "Trace files written by mount --trace (one per run)")
      ->required();
  report->add_flag("--json", args->json, "JSON instead of Markdown");
  report->add_option("--bulk-files", args->bulk_files,
                     "A process reading this many files is a bulk scan (a search step)");
  return {command, [args] { return run_trace_report(*args); }};
}

}  // namespace anchorfs::cli
