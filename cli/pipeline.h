// The commands' entry into the one pipeline (refresh/pipeline.h): scanning with CLI errors, timing.
#pragma once

#include <string>

#include "analysis/source_tree.h"
#include "cli/cache_args.h"
#include "refresh/pipeline.h"

namespace anchorfs::cli {

// Scans `repo` (a canonical directory path); a CliError when it cannot be listed.
// `threads` list directories at once (0: one per core); the tree is the same for any count.
analysis::SourceTree scan_repo(const std::string& repo, unsigned threads = 1);

struct Prepared {
  analysis::SourceTree tree;
  refresh::Prepared result;
  std::string summary;  // refresh::summary_line of this run, timed from the scan to the plans
};

// Scans `repo` and runs the pipeline over it (no analysis under view none).
Prepared prepare(const std::string& repo, const refresh::PipelineOptions& options);

// The view of one file of `repo` (`path` repository-relative): its original bytes with the tag
// plan the pipeline gives it, or the original bytes when it is served unchanged.
std::string render_one_file(const std::string& repo, const std::string& path,
                            const CacheArgs& cache, const render::ViewOptions& view,
                            unsigned threads);

}  // namespace anchorfs::cli
