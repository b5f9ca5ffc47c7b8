// A file's stat identity: what tells, without reading it, that its bytes are those seen before.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "analysis/source_files.h"
#include "analysis/source_tree.h"

namespace anchorfs::analysis {

// Trusted as git trusts its index: a write changes the ctime (no user can set it back), a
// replacement the inode.
struct StatIdentity {
  uint64_t mode = 0;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  uint64_t inode = 0;
  uint64_t device = 0;
  uint64_t uid = 0;
  uint64_t gid = 0;
  friend bool operator==(const StatIdentity&, const StatIdentity&) = default;
};

StatIdentity stat_identity(const TreeEntry& entry);

// The kernel stamps files with a coarse clock: a same-size write within one tick of the previous
// one leaves every stat field as it was. A file changed less than this before `now` is "racily
// clean" (git's term): its identity says nothing until it has aged.
inline constexpr std::chrono::seconds kRacyWindow{2};
bool racily_clean(const TreeEntry& entry, std::chrono::system_clock::time_point now);

// Each source's tree entry when it is a regular file (only a regular file's stat tells its
// content's version; a symlink's does not), else nullptr; in the order of `sources`.
std::vector<const TreeEntry*> regular_entries(const SourceTree& tree,
                                              const std::vector<SourceFile>& sources);

}  // namespace anchorfs::analysis
