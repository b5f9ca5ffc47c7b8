// The key of the graph cache: a digest of everything whole-repository resolution depends on.
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/fact_cache.h"
#include "analysis/source_files.h"
#include "analysis/source_survey.h"
#include "analysis/source_tree.h"

namespace anchorfs::analysis {

// The files LanguageFrontEnd::resolution_inputs names, sorted: a name holding a '/' is that one
// repository-relative path; a bare file name ("go.mod", "Cargo.toml") is every regular file so
// called outside the directories the analysis never enters (node_modules, .git, ...), and the
// top-level one whether it exists or not.
std::vector<std::string> resolution_input_paths(const SourceTree& tree,
                                                const std::vector<std::string_view>& names);

// xxh3-128 over: the graph format version, every front end's name and facts version, the
// analyser's build id, the options that change the graph (dense), the repository root (its name
// can make it a package), every source's path, front end and state (digest and keep_unchanged,
// or why it is not analysed), and each front end's resolution inputs. nullopt when the build id
// is unknown: without it a rebuilt resolver could be handed graphs of an older one, so nothing
// is cached.
std::optional<ResolutionKey> resolution_key(const SourceTree& tree,
                                            const std::vector<SourceFile>& sources,
                                            const std::vector<SourceState>& states,
                                            const AnalysisOptions& options);

// The key a warm start looks its survey up by (FactCache::load_alias), without reading a byte:
// xxh3-128 over the same versions, build id, options and root, and every source's and
// resolution input's path and stat identity (analysis/stat_identity.h). nullopt when the build
// id is unknown, or when a file it covers is not a regular file or is racily clean at `now`.
std::optional<ResolutionKey> stat_alias_key(const SourceTree& tree,
                                            const std::vector<SourceFile>& sources,
                                            const AnalysisOptions& options,
                                            std::chrono::system_clock::time_point now);

// The key of the survey memo kept in the cache for one tree (FactCache::load_survey_memo): what
// a file's state depends on besides its bytes, which the memo's stat identities stand for:
// xxh3-128 over the analyser's build id, the repository root, `max_file_bytes` and whether a
// `keep_unchanged` check is given. nullopt when the build id is unknown.
std::optional<ResolutionKey> survey_memo_key(const SourceTree& tree,
                                             const AnalysisOptions& options);

}  // namespace anchorfs::analysis
