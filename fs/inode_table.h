// The kernel's side of inode numbers: lookup counts, and old file versions still in its hands.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/source_tree.h"
#include "fs/file_layout.h"
#include "fs/generation.h"
#include "sync/mutex.h"

namespace anchorfs::fs {

// A file version the current generation no longer has but the kernel still knows (a reader may
// hold it open): served exactly as the kernel was told about it (size, attributes, tags), so its
// cached size and any page it re-fetches agree. Holds only this file's entry and layout, not its
// whole snapshot. Immutable.
struct RetiredFile {
  analysis::TreeEntry entry;
  std::shared_ptr<const FileLayout> layout;
  std::shared_ptr<const std::string> content;  // for a file served from memory, else null
};

// Owns the current generation and the kernel's lookup count of every inode number it was given.
// Memory stays bounded by what the kernel holds: a count disappears when the kernel forgets the
// inode, and a retired file with it.
// Thread-safety: every member is thread-safe; current() is lock-free, the rest take one mutex.
class InodeTable {
 public:
  explicit InodeTable(std::shared_ptr<const Generation> first);

  // The generation new requests are served from.
  std::shared_ptr<const Generation> current() const { return generation_.load(); }

  // Makes `next` current. Of the inodes the old generation had and `next` has not
  // (`changed.dropped`), every non-directory the kernel still knows is retired. `changed` (what
  // diff_generations lists from the current generation to `next`) loses what the kernel cannot
  // hold (see trim_locked). Call with the old generation current.
  void swap(std::shared_ptr<const Generation> next, Invalidations& changed);

  // The kernel is about to be given the listing of directory `inode` (readdir): the next swap
  // that changes the listing drops it. Call before reading the generation the listing is of.
  void listed(uint64_t inode);

  // Counts one kernel lookup of each of `entries` of `served` (a lookup or readdirplus reply
  // about to be sent: call before replying). `served` may have been replaced meanwhile; a file
  // it names that the current generation lacks is then retired here, so no reply can name an
  // inode that later answers ESTALE.
  void remember(const Generation& served, std::span<const uint32_t> entries);

  // The kernel dropped `count` lookups of `inode` (FUSE forget). Returns true when it no longer
  // knows the inode at all.
  bool forget(uint64_t inode, uint64_t count);

  // Bytes of `inode`'s version are about to go to the kernel (a first read or open of it): from
  // now on that version is the only one it may serve.
  void mark_served(uint64_t inode);

  // Retired `inode`, whose version `was` is no longer in the checkout, serves `now` (the checkout's
  // file at its path) instead, provided the kernel was never given a byte of `was`: nothing it
  // holds can then mix with `now`. Returns whether `inode` serves a version other than `was` on
  // return (this call's or an earlier one's); false when it must keep `was` or is not retired.
  bool follow(uint64_t inode, const analysis::TreeEntry& was, std::shared_ptr<const RetiredFile> now);

  // The old version `inode` still serves, or null.
  std::shared_ptr<const RetiredFile> retired(uint64_t inode) const;

  size_t known_inodes() const;    // inode numbers with a lookup count
  size_t retired_inodes() const;  // old file versions kept for the kernel

 private:
  // Retires entry `index` of `generation` if it is a file version.
  void retire_locked(const Generation& generation, uint32_t index) REQUIRES(mutex_);
  // Leaves out of `changed` (from `previous` to `next`) what the kernel cannot hold: a
  // listing it was not given since the last change (a writable mount changes a directory per
  // request, and a dropped listing costs the kernel its attributes too), and the name of a git
  // index it has forgotten.
  void trim_locked(const Generation& previous, const Generation& next, Invalidations& changed)
      REQUIRES(mutex_);

  mutable sync::Mutex mutex_;
  // Loaded without the lock (current()); stored with mutex_ held.
  std::atomic<std::shared_ptr<const Generation>> generation_;
  std::unordered_map<uint64_t, uint64_t> lookups_ GUARDED_BY(mutex_);
  std::unordered_map<uint64_t, std::shared_ptr<const RetiredFile>> retired_ GUARDED_BY(mutex_);
  std::unordered_set<uint64_t> listed_ GUARDED_BY(mutex_);  // directories listed since changed
  std::unordered_set<uint64_t> served_ GUARDED_BY(mutex_);  // files whose bytes the kernel got
};

}  // namespace anchorfs::fs
