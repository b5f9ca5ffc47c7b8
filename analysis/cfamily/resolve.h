// C and C++ resolution: includes, C++ inheritance, and calls whose callee is
// evident from the code (no edge rather than a guess).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/language.h"

namespace anchorfs::analysis::cfamily {

// Which files' edges to resolve (the indexes are always built from every file), and where each
// one's edges end in the output.
struct FileSelection {
  std::vector<bool> only;  // empty: every file
  // When set: (file, size of the output after its edges) per resolved file, in file order.
  std::vector<std::pair<uint32_t, size_t>>* ends = nullptr;
};

void resolve(const ResolverInput& input, std::vector<Edge>& edges,
             const FileSelection& selection = {});

}  // namespace anchorfs::analysis::cfamily
