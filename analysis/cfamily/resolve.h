// C and C++ resolution: includes, C++ inheritance, and calls whose callee is
// evident from the code (no edge rather than a guess).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "analysis/cfamily/tables.h"
#include "analysis/code/code_facts.h"
#include "analysis/language.h"

namespace anchorfs::analysis::cfamily {

// Which files' edges to resolve, and where each one's edges end in the output.
struct FileSelection {
  std::vector<bool> only;  // empty: every file
  // When set: (file, size of the output after its edges) per resolved file, in file order.
  std::vector<std::pair<uint32_t, size_t>>* ends = nullptr;
};

// The tables of every file of `input`.
std::unique_ptr<Tables> make_tables(const ResolverInput& input);

// Moves file f's free functions, macros and declarations in `tables` from what `before` defines
// to what `after` defines. Exact only when the two define the same includes and everything
// class-like alike (classes, methods, bases, fields: incremental.cpp's interface checks it).
void update_tables(Tables& tables, uint32_t f, const code::CodeFacts& before,
                   const code::CodeFacts& after);

// The selected files' edges against `tables` (made from the same file list).
void resolve(const ResolverInput& input, const Tables& tables, std::vector<Edge>& edges,
             const FileSelection& selection = {});

void resolve(const ResolverInput& input, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::cfamily
