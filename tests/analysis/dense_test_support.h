// Helpers for the dense-relation tests: labels by relation, an in-memory fact cache.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/fact_cache.h"
#include "analysis/graph.h"

namespace anchorfs::analysis::test {

// "id = value" lines of a graph's labels for one relation, in graph order.
std::vector<std::string> labels_of(const Graph& graph, Relation relation);

// python::is_test_path, for the tests.
bool python_is_test_path(std::string_view path);

class MemoryCache : public FactCache {
 public:
  std::optional<std::string> load(const FactsKey& key) override;
  void store(const FactsKey& key, std::string_view facts) override;

 private:
  std::mutex mutex_;
  std::map<std::pair<uint64_t, uint64_t>, std::string> entries_;
};

}  // namespace anchorfs::analysis::test
