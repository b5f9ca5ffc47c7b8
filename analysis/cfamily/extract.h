// The C and C++ extractor: one parse, one walk, the file's code::CodeFacts.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "analysis/cfamily/grammar.h"
#include "analysis/code/code_facts.h"

namespace anchorfs::analysis::cfamily {

// Definitions (functions, methods, classes, structs, unions, enums, typedefs of them,
// namespaces, function-like macros) with their tag anchors, `#include`s, prototypes, call sites
// and, in C++, names of evident class type. `CodeFacts::package` holds the dialect the file was
// parsed as ("c" or "c++"): resolution reads C++ calls more strictly.
code::CodeFacts extract_facts(TSParser* parser, std::string_view bytes, Dialect dialect);

}  // namespace anchorfs::analysis::cfamily
