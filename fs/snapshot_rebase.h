// The tree as it is now, keeping the tags of every file whose bytes did not change.
#pragma once

#include <memory>
#include <span>

#include "analysis/source_tree.h"
#include "fs/generation.h"
#include "fs/snapshot.h"

namespace anchorfs::fs {

// A snapshot of `fresh` (a scan taken after `current`) in which a regular file keeps its layout
// from `current` when its source identity (size, mtime, source inode) is unchanged, following
// `moves` (renames since `current`); every other file is served untagged until the analysis
// catches up. No analysis runs: this is what a writable mount publishes after each change it
// makes, in the time of one scan.
std::shared_ptr<const Snapshot> rebase_snapshot(const Snapshot& current, analysis::SourceTree fresh,
                                                std::span<const PathMove> moves = {});

}  // namespace anchorfs::fs
