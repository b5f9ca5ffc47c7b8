// The `.git` a view serves: the checkout's repository, seen with the view's eyes
// (docs/filesystem.md).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/source_tree.h"
#include "fs/snapshot.h"

namespace anchorfs::fs {

struct GitViewOptions {
  // Shell command git runs as the long-running clean filter of tagged files
  // (filter.anchorfs.process); "" configures no filter.
  std::string filter_command;
  // gitattributes patterns of the files that go through it (e.g. "*.py").
  std::vector<std::string> filter_patterns;
  // Read-only mounts: index entries whose file is unchanged since git recorded it are served
  // "assume unchanged", so `git grep` searches the indexed blob (the checkout's bytes) instead of
  // the tagged view. Never in a writable mount, whose git writes the index back.
  bool assume_unchanged = false;
};

// Where the checkout's repository lives: `gitdir` holds the per-worktree files (HEAD, index),
// `common` everything shared (objects, refs, config). Both absolute and canonical; equal for an
// ordinary repository, different for a linked worktree (whose `.git` is a "gitdir:" file).
struct GitDirs {
  std::string gitdir;
  std::string common;
};

// The repository of the checkout at `root` (its `.git` directory or file), or nullopt when there
// is none or it cannot be read.
std::optional<GitDirs> locate_git_dirs(const std::string& root);

// Replaces the `.git` of `tree` (directory or file) with the view's own `.git` directory:
// - HEAD (the worktree's) and index: copies of the checkout's, served from memory (the index is
//   translated per generation: see served_git_index);
// - config and info/attributes: the checkout's bytes plus the clean filter of `options`;
// - everything else (objects, refs, logs, hooks, packed-refs, ...): symlinks to the real files,
//   so git reads packs at native speed and what it writes there lands in the real repository.
// For a linked worktree the shared items come from the common directory and the rest from the
// worktree's own. Every repository nested in the tree (its own `sub/.git` directory, or a
// submodule's git directory inside the tree's repository files) gets the same config,
// info/attributes and index overlays (docs/filesystem.md). Nothing in the real
// repository is written. Returns the in-memory files (none when the tree has no usable
// repository, which is then left as scanned). Entries may be added, so indices move.
VirtualFiles graft_git_view(analysis::SourceTree& tree, const GitViewOptions& options);

// Whether `path` lies in a repository's own files (a component named `.git`, at any depth: the
// top repository's, a submodule's under `.git/modules`, a nested one's): no analysis reads them.
bool inside_git_dir(std::string_view path);

// Whether `path` matches one of `options`' filter patterns ("*.ext" or "/exact/path"): a file
// git in the view reads through the clean filter, one the view may tag.
bool filter_covers(const GitViewOptions& options, std::string_view path);

// The checkout's index (`checkout_index`) of the repository whose worktree is `worktree` in the
// tree ("" for the top one, "lib" for a submodule at lib/) as a view serves it: every entry whose
// recorded stat still matches its file in `snapshot` (so git would trust it in the checkout) gets
// the size and
// inode number the view reports (`inode_of` an entry), so git in the view trusts it too and never
// re-reads the file. Other entries, and indexes that cannot be rewritten, keep the checkout's
// bytes: git then re-reads those files through the clean filter, which is slower but still right.
// In a snapshot awaiting analysis, a file the filter covers and the snapshot serves untagged gets
// size 0: it may be re-tagged between git's read of the index and its lstat of the file, and a
// recorded size that differs from the file's makes git call it modified without reading it,
// where a size of 0 makes git compare its bytes (git status, diff, add; a forced
// `git checkout -- FILE` does not: it replaces the file, so only a change to what the analysis
// reads makes a snapshot await it, never git's own writes: fs/snapshot_rebase.h). Not while the
// repository's `index.lock` exists (`locked`): git holds it across its whole read of the index
// and lstats (checkout, add, commit, stash, reset), and the mount publishes no re-tag meanwhile
// (Server::replace_snapshot), so the sizes as served stay the ones git finds; `git status`
// reads the index before it takes the lock. So does a file `renumbered` says the kernel may
// still know under its previous inode number: until the swap's invalidations reach the kernel, an
// lstat through its cached name reports the old number's size, while git has already read this
// index.
std::shared_ptr<const std::string> served_git_index(
    const Snapshot& snapshot, const std::string& checkout_index, std::string_view worktree,
    const std::function<uint64_t(uint32_t)>& inode_of,
    const std::function<bool(uint32_t)>& renumbered, bool locked);

// Whether git holds the lock of the git index at entry `index` (`index.lock` beside it): in
// `snapshot`, or in the checkout now. A generation's index is translated at its first read, and
// git may reach the generation before its lock's (whose invalidation of the index's name is
// queued behind the create that holds the directory).
bool git_index_locked(const Snapshot& snapshot, uint32_t index);

// Writable mounts: what the checkout must hold when `written` replaces the view's overlay at
// `path` (git renames a finished `index.lock` or `config.lock` over it). An index (the top
// repository's, a nested one's or a submodule's): an entry git left as the mount served it (the
// checkout index's record, times and owner to the nanosecond) becomes that record again, and
// every other entry whose file still has the times and owner git recorded gets the checkout's own
// size and inode number back (git took the view's from the mount), so git in the checkout trusts
// it as git in the mount did. Config and
// info/attributes: without the view's filter lines (git copies what it read). nullopt when
// `path` is not an overlay: the bytes are stored as written.
std::optional<std::string> checkout_bytes_of_overlay(const Snapshot& snapshot,
                                                     std::string_view path, std::string written);

}  // namespace anchorfs::fs
