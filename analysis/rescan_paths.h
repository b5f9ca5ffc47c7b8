// A tree scanned again only where known changes happened: what a writable mount does after each
// change it makes, instead of listing the whole repository again.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/source_tree.h"

namespace anchorfs::analysis {

// No entry of the old tree (rescan_paths' `origin`).
inline constexpr uint32_t kNoOrigin = UINT32_MAX;

// `tree` (a scan of the same root, or one made like it) as a full scan_tree would see it now,
// given that only `paths` (repository-relative; "" is the root) were made, changed or removed
// since: each of them is read again (a directory that is new at its path, or another directory
// than before, with everything below it); the directories holding them are stat'ed again (their
// times and link counts moved); so is every other name of a file whose link count changed
// (link, unlink and in-place writes of hard-linked files move theirs too). Everything else is
// copied from `tree`. A path whose parent is not a directory of `tree` stands for its nearest
// ancestor that is. `origin`, if given, receives for each entry of the result the entry of `tree`
// at the same path, or kNoOrigin; `copied`, if given, for each entry 1 when it is that entry
// copied as it was (every field but parent, first_child and child_count the same, nothing read
// from the disk for it): what a swap per change may skip comparing. nullopt when the tree cannot
// be patched (a directory on the way cannot be opened, an entry expected to be there vanished):
// scan it whole instead. `storage`: entries of a tree no longer used whose memory the result may
// take over (every value is overwritten): a swap per change then allocates no path it copies.
// `root_fd`: a descriptor of the directory tree.entries[0] is (the same device and inode) that the
// caller keeps open, or -1. Either way the root's path must still name that directory (else
// nullopt: it was replaced); with a descriptor that costs one stat instead of opening the path,
// since the kept descriptor pins the inode and its number cannot name another directory meanwhile.
std::optional<SourceTree> rescan_paths(const SourceTree& tree, std::span<const std::string> paths,
                                       const ScanOptions& options = {},
                                       std::vector<uint32_t>* origin = nullptr,
                                       std::vector<uint8_t>* copied = nullptr,
                                       std::vector<TreeEntry> storage = {}, int root_fd = -1);

}  // namespace anchorfs::analysis
