// Reading and digesting every source file in parallel.
#include "analysis/source_survey.h"

#include <tbb/parallel_for.h>

#include "analysis/language.h"

namespace anchorfs::analysis {

std::vector<SourceState> survey_sources(const SourceTree& tree,
                                        const std::vector<SourceFile>& sources,
                                        const AnalysisOptions& options) {
  std::vector<SourceState> states(sources.size());
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, sources.size(), 8),
      [&](const tbb::blocked_range<size_t>& range) {
        for (size_t i = range.begin(); i != range.end(); ++i) {
          SourceBytes source = read_source(tree.root, sources[i].path, options.max_file_bytes);
          SourceState& state = states[i];
          if (!source.ok) {
            state.problem = std::move(source.problem);
            continue;
          }
          state.ok = true;
          state.digest = digest_of(source.bytes);
          state.keep_unchanged = options.keep_unchanged &&
              options.keep_unchanged(*front_ends()[sources[i].front_end], source.bytes);
        }
      });
  return states;
}

}  // namespace anchorfs::analysis
