// Every definition of every file of one brace language under one strong id, with the lookups
// resolvers share: the enclosing definition of a kind, and a breadth-first base-chain search.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "analysis/code/code_facts.h"
#include "analysis/language.h"

namespace anchorfs::analysis::code {

// A definition of some file: its file number (high half) and its index in the file (low half), so
// that an edit of one file leaves every other file's ids as they were (a resolver may keep indexes
// of them between refreshes). Index 0, the file itself, stands for the file's top-level scope.
enum class DefId : uint64_t {};

class DefinitionIndex {
 public:
  explicit DefinitionIndex(std::span<const ResolverFile> files);

  uint32_t file_count() const { return static_cast<uint32_t>(files_.size()); }
  const CodeFacts& facts(uint32_t file) const { return *facts_[file]; }
  static DefId id(uint32_t file, uint32_t local) {
    return DefId{(uint64_t{file} << 32) | uint64_t{local}};
  }
  static uint32_t file_of(DefId d) { return static_cast<uint32_t>(raw(d) >> 32); }
  static uint32_t local_of(DefId d) { return static_cast<uint32_t>(raw(d)); }
  const Definition& definition(DefId d) const {
    return facts_[file_of(d)]->definitions[local_of(d)];
  }
  EntityIndex entity(DefId d) const { return files_[file_of(d)].entity + local_of(d); }
  // The enclosing definition; a file scope is its own parent.
  DefId parent(DefId d) const { return id(file_of(d), definition(d).parent); }
  bool is_file_scope(DefId d) const { return local_of(d) == 0; }

  // `d` or the innermost definition around it that `accept` takes, or nullopt at the file scope.
  std::optional<DefId> enclosing(DefId d,
                                 const std::function<bool(const Definition&)>& accept) const;

  // Breadth first from `start` through `bases` (a type's resolved supertypes), each type once and
  // at most `max_depth` levels: the matches `visit` collects on the first level where it collects
  // any. `visit` appends a level's matches for one type; `stop` ends the search early (no match)
  // after a level with none (constructors are not inherited).
  std::vector<DefId> search_bases(DefId start, int max_depth,
                                  const std::function<std::vector<DefId>(DefId)>& bases,
                                  const std::function<void(DefId, std::vector<DefId>&)>& visit,
                                  bool stop_after_first_level = false) const;

  static uint64_t raw(DefId d) { return static_cast<uint64_t>(d); }

 private:
  std::span<const ResolverFile> files_;
  std::vector<const CodeFacts*> facts_;
};

}  // namespace anchorfs::analysis::code
