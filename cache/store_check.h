// Verifying a store in a child process, so a corrupt file can never crash or hang the caller.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace anchorfs::cache {

inline constexpr const char* kDataFile = "data.mdb";
inline constexpr const char* kLockFile = "lock.mdb";
inline constexpr const char* kMetaDb = "meta";
inline constexpr const char* kFactsDb = "facts";
inline constexpr const char* kGraphsDb = "graphs";         // whole analyses by resolution key
inline constexpr const char* kGraphUsedDb = "graph_used";  // resolution key -> recency stamp
inline constexpr unsigned kMaxDbs = 8;
inline constexpr const char* kRepoKey = "repo";
inline constexpr const char* kVersionKey = "version";

struct StoreReport {
  bool exists = false;   // there is a data file at all
  bool verified = true;  // false: the check itself could not run (no fork, no pipe); no verdict
  bool healthy = false;  // every page reachable, every record's checksum verifies
  std::string problem;   // why not healthy
  std::string repo_path;
  std::string analyser_version;
  uint64_t entries = 0;
  uint64_t graph_entries = 0;
};

// Opens the store in `dir` read-only in a forked child and walks all of it: the free list, the
// metadata, every fact and graph record (checksummed). LMDB trusts its pages, so a scribbled file
// could crash or loop in-process; in the child that is just a failed check. A check that outlives
// `timeout` counts as failed.
StoreReport check_store(const std::string& dir,
                        std::chrono::milliseconds timeout = std::chrono::seconds(20));

}  // namespace anchorfs::cache
