// The first pass of analysis: read and digest every source file (the bytes are not kept).
#pragma once

#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/fact_cache.h"
#include "analysis/source_files.h"
#include "analysis/source_tree.h"

namespace anchorfs::analysis {

// What analysis needs to know about a source file before deciding whether to resolve at all.
struct SourceState {
  bool ok = false;              // readable and analysable (see read_source)
  std::string problem;          // why not, when !ok
  ContentDigest digest;         // of its bytes, when ok
  bool keep_unchanged = false;  // options.keep_unchanged accepted its bytes
};

// One state per source, in the same order. Runs in parallel in the calling task arena; each
// file's bytes are dropped once digested, so memory stays at one file per thread.
std::vector<SourceState> survey_sources(const SourceTree& tree,
                                        const std::vector<SourceFile>& sources,
                                        const AnalysisOptions& options);

}  // namespace anchorfs::analysis
