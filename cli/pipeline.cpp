// Scanning for the commands, and the timed pipeline run export and render share.
#include "cli/pipeline.h"

#include <chrono>
#include <stdexcept>

#include "cli/cli_error.h"
#include "cli/file_io.h"
#include "render/tag_plan.h"

namespace anchorfs::cli {

analysis::SourceTree scan_repo(const std::string& repo, unsigned threads) {
  try {
    return analysis::scan_tree(repo, {.threads = threads});
  } catch (const std::exception& error) {
    throw CliError("", error.what());
  }
}

Prepared prepare(const std::string& repo, const refresh::PipelineOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Prepared prepared;
  prepared.tree = scan_repo(repo, options.threads);
  prepared.result = refresh::prepare(prepared.tree, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  prepared.summary = refresh::summary_line(refresh::summarize(prepared.result), seconds);
  return prepared;
}

std::string render_one_file(const std::string& repo, const std::string& path,
                            const CacheArgs& cache, const render::ViewOptions& view,
                            unsigned threads) {
  const std::string original = read_regular_file(repo + "/" + path);
  const auto store = open_cache(repo, cache, warn_on_stderr);
  refresh::PipelineOptions options;
  options.cache = store.get();
  options.view = view;
  options.threads = threads;
  const Prepared prepared = prepare(repo, options);
  const std::optional<render::TagPlan> plan = refresh::find_plan(*prepared.result.plans, path);
  return plan ? render::apply(original, *plan) : original;
}

}  // namespace anchorfs::cli
