// A rendered view kept in the cache beside the analysis it was rendered from: a warm start of an
// unchanged tree loads this one record, and neither loads the analysis nor renders a file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/fact_cache.h"
#include "refresh/pipeline.h"
#include "render/laid_out_plans.h"
#include "render/view.h"

namespace anchorfs::refresh {

// The key of the view `view` renders from the analysis cached under `analysis` (which covers the
// build, so a changed renderer never finds an older one's views).
analysis::ResolutionKey view_key(const analysis::ResolutionKey& analysis,
                                 const render::ViewOptions& view);

// What a prepared run serves and reports: statistics, skipped files, entity and edge counts, the
// view's reason and every plan (no graph, no plan maps).
struct ViewParts {
  const analysis::AnalysisStats& stats;
  size_t analysed_files;
  size_t entities;
  size_t edges;
  const std::string& reason;
  const std::vector<analysis::SkippedFile>& skipped;
  const render::LaidOutPlans& plans;
};
ViewParts view_parts(const Prepared& prepared);
std::string encode_view(const ViewParts& view);
// The same back, as a graph cache hit reports it (stats.graph_from_cache); nullopt for anything
// malformed or of another format version. The plans view `bytes` (kept alive by them): the
// record is not copied again, and nothing is allocated per insertion.
std::optional<Prepared> decode_view(std::string bytes);

}  // namespace anchorfs::refresh
