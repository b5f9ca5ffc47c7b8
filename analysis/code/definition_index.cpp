// The brace languages' definition index: ids by file and index, enclosing scopes, base chains.
#include "analysis/code/definition_index.h"

#include <algorithm>

namespace anchorfs::analysis::code {

DefinitionIndex::DefinitionIndex(std::span<const ResolverFile> files) : files_(files) {
  facts_.reserve(files.size());
  for (const ResolverFile& file : files) facts_.push_back(static_cast<const CodeFacts*>(file.facts));
}

std::optional<DefId> DefinitionIndex::enclosing(
    DefId d, const std::function<bool(const Definition&)>& accept) const {
  for (DefId at = d; !is_file_scope(at); at = parent(at)) {
    if (accept(definition(at))) return at;
  }
  return std::nullopt;
}

std::vector<DefId> DefinitionIndex::search_bases(
    DefId start, int max_depth, const std::function<std::vector<DefId>(DefId)>& bases,
    const std::function<void(DefId, std::vector<DefId>&)>& visit,
    bool stop_after_first_level) const {
  std::vector<DefId> level{start};
  std::vector<DefId> seen{start};
  std::vector<DefId> found;
  for (int depth = 0; depth < max_depth && !level.empty(); ++depth) {
    for (const DefId type : level) visit(type, found);
    if (!found.empty() || stop_after_first_level) return found;
    std::vector<DefId> next;
    for (const DefId type : level) {
      for (const DefId base : bases(type)) {
        if (std::find(seen.begin(), seen.end(), base) != seen.end()) continue;
        seen.push_back(base);
        next.push_back(base);
      }
    }
    level = std::move(next);
  }
  return found;
}

}  // namespace anchorfs::analysis::code
