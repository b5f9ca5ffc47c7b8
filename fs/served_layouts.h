// Writable mounts: the tag layouts the mount served lately, by path and checkout file version.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fs/file_layout.h"
#include "render/untag.h"
#include "sync/mutex.h"

namespace anchorfs::fs {

// A refresh re-tags a file whose bytes did not change (code elsewhere changed its CALLS or
// CALLED_BY): a writer that read the view before the swap holds the old tags. The store aligns
// what it writes with the layout it was served (render::closest_served_plan), and removes blocks
// served to any reader lately, so every layout handed to an open is remembered here, the most
// recent `capacity` of them. Thread-safety: every member is thread-safe.
class ServedLayouts {
 public:
  explicit ServedLayouts(size_t capacity = 64) : capacity_(capacity) {}

  // `layout` (not empty) was served for the checkout file `path` at `version`.
  void record(const std::string& path, const render::FileVersion& version,
              std::shared_ptr<const FileLayout> layout);
  // The layouts served for `path` at `version`, the most recent first.
  std::vector<std::shared_ptr<const FileLayout>> of(const std::string& path,
                                                    const render::FileVersion& version) const;
  // Every layout remembered.
  std::vector<std::shared_ptr<const FileLayout>> all() const;

  // The view the last open of `path` was handed (reader or writer), as a layout or null for
  // the file served untagged, with the checkout version it was made for. A writer is given it
  // when the file is still that version (fs/store.h writer_view): a re-tag published after a
  // read, which nobody read yet, must not move what the reader's offsets name (fuzz seed 157).
  // The last `capacity` * 16 paths are kept.
  void record_last(const std::string& path, const render::FileVersion& version,
                   std::shared_ptr<const FileLayout> layout);
  // nullopt: no open of `path` at `version` is remembered; else its layout (null: untagged).
  std::optional<std::shared_ptr<const FileLayout>> last(const std::string& path,
                                                        const render::FileVersion& version) const;

 private:
  struct Record {
    std::string path;
    render::FileVersion version;
    std::shared_ptr<const FileLayout> layout;
  };
  const size_t capacity_;
  mutable sync::Mutex mutex_;
  std::deque<Record> records_ GUARDED_BY(mutex_);  // the most recent last
  struct Last {
    render::FileVersion version;
    std::shared_ptr<const FileLayout> layout;
    uint64_t stamp = 0;
  };
  std::unordered_map<std::string, Last> last_ GUARDED_BY(mutex_);
  // Paths in the order their last_ entries were made (stamped): the oldest are dropped.
  std::deque<std::pair<std::string, uint64_t>> last_order_ GUARDED_BY(mutex_);
  uint64_t stamps_ GUARDED_BY(mutex_) = 0;
};

}  // namespace anchorfs::fs
