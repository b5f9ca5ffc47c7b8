// Verifying a store in a child process, so a corrupt file can never crash or hang the caller.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "cache/store_info.h"

namespace anchorfs::cache {

inline constexpr const char* kDataFile = "data.mdb";
inline constexpr const char* kLockFile = "lock.mdb";
inline constexpr unsigned kMaxDbs = 8;

struct StoreReport {
  bool exists = false;   // there is a data file at all
  bool verified = true;  // false: the check itself could not run (no fork, no pipe); no verdict
  bool healthy = false;  // every page reachable, every record's checksum verifies
  std::string problem;   // why not healthy
  StoreInfo info;        // what the walk found (location and file sizes are the caller's)
};

// Opens the store in `dir` read-only in a forked child and walks its structure: the free list,
// the metadata, every record's key and where its value lies (inside the file, with the record
// magic). LMDB trusts its pages, so a scribbled file could crash or loop in-process; in the child
// that is just a failed check. Values are checksummed when read, not here, so the walk stays
// cheap for a store of gigabytes. A check that outlives `timeout` counts as failed.
StoreReport check_store(const std::string& dir,
                        std::chrono::milliseconds timeout = std::chrono::seconds(20));

}  // namespace anchorfs::cache
