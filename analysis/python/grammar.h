// The tree-sitter Python grammar (built from the pinned npm package, cmake/Grammar.cmake).
#pragma once

#include <tree_sitter/api.h>

extern "C" const TSLanguage* tree_sitter_python();
