// The tree as it is now, keeping the tags of every file whose bytes did not change.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/source_tree.h"
#include "fs/generation.h"
#include "fs/snapshot.h"

namespace anchorfs::fs {

// A snapshot of `fresh` (a scan taken after `current`) in which a regular file keeps its layout
// from `current` when its source identity (size, mtime, source inode) is unchanged, following
// `moves` (renames since `current`); every other file is served untagged until the analysis
// catches up. No analysis runs: this is what a writable mount publishes after each change it
// makes, in the time of one scan. The result is awaiting analysis (VirtualFiles) unless `current`
// was not and nothing outside the repositories' own files (`.git`) changed for the analysis:
// git's own writes through the mount leave the view's tags as right as they were.
std::shared_ptr<const Snapshot> rebase_snapshot(const Snapshot& current, analysis::SourceTree fresh,
                                                std::span<const PathMove> moves = {});

// The same in the time of reading only `touched` again (repository paths a change made through
// the mount made, changed or removed; each move's two paths are added): see
// analysis::rescan_paths. Null when the change reaches what only a whole rescan rebuilds: the view's
// `.git` overlays (an index, config or info/attributes git renamed over, a repository made or
// removed), a renamed directory, a tagged file renamed to a name the view's filter does not cover
// yet. Then call rebase_snapshot with a full scan. `origin` receives, for each entry of the
// result, the entry of `current` at its path, and `copied` whether it is that entry as it was
// (analysis::rescan_paths; for Generation).
// `carry_if`: what a touched file must have kept for its tags to carry over: the identity of its
// bytes (size, mtime, source inode: a change the mount made itself, a chmod), or its whole
// version (ctime too: a change seen from outside, whose bytes nothing vouches for, e.g. a rewrite
// that put its mtime back).
// `root_fd`: a kept descriptor of the directory `current` serves (analysis::rescan_paths), or -1.
enum class TagsCarriedIf : uint8_t { SameBytes, SameVersion };
std::shared_ptr<const Snapshot> patch_snapshot(const Snapshot& current,
                                               std::span<const std::string> touched,
                                               std::span<const PathMove> moves,
                                               uint64_t skip_device,
                                               std::vector<uint32_t>& origin,
                                               std::vector<uint8_t>& copied,
                                               TagsCarriedIf carry_if = TagsCarriedIf::SameBytes,
                                               int root_fd = -1);

}  // namespace anchorfs::fs
