// What `anchorfs cache stats` reports about the shared store, and how `cache clear` removes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace anchorfs::cache {

// Lookups answered, by where the answer came from.
struct HitCounts {
  uint64_t fact_hits = 0;         // from the local store
  uint64_t fact_remote_hits = 0;  // from the remote tier
  uint64_t fact_misses = 0;       // parsed
  uint64_t graph_hits = 0;
  uint64_t graph_remote_hits = 0;
  uint64_t graph_misses = 0;  // resolved
};

struct StoreInfo {
  std::string location;          // the store directory
  uint64_t entries = 0;          // per-file facts
  uint64_t graph_entries = 0;    // whole analyses (graph cache)
  uint64_t accounted_bytes = 0;  // what the records themselves take
  uint64_t used_bytes = 0;       // pages in use (records, bookkeeping, tree): what the cap bounds
  uint64_t bytes_on_disk = 0;    // data + lock files (set-aside corrupt files not included)
  uint64_t max_bytes = 0;        // the cap in force (0: unknown)
  HitCounts counts;              // lifetime counters kept in the store
  bool healthy = true;           // false: the store failed verification (it is rebuilt on use)
  std::string problem;           // why it is not healthy
};

// The shared store below `cache_root`: `<cache_root>/store`.
std::string shared_store_dir(const std::string& cache_root);

// The shared store's state, read in a child process (so a damaged store cannot crash the
// caller); nullopt when there is none. Never modifies it.
std::optional<StoreInfo> inspect_store(const std::string& cache_root);

// Per-repository stores an older anchorfs left below `cache_root` (directories named by 16 hex
// digits): never read by this version.
std::vector<std::string> legacy_store_dirs(const std::string& cache_root);
uint64_t legacy_store_bytes(const std::string& cache_root);
// Removes one legacy store directory (only the files anchorfs put there); false if it stays.
bool clear_legacy_store(const std::string& dir);

// Removes the shared store and every legacy store (only the files anchorfs puts there, so a
// mistaken --cache-dir cannot lose unrelated files); returns how many stores went.
size_t clear_all_stores(const std::string& cache_root);

}  // namespace anchorfs::cache
