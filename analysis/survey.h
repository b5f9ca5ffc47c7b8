// analyze() in two steps, for a caller that reuses what it derived from a whole analysis (the
// rendered view) by the analysis's resolution key without loading the analysis at all.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/fact_cache.h"
#include "analysis/source_files.h"
#include "analysis/source_survey.h"
#include "analysis/source_tree.h"

namespace anchorfs::analysis {

struct Survey {
  std::vector<SourceFile> sources;
  std::vector<SourceState> states;  // empty without a cache
  // What the result is keyed by; null without a cache or a build id.
  std::optional<ResolutionKey> key;
  // The stat alias to keep `states` under once they are known to fit the bytes (null when the
  // survey was found by it, or the tree has no alias).
  std::optional<ResolutionKey> alias_to_store;
  // The survey memo to keep under its key (FactCache::replace_survey_memo) with the alias: set
  // when the survey started from the cache's memo (or none) and learnt a file it did not hold.
  struct MemoRecord {
    ResolutionKey key;
    std::string bytes;
  };
  std::optional<MemoRecord> memo_to_store;
  // How many sources were read and digested: those neither the stat alias nor a memo knew.
  size_t read = 0;
  double seconds = 0;
  // Left to the parse (AnalysisOptions::survey_in_parse): `states`, `key` and `memo_to_store`
  // are filled by analyze() from the parse's reads, with the survey memo's key and the clock
  // reading the survey began at.
  bool in_parse = false;
  std::optional<ResolutionKey> memo_key;
  std::chrono::system_clock::time_point began;
};

// Every source read and digested, unless its survey is found by stat alias or known to the
// memo: AnalysisOptions::survey_memo when it holds files, else the one kept in the cache for
// this tree (SurveyMemo::record). Without a cache, only the sources.
Survey survey(const SourceTree& tree, const AnalysisOptions& options);

// The rest of analyze(): the analysis cached under survey.key, else facts and resolution.
Analysis analyze(const SourceTree& tree, const AnalysisOptions& options, Survey survey);

// Keeps survey.states under their stat alias, and the survey memo. For a caller that found a
// result by survey.key (which the states decide): that hit shows they fit the bytes.
void keep_survey(FactCache& cache, const Survey& survey);

}  // namespace anchorfs::analysis
