// Rewriting the stat data of a git index file (versions 2-4) so git trusts a view's stat.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace anchorfs::fs {

// The stat fields git records per index entry and compares with lstat (all 32-bit on disk).
struct IndexedStat {
  uint32_t ctime_s = 0;
  uint32_t ctime_ns = 0;
  uint32_t mtime_s = 0;
  uint32_t mtime_ns = 0;
  uint32_t dev = 0;
  uint32_t ino = 0;
  uint32_t mode = 0;
  uint32_t uid = 0;
  uint32_t gid = 0;
  uint32_t size = 0;
  // The entry's "assume unchanged" flag (CE_VALID): git then takes the worktree file to equal
  // the indexed blob without looking, and `git grep` searches the blob.
  bool assume_unchanged = false;
  bool operator==(const IndexedStat&) const = default;
};

// For one entry of the index (its path and what git recorded): the stat it should carry instead,
// or nullopt to leave it as it is.
using RestatFn =
    std::function<std::optional<IndexedStat>(std::string_view path, const IndexedStat& recorded)>;

// `index` with each entry's stat data (and assume-unchanged flag) replaced as `restat` says and the trailing checksum (SHA-1
// or SHA-256, whichever the file uses) recomputed; everything else (flags, paths, extensions) is
// kept byte for byte, so the size does not change. Nullopt when the bytes are not an index this
// can rewrite faithfully: unknown signature or version, a split index (`link` extension, whose
// entries live in another file), a checksum that does not verify, truncation. Callers then serve
// the original bytes: git still reads them correctly, it only re-reads more files.
std::optional<std::string> rewrite_index_stats(std::string_view index, const RestatFn& restat);

}  // namespace anchorfs::fs
