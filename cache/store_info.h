// What `anchorfs cache stats` reports about a store, and how `anchorfs cache clear` removes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace anchorfs::cache {

struct StoreInfo {
  std::string location;          // the store directory
  std::string repo_path;         // canonical repository path the store belongs to
  std::string analyser_version;  // version of the entries currently kept
  uint64_t entries = 0;          // per-file facts
  uint64_t graph_entries = 0;    // whole analyses (graph cache)
  uint64_t bytes_on_disk = 0;    // data + lock files (set-aside corrupt files not included)
  bool healthy = true;           // false: the store failed verification (it is rebuilt on use)
  std::string problem;           // why it is not healthy
};

// Every store below `cache_root`, sorted by repository path. Never modifies a store.
std::vector<StoreInfo> list_stores(const std::string& cache_root);

// Removes the store of `repo_root` below `cache_root` (including set-aside corrupt files).
// Returns false when there was none. A mount using it keeps its open copy until it exits.
bool clear_store(const std::string& cache_root, const std::string& repo_root);

// Removes every store below `cache_root`; returns how many. Only directories that look like
// anchorfs stores are touched, so a mistaken --cache-dir cannot lose unrelated files.
size_t clear_all_stores(const std::string& cache_root);

}  // namespace anchorfs::cache
