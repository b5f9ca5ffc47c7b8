// The tree-sitter-rust grammar (built by cmake/Grammar.cmake).
#pragma once

#include <tree_sitter/api.h>

extern "C" const TSLanguage* tree_sitter_rust();
