// Writable mounts: the handlers that make, link, remove and rename names in the checkout (a file
// created is opened for its writer at once, fs/write_files.cpp).
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/unique_fd.h"
#include "fs/checkout_io.h"
#include "fs/git_view.h"
#include "fs/handlers.h"
#include "fs/source_file.h"
#include "fs/store.h"
#include "fs/write_support.h"

namespace anchorfs::fs {

void op_create(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode,
               fuse_file_info* fi) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  const std::string path = join_path(dir, name);
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0) return reply_error(req, errno);
  const int created =
      ::openat(dir_fd.get(), name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, mode);
  const bool existed = created < 0 && errno == EEXIST && (fi->flags & O_EXCL) == 0;
  if (created < 0 && !existed) return reply_error(req, errno);
  if (created >= 0) {
    // The kernel applied the caller's umask to `mode` already; the daemon's must not apply again.
    ::fchmod(created, mode & 07777);
    give_to_caller(req, dir_fd.get(), name);
    ::close(created);
  }
  auto [generation, changed] = rescan(state, std::span<const std::string>(&path, 1));
  std::optional<uint32_t> index = generation->snapshot().find(path);
  if (index) {
    keep_made_name(changed, *generation, *index);
    leave_to_kernel(changed, parent);
  }
  queue_notification(state, std::move(changed));
  if (!index) return reply_error(req, ENOENT);
  const fuse_entry_param e = entry_param(*generation, *index);
  const Served served = served_entry(generation, *index);
  if (served.serving != Serving::Checkout && served.serving != Serving::LaidOut) {
    return reply_error(req, EEXIST);
  }
  // A new file is staged too: what a writer copies into it (a tagged view) must not reach the
  // checkout with its tags.
  const int flags = created >= 0 ? (fi->flags | O_TRUNC) : fi->flags;
  if (const int error = open_handle(created >= 0 ? nullptr : req, state, served, e.ino, flags, fi);
      error != 0) {
    return reply_error(req, error);
  }
  if (created >= 0) {
    // Created empty: nothing to store unless written.
    if (auto file = state.open_files.find(fi->fh)) {
      const sync::MutexLock lock(file->mutex);
      file->dirty = false;
      file->created = true;
    }
  }
  state.inodes.remember(*generation, std::span<const uint32_t>(&*index, 1));
  if (fuse_reply_create(req, &e, fi) != 0) {
    state.inodes.forget(e.ino, 1);
    made_name_not_replied(state, *generation, *index);
    state.open_files.remove(fi->fh);
  }
}

void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  // `git worktree add` from the mount would record the mount's paths in the repository (and in
  // the new worktree's .git file), which break once it is unmounted: refused, git says so.
  if (join_path(dir, name) == ".git/worktrees" || dir == ".git/worktrees") {
    return reply_error(req, EPERM);
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0 || ::mkdirat(dir_fd.get(), name, mode) != 0) {
    return reply_error(req, errno);
  }
  {
    UniqueFd made(::openat(dir_fd.get(), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (made.get() >= 0) ::fchmod(made.get(), mode & 07777);
  }
  give_to_caller(req, dir_fd.get(), name);
  reply_entry_at(req, state, join_path(dir, name));
}

void op_mknod(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode, dev_t rdev) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0 || ::mknodat(dir_fd.get(), name, mode, rdev) != 0) {
    return reply_error(req, errno);
  }
  give_to_caller(req, dir_fd.get(), name);
  reply_entry_at(req, state, join_path(dir, name));
}

void op_symlink(fuse_req_t req, const char* target, fuse_ino_t parent, const char* name) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0 || ::symlinkat(target, dir_fd.get(), name) != 0) {
    return reply_error(req, errno);
  }
  give_to_caller(req, dir_fd.get(), name);
  reply_entry_at(req, state, join_path(dir, name));
}

void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t new_parent, const char* new_name) {
  ServerState& state = state_of(req);
  std::optional<Served> served = resolve(state, ino);
  if (!served) return reply_error(req, ESTALE);
  std::string new_dir;
  if (const int error = directory_path(state, new_parent, new_dir); error != 0) {
    return reply_error(req, error);
  }
  const auto [old_dir, old_name] = split_path(served->entry->path);
  UniqueFd old_dir_fd(open_dir_beneath(state.root()->fd, old_dir));
  UniqueFd new_dir_fd(open_dir_beneath(state.root()->fd, new_dir));
  if (old_dir_fd.get() < 0 || new_dir_fd.get() < 0 ||
      ::linkat(old_dir_fd.get(), old_name.c_str(), new_dir_fd.get(), new_name, 0) != 0) {
    return reply_error(req, errno);
  }
  reply_entry_at(req, state, join_path(new_dir, new_name));
}

namespace {

void remove_entry(fuse_req_t req, fuse_ino_t parent, const char* name, int flags) {
  ServerState& state = state_of(req);
  std::string dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  if (dir_fd.get() < 0 || ::unlinkat(dir_fd.get(), name, flags) != 0) {
    return reply_error(req, errno);
  }
  const std::string path = join_path(dir, name);
  state.open_files.removed(path);
  auto [generation, changed] = rescan(state, std::span<const std::string>(&path, 1));
  leave_to_kernel(changed, parent, name);
  if (fuse_reply_err(req, 0) != 0) {
    // Not told of its success, the kernel keeps the directory's attributes: drop them after all.
    changed.attributes.push_back(parent);
  }
  queue_notification(state, std::move(changed));
}

}  // namespace

void op_unlink(fuse_req_t req, fuse_ino_t parent, const char* name) {
  remove_entry(req, parent, name, 0);
}

void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char* name) {
  remove_entry(req, parent, name, AT_REMOVEDIR);
}

namespace {

// A file renamed over one of the view's .git overlays (git's `index.lock` or `config.lock`)
// first gets the bytes the checkout must hold (fs/git_view.h): stat data of the checkout's own
// files, no filter lines of the view. Returns 0 or the errno of reading or replacing it.
int prepare_overlay_replacement(const ServerState& state, const std::string& from,
                                const std::string& to) {
  const std::shared_ptr<const Generation> generation = state.current();
  const Snapshot& snapshot = generation->snapshot();
  const std::optional<uint32_t> target = snapshot.find(to);
  if (!target || !snapshot.content(*target)) return 0;
  UniqueFd fd(open_beneath(state.root()->fd, from, O_RDONLY | O_NOFOLLOW));
  if (fd.get() < 0) return errno;
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return errno;
  if (!S_ISREG(st.st_mode)) return 0;
  std::string written(static_cast<size_t>(st.st_size), '\0');
  const ssize_t n = pread_fully(fd.get(), written.data(), written.size(), 0);
  if (n < 0) return errno;
  written.resize(static_cast<size_t>(n));
  std::optional<std::string> stored = checkout_bytes_of_overlay(snapshot, to, written);
  if (!stored || *stored == written) return 0;
  return replace_file(state.root()->fd, from, *stored);
}

}  // namespace

void op_rename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t new_parent,
               const char* new_name, unsigned flags) {
  ServerState& state = state_of(req);
  std::string dir;
  std::string new_dir;
  if (const int error = directory_path(state, parent, dir); error != 0) {
    return reply_error(req, error);
  }
  if (const int error = directory_path(state, new_parent, new_dir); error != 0) {
    return reply_error(req, error);
  }
  const std::string from = join_path(dir, name);
  const std::string to = join_path(new_dir, new_name);
  if ((flags & RENAME_EXCHANGE) == 0) {
    if (const int error = prepare_overlay_replacement(state, from, to); error != 0) {
      return reply_error(req, error);
    }
    if (const std::optional<render::FileVersion> made = state.open_files.new_file(from)) {
      if (const int error = untag_for_rename(state, from, to, *made); error != 0) {
        return reply_error(req, error);
      }
    }
  }
  UniqueFd dir_fd(open_dir_beneath(state.root()->fd, dir));
  UniqueFd new_dir_fd(open_dir_beneath(state.root()->fd, new_dir));
  if (dir_fd.get() < 0 || new_dir_fd.get() < 0 ||
      ::renameat2(dir_fd.get(), name, new_dir_fd.get(), new_name, flags) != 0) {
    return reply_error(req, errno);
  }
  std::vector<PathMove> moves{{from, to}};
  if ((flags & RENAME_EXCHANGE) != 0) {
    moves.push_back({to, from});
    // Swap the two names of open files through a name no path can have.
    const std::string parked(1, '\0');
    state.open_files.renamed(to, parked);
    state.open_files.renamed(from, to);
    state.open_files.renamed(parked, from);
  } else {
    state.open_files.renamed(from, to);
  }
  reply_done(req, state, {}, moves);
}

}  // namespace anchorfs::fs
