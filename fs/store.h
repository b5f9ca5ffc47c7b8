// Writable mounts: storing a writer's stage in the checkout by the store rule (render/untag.h).
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "analysis/source_tree.h"
#include "fs/open_files.h"
#include "fs/server_state.h"
#include "render/untag.h"

namespace anchorfs::fs {

render::FileVersion version_of(const struct stat& st);
// `st` is the version of the file the scan recorded as `entry` (the one its tags were made for).
bool is_scanned_version(const analysis::TreeEntry& entry, const struct stat& st);

// An open was served `served` (a file read from the checkout, tagged or not): remembered, so a
// store made from it is aligned with it even after a refresh re-tagged the file, and the next
// writer of the path is given the same view while the file is that version (ServedLayouts).
void remember_served(ServerState& state, const Served& served);

// The view a writer of `served` is given when the checkout file is `st` now: the one the last
// open of the path was handed, if that was of this version (a re-tag published since, which
// nobody read, must not move what offsets a reader took from its view name: fuzz seed 157);
// else `served`'s tagged view if the file is the version it was made for. Null: the file as it
// is, untagged (`served` is served untagged, or was handed so last); nullopt: `served` is tagged
// but no view was made for this version.
std::optional<std::shared_ptr<const FileLayout>> writer_view(const ServerState& state,
                                                             const Served& served,
                                                             const struct stat& st);

// Fills `file`'s stage for a writer of `served` opened with `flags` and records its provenance:
// the tagged view when the checkout file is still the scanned version, else the file as it is
// (served untagged); an empty stage after O_TRUNC, with the same provenance. Returns 0 or an
// errno.
// `may_open` decides from the stat of the file reached (0 or an errno: the caller's permission).
int fill_stage(ServerState& state, const Served& served, int flags, OpenFile& file,
               const std::function<int(const struct stat&)>& may_open) REQUIRES(file.mutex);

// Stores `file`'s stage at `target` (a repository path): checks the checkout file is the version
// the writer was served (or, for O_APPEND, appends to what it is now), removes exactly what was
// served as tags, and writes the rest: atomically by a rename, or in place when the file has
// other hard links or is empty (nothing to lose: see store.cpp). Returns 0, or ESTALE when the checkout changed under the writer (the writer
// sees it at close or fsync; nothing is written), or the errno of the I/O that failed.
int store_stage(ServerState& state, const std::string& target, OpenFile& file)
    REQUIRES(file.mutex);

// `from`, a file the mount created and stored as `made`, is about to be renamed over `to`: when
// `to` was served tagged at the version it has now, `from`'s bytes were made from that view (the
// current one, or one served before a re-tag: whichever they are closest to), so they are
// aligned with it by the store rule and rewritten. Returns 0 (also when nothing applies)
// or an errno.
int untag_for_rename(const ServerState& state, const std::string& from, const std::string& to,
                     const render::FileVersion& made);

}  // namespace anchorfs::fs
