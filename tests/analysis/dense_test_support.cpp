// Helpers for the dense-relation tests.
#include "tests/analysis/dense_test_support.h"

#include "analysis/python/dense_parts.h"

namespace anchorfs::analysis::test {

std::vector<std::string> labels_of(const Graph& graph, Relation relation) {
  std::vector<std::string> out;
  for (const Label& l : graph.labels) {
    if (l.relation == relation) out.push_back(graph.id(l.entity) + " = " + l.value);
  }
  return out;
}

bool python_is_test_path(std::string_view path) {
  return python::is_test_path(path);
}

std::optional<std::string> MemoryCache::load(const FactsKey& key) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find({key.digest.low, key.digest.high});
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

void MemoryCache::store(const FactsKey& key, std::string_view facts) {
  std::lock_guard lock(mutex_);
  entries_[{key.digest.low, key.digest.high}] = std::string(facts);
}

}  // namespace anchorfs::analysis::test
