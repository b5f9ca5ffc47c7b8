// What every C or C++ file's resolution reads besides its own facts: the include graph and the
// name indexes built from every file, kept between refreshes (incremental.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/cfamily/includes.h"
#include "analysis/code/definition_index.h"

namespace anchorfs::analysis::cfamily {

// Holds no reference into the input it was built from (paths are its own copies, definitions
// are named by code::DefId, stable per file), so it stays valid for the next resolution of the
// same file list. Not movable: the include resolver points into `paths`.
struct Tables {
  Tables() = default;
  Tables(const Tables&) = delete;
  Tables& operator=(const Tables&) = delete;

  // An `#include` a header leaves ambiguous, decided per translation unit.
  struct Ambiguous {
    std::string source;
    bool system = false;
  };

  std::vector<std::string> path_text;
  std::vector<std::string_view> paths;  // into path_text
  std::optional<IncludeResolver> includes_resolver;
  std::vector<std::vector<uint32_t>> includes;  // by file: the files its includes name
  std::vector<std::vector<Ambiguous>> ambiguous;
  // Each index's vectors are in id order (file, then definition), as a cold build fills them.
  std::unordered_map<std::string, std::vector<code::DefId>> classes;
  std::unordered_map<std::string, std::vector<code::DefId>> functions;
  std::unordered_map<uint64_t, std::vector<code::DefId>> methods;  // by class
  std::unordered_map<std::string, std::vector<uint32_t>> declared;
  std::unordered_map<std::string, uint32_t> simple_counts;  // free functions by simple name
  std::unordered_map<std::string, std::vector<code::DefId>> by_simple;  // free functions (C++)
  // Qualified names of class templates with a partial or explicit specialization in the tree.
  std::unordered_set<std::string> specialized;
};

}  // namespace anchorfs::analysis::cfamily
