// The files a writable mount has open for writing: each open's target path and what it writes to.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "render/untag.h"
#include "sync/mutex.h"

namespace anchorfs::fs {

// One open for writing. A tagged file is written through a private stage holding the view bytes
// the writer opened (or nothing, after O_TRUNC); closing, flushing or syncing it stores the stage
// with every tag block removed in the checkout, atomically. Any other file is written in place.
struct OpenFile {
  enum class Kind { InPlace, Staged };
  OpenFile(Kind file_kind, uint64_t file_inode, int file_fd, bool file_append)
      : kind(file_kind), inode(file_inode), fd(file_fd), append(file_append) {}
  ~OpenFile();
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;

  const Kind kind;
  const uint64_t inode;  // the inode number the kernel opened
  const int fd;          // in place: the checkout file; staged: the stage
  const bool append;     // O_APPEND: every write goes to the end
  // Serialises writes with storing the stage (a commit reads the whole stage).
  sync::Mutex mutex;
  // Written since last stored (staged) or since the mount last rescanned (in place).
  bool dirty GUARDED_BY(mutex) = false;

  // Staged files: the provenance of what the writer holds (render/untag.h). `plan` applied to
  // the checkout file at `version` is what the writer was served (what a reader of the path got,
  // also for a writer that truncated it at open); each store checks the checkout is still that
  // version, then moves both on to the stored file.
  render::TagPlan plan GUARDED_BY(mutex);
  std::optional<render::FileVersion> version GUARDED_BY(mutex);
  // Opened with O_TRUNC: the writer's file did not start as the served bytes (StoreInput::rewritten).
  bool rewritten GUARDED_BY(mutex) = false;
  // O_APPEND: the stage's bytes from here on are appends not stored yet.
  std::optional<uint64_t> appended_from GUARDED_BY(mutex);
  // Created through the mount (op_create): its stores are remembered for a rename over a
  // tagged file (OpenFiles::stored_new).
  bool created GUARDED_BY(mutex) = false;
  // An append was stored after what others appended: the stage no longer maps onto the
  // checkout, so only appends can be stored from now on.
  bool provenance_lost GUARDED_BY(mutex) = false;
  // A stage kept in memory (fs/checkout_io.h, create_empty_stage): the count it is included in,
  // until it is spilled to an O_TMPFILE or closed. Null for every other file.
  std::atomic<uint32_t>* memory_stages GUARDED_BY(mutex) = nullptr;
};

// Thread-safety: every member is thread-safe.
class OpenFiles {
 public:
  // Registers `file` for the repository-relative `path`; returns its handle (never 0).
  uint64_t add(std::shared_ptr<OpenFile> file, std::string path);
  std::shared_ptr<OpenFile> find(uint64_t handle) const;
  void remove(uint64_t handle);

  // Where a staged file is stored now: its path, followed through renames, or nullopt when the
  // path was removed or renamed over since (the writes then go nowhere, as on a local
  // filesystem once the file is unlinked).
  std::optional<std::string> target(uint64_t handle) const;

  // The size of the most recently written stage of `inode`, if a writer has one open.
  std::optional<uint64_t> staged_size(uint64_t inode) const;
  // That stage itself (its descriptor's times are the file's while it is being written).
  std::shared_ptr<OpenFile> latest_stage(uint64_t inode) const;
  // Records that the stage of `handle` now holds `size` bytes.
  void staged_written(uint64_t handle, uint64_t size);

  // The checkout changed through the mount: `from` (and all below) moved to `to`; whatever
  // was open at `to` lost its name.
  void renamed(const std::string& from, const std::string& to);
  void removed(const std::string& path);

  // Files created and stored through the mount, by path, with the version stored: a rename of
  // one over a tagged file (sed -i, an editor's temp + rename) aligns it with that file's view.
  void stored_new(const std::string& path, const render::FileVersion& version);
  std::optional<render::FileVersion> new_file(const std::string& path) const;

  // The staged files open at `path` now (to move their versions on after a change made through
  // the mount: chmod, utimensat, setxattr).
  std::vector<std::shared_ptr<OpenFile>> staged_at(const std::string& path) const;

 private:
  struct Entry {
    std::shared_ptr<OpenFile> file;
    std::optional<std::string> path;
    uint64_t staged_size = 0;
    uint64_t written_at = 0;  // order of the last write, for staged_size()
  };
  const Entry* latest_stage_entry(uint64_t inode) const REQUIRES(mutex_);
  mutable sync::Mutex mutex_;
  uint64_t next_handle_ GUARDED_BY(mutex_) = 1;
  uint64_t writes_ GUARDED_BY(mutex_) = 0;
  size_t staged_ GUARDED_BY(mutex_) = 0;
  std::unordered_map<uint64_t, Entry> entries_ GUARDED_BY(mutex_);
  std::unordered_map<std::string, render::FileVersion> new_files_ GUARDED_BY(mutex_);
};

}  // namespace anchorfs::fs
