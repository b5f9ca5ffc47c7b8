// Scanning for the commands, and the timed pipeline run export and render share.
#include "cli/pipeline.h"

#include <chrono>
#include <stdexcept>

#include "cli/cli_error.h"

namespace anchorfs::cli {

analysis::SourceTree scan_repo(const std::string& repo) {
  try {
    return analysis::scan_tree(repo);
  } catch (const std::exception& error) {
    throw CliError("", error.what());
  }
}

Prepared prepare(const std::string& repo, const refresh::PipelineOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Prepared prepared;
  prepared.tree = scan_repo(repo);
  prepared.result = refresh::prepare(prepared.tree, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  prepared.summary = refresh::summary_line(refresh::summarize(prepared.result), seconds);
  return prepared;
}

}  // namespace anchorfs::cli
