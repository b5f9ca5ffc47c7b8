// Writable mounts: the helpers the request handlers share (fs/write_support.h).
#include "fs/write_support.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "fs/checkout_io.h"
#include "fs/store.h"

namespace anchorfs::fs {

void reply_error(fuse_req_t req, int error) {
  fuse_reply_err(req, error);
}

uint64_t file_size(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

int directory_path(const ServerState& state, fuse_ino_t ino, std::string& path) {
  auto generation = state.current();
  std::optional<uint32_t> index = generation->entry(ino);
  if (!index) return ESTALE;
  const analysis::TreeEntry& entry = generation->snapshot().entry(*index);
  if (!S_ISDIR(entry.mode)) return ENOTDIR;
  path = entry.path;
  return 0;
}

void give_to_caller(fuse_req_t req, int dir_fd, const char* name) {
  if (::geteuid() != 0) return;
  const fuse_ctx* caller = fuse_req_ctx(req);
  if (caller->uid == 0 && caller->gid == 0) return;
  ::fchownat(dir_fd, name, caller->uid, caller->gid, AT_SYMLINK_NOFOLLOW);
}

void adopt_change(ServerState& state, const std::string& path, const struct stat& before,
                  const struct stat& after, const timespec* times) {
  for (const std::shared_ptr<OpenFile>& file : state.open_files.staged_at(path)) {
    const sync::MutexLock lock(file->mutex);
    if (file->version == version_of(before)) file->version = version_of(after);
    // The times a writer sets (utimensat, cp -p) are the stored file's: the store takes the stage's.
    if (times != nullptr) ::futimens(file->fd, times);
  }
}

int make_room(ServerState& state, uint64_t handle, OpenFile& file, uint64_t size) {
  if (file.memory_stages == nullptr || size <= kMemoryStageBytes) return 0;
  // Beside the file it is stored as; at the root when that name is gone (stored nowhere then).
  const std::string beside = state.open_files.target(handle).value_or("stage");
  if (const int error = spill_stage(state.root()->fd, beside, file.fd); error != 0) return error;
  file.memory_stages->fetch_sub(1);
  file.memory_stages = nullptr;
  return 0;
}

namespace {

std::pair<uint64_t, std::string> name_of_entry(const Generation& generation, uint32_t index) {
  const analysis::TreeEntry& entry = generation.snapshot().entry(index);
  const uint32_t parent = entry.parent == analysis::kNoParent ? 0 : entry.parent;
  return {generation.inode(parent), std::string(generation.snapshot().name(index))};
}

}  // namespace

void keep_made_name(Invalidations& changed, const Generation& generation, uint32_t index) {
  if (index == 0) return;
  const std::pair<uint64_t, std::string> name = name_of_entry(generation, index);
  const auto found = std::lower_bound(changed.names.begin(), changed.names.end(), name);
  if (found != changed.names.end() && *found == name) changed.names.erase(found);
}

void made_name_not_replied(ServerState& state, const Generation& generation, uint32_t index) {
  if (index == 0) return;
  Invalidations changed;
  changed.names.push_back(name_of_entry(generation, index));
  changed.attributes.push_back(changed.names.back().first);  // left to a reply it never got
  queue_notification(state, std::move(changed));
}

void reply_entry_at(fuse_req_t req, ServerState& state, const std::string& path) {
  auto [generation, changed] = rescan(state, std::span<const std::string>(&path, 1));
  std::optional<uint32_t> index = generation->snapshot().find(path);
  if (index) keep_made_name(changed, *generation, *index);
  queue_notification(state, std::move(changed));
  if (!index) return reply_error(req, ENOENT);
  const fuse_entry_param e = entry_param(*generation, *index);
  state.inodes.remember(*generation, std::span<const uint32_t>(&*index, 1));
  if (fuse_reply_entry(req, &e) != 0) {
    state.inodes.forget(e.ino, 1);
    made_name_not_replied(state, *generation, *index);
  }
}

void reply_done(fuse_req_t req, ServerState& state, std::span<const std::string> touched,
                std::span<const PathMove> moves) {
  auto [generation, changed] = rescan(state, touched, moves);
  queue_notification(state, std::move(changed));
  fuse_reply_err(req, 0);
}

}  // namespace anchorfs::fs
