// Front ends' resolution memories kept in the cache, so that a later mount's first refresh
// starts from the last resolution instead of resolving the whole tree again.
#pragma once

#include <memory>
#include <string_view>

#include "analysis/analyze.h"
#include "analysis/fact_cache.h"
#include "analysis/language.h"

namespace anchorfs::analysis {

// The derived-record key of front end `front_end`'s memory of the analysis keyed `analysis`.
ResolutionKey memory_key(const ResolutionKey& analysis, std::string_view front_end);

// Writes each memory `memo` holds under the key of the analysis that made it (memo.unsaved()),
// for front ends that encode theirs (LanguageFrontEnd::serialize_memory); then owes none.
void keep_memories(FactCache& cache, ResolutionMemo& memo);

// The memory `language` kept under the analysis key `from`, for resolving `input` (an edited
// file's old facts from `old_facts`), or null when there is none that fits.
std::unique_ptr<ResolutionMemory> restore_memory(FactCache& cache, const ResolutionKey& from,
                                                 const LanguageFrontEnd& language,
                                                 const ResolverInput& input,
                                                 const OldFacts& old_facts);

}  // namespace anchorfs::analysis
