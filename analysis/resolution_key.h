// The key of the graph cache: a digest of everything whole-repository resolution depends on.
#pragma once

#include <optional>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/fact_cache.h"
#include "analysis/source_files.h"
#include "analysis/source_survey.h"
#include "analysis/source_tree.h"

namespace anchorfs::analysis {

// Files at the repository root that resolution reads itself (not through the sources): the
// dense resolver's entry points (analysis/python/dense_resolve.cpp). Keep in step with it; a file
// missing here would let an edit to it go unnoticed by the graph cache.
inline constexpr const char* kDenseRootInputs[] = {"setup.cfg", "pyproject.toml"};
inline constexpr size_t kMaxRootInputBytes = size_t{1} << 20;

// xxh3-128 over: the graph format and analyser versions, the analyser's build id, the options
// that change the graph (dense), the repository root (its name can make it a package), every
// source's path, front end and state (digest and keep_unchanged, or why it is not analysed), and
// with dense the root files above. nullopt when the build id is unknown: without it a rebuilt
// resolver could be handed graphs of an older one, so nothing is cached.
std::optional<ResolutionKey> resolution_key(const SourceTree& tree,
                                            const std::vector<SourceFile>& sources,
                                            const std::vector<SourceState>& states,
                                            const AnalysisOptions& options);

}  // namespace anchorfs::analysis
