// C and C++ resolution again after an edit: only the files whose edges the edit can change.
#pragma once

#include <memory>
#include <vector>

#include "analysis/language.h"

namespace anchorfs::analysis::cfamily {

// resolve() with what the previous call kept in `memory`: the rule is in docs/resolver.md
// ("Refresh: C and C++").
void resolve_again(const ResolverInput& input, std::unique_ptr<ResolutionMemory>& memory,
                   std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::cfamily
