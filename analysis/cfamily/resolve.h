// C and C++ resolution: includes, C++ inheritance, and calls whose callee is
// evident from the code (no edge rather than a guess).
#pragma once

#include <vector>

#include "analysis/language.h"

namespace anchorfs::analysis::cfamily {

void resolve(const ResolverInput& input, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::cfamily
