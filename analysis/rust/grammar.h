// The tree-sitter-rust grammar (built by cmake/Grammar.cmake) and the fields the extractor reads.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>

extern "C" const TSLanguage* tree_sitter_rust();

namespace anchorfs::analysis::rust {

// The fields the extractor reads, their ids looked up once (by name, tree-sitter compares
// strings with every field of the grammar on each lookup).
enum class Field : uint8_t {
  Alias,
  Argument,
  Arguments,
  Body,
  Bounds,
  Element,
  Field,
  Function,
  Left,
  List,
  Macro,
  Name,
  Path,
  Pattern,
  ReturnType,
  Right,
  Trait,
  Type,
  TypeArguments,
  Value,
};

// The child of `node` in `f`, or a null node (also for a null `node`).
TSNode field(TSNode node, Field f);

}  // namespace anchorfs::analysis::rust
