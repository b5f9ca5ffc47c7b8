// The C and C++ extractor: one parse, one walk, the file's code::CodeFacts.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>

#include "analysis/cfamily/grammar.h"
#include "analysis/code/code_facts.h"

namespace anchorfs::analysis::cfamily {

// Definitions (functions, methods, classes, structs, unions, enums, typedefs of them,
// namespaces, function-like macros) with their tag anchors, `#include`s, prototypes, call sites
// and, in C++, names of evident class type. `CodeFacts::package` holds the dialect the file was
// parsed as ("c" or "c++"): resolution reads C++ calls more strictly.
// A file of plain directives only (directives_only.h) whose tree would fit its parse budget is
// not parsed: its facts are plain_directive_facts, which equal extract_facts_by_parse's.
code::CodeFacts extract_facts(std::string_view bytes, Dialect dialect);

// The facts from the syntax tree, whatever the file holds.
code::CodeFacts extract_facts_by_parse(std::string_view bytes, Dialect dialect);

// The facts of a file of plain directives only, read without a syntax tree.
code::CodeFacts plain_directive_facts(std::string_view bytes, Dialect dialect);

// Whether the syntax tree of a file of plain directives with `items` directive lines and
// comments certainly fits the parse budget of its `size` bytes (analysis/parse_budget.h): a
// bound measured on the worst such files, with a margin; over it the file is parsed, and the
// budget decides as for any file.
// anchorfs_plain_directives_check measured at most 317 bytes per item (a kernel register
// header) and 306 KB for files under 1,000 items on the kernel, Boost and anchorfs's sources.
inline constexpr uint64_t kPlainTreeBytesPerItem = 1024;
inline constexpr uint64_t kPlainTreeFixedBytes = uint64_t{1} << 20;
bool plain_tree_fits_budget(uint64_t items, uint64_t size);

}  // namespace anchorfs::analysis::cfamily
