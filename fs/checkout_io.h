// Changing the checkout safely for a writable mount: beneath the root only, files replaced whole.
#pragma once

#include <sys/stat.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace anchorfs::fs {

// "dir/sub/name" -> {"dir/sub", "name"}; "name" -> {"", "name"}.
std::pair<std::string, std::string> split_path(const std::string& path);

// A path below a directory: join("", "a") == "a", join("d", "a") == "d/a".
std::string join_path(const std::string& dir, std::string_view name);

// An O_PATH descriptor of the directory `dir` beneath `root_fd` (no symlink on the way), or -1
// with errno set.
int open_dir_beneath(int root_fd, const std::string& dir);

// Replaces the regular file `path` beneath `root_fd` with `bytes`, atomically: the bytes go to an
// unnamed temporary file in the same directory, which gets the old file's mode and owner, is
// synced, named, then renamed over `path`. A crash at any point leaves the old file or the new
// one, never a partial file. Returns 0, or the errno of the step that failed (ENOSPC, EACCES, ...;
// ENOENT when `path` no longer exists, which is left alone).
// With `mtime`, the new file carries that modification time (a stage's: the writer's last write,
// which is what the mount reported while the writer held the file) instead of the copy's.
int replace_file(int root_fd, const std::string& path, std::string_view bytes,
                 const timespec* mtime = nullptr);

// How a file is replaced by replace_file_with().
struct Replacement {
  // Writes the new bytes into `fd` (an empty file); returns 0 or an errno.
  std::function<int(int fd)> fill;
  // The access and modification times to give the new file (null: the copy's own).
  const timespec* atime = nullptr;
  const timespec* mtime = nullptr;
  // The version the caller decided from: if the file at `path` is no longer it when the new one
  // is about to be renamed over it, nothing is replaced and ESTALE returned.
  const struct stat* expected = nullptr;
};
// replace_file with the bytes written by a callback; the old file's extended attributes are
// copied too (those the daemon may set: failing user.* attributes fail the replacement).
int replace_file_with(int root_fd, const std::string& path, const Replacement& replacement);

// Writes `bytes` at `offset` of `fd`, retrying short writes. Returns 0 or an errno.
int write_at(int fd, std::string_view bytes, uint64_t offset);

// The identity of a file version (render::FileVersion fields) from its stat.
bool same_version(const struct stat& a, const struct stat& b);

// Creates a private, unnamed file in the directory of `path` (same filesystem, so running out of
// space or permission shows at once); it vanishes when closed or when the process dies. Returns
// the fd (read-write), or -1 with errno set.
int create_stage(int root_fd, const std::string& path);

// A stage for a writer of a file the mount just created is kept in memory while it is small: an
// O_TMPFILE costs the checkout's filesystem an inode allocated and freed per written file, which a
// branch switch pays hundreds of times. Past this size it moves to an O_TMPFILE beside the target
// (spill_stage); at most kMemoryStagesMax are in memory at once.
inline constexpr uint64_t kMemoryStageBytes = 256 * 1024;
inline constexpr uint32_t kMemoryStagesMax = 64;

// A stage for a file just created (it starts empty): in memory when fewer than kMemoryStagesMax
// are (counted in `stages`; `in_memory` says so, and the caller uncounts it when done), else
// create_stage's. Returns the fd (read-write), or -1 with errno set.
int create_empty_stage(std::atomic<uint32_t>& stages, int root_fd, const std::string& path,
                       bool& in_memory);

// Moves the in-memory stage `fd` to an O_TMPFILE beside `path` (create_stage), keeping its
// descriptor number (readers of it never see a closed descriptor), bytes and times. Returns 0 or
// an errno.
int spill_stage(int root_fd, const std::string& path, int fd);

}  // namespace anchorfs::fs
