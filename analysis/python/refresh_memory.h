// What Python's refresh resolution keeps of the last whole resolution, and its cache encoding.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/language.h"
#include "analysis/python/resolution_base.h"
#include "analysis/python/resolve.h"

namespace anchorfs::analysis::python {

// An edge end as (file, definition): entities are re-numbered when any file's count changes.
struct LocalEnd {
  uint32_t file = 0;
  uint32_t local = 0;
};

struct LocalEdge {
  LocalEnd from, to;
  Relation relation = Relation::Calls;
};

struct FileMemory {
  std::string path;
  std::shared_ptr<const LanguageFacts> facts;
  // The digest of the bytes `facts` were made from: a later mount finds the same facts by it
  // (the cache record of the memory keeps digests, not facts). None without a cache.
  std::optional<ContentDigest> digest;
};

// What the last whole resolution read and made: `files` as the resolver reads them (an edit that
// leaves a file so replaces its facts; an appended unit keeps the file's facts of that
// resolution), its edges, and the first round in which nothing changed.
class RefreshMemory final : public ResolutionMemory {
 public:
  std::string root;
  std::vector<FileMemory> files;
  std::vector<LocalEdge> edges;
  int quiet_round = kMaxRounds;
  std::shared_ptr<const ResolutionBase> base;  // what appended leaves read (resolution_base.h)
};

// The memory as bytes for the cache: empty when a file has no digest (nothing could find its
// facts again).
std::string serialize_memory(const RefreshMemory& memory);

// The memory `bytes` encode, its files' facts taken from `input` where path and digest match and
// otherwise from `old_facts` (the cache's record of those bytes). nullptr for anything that is not
// a well-formed encoding, whose references do not fit the facts, or whose facts cannot all be
// found: the refresh then resolves the whole tree, as it would without a memory.
std::unique_ptr<RefreshMemory> deserialize_memory(std::string_view bytes,
                                                  const analysis::ResolverInput& input,
                                                  const analysis::OldFacts& old_facts);

}  // namespace anchorfs::analysis::python
