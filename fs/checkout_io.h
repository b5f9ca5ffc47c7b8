// Changing the checkout safely for a writable mount: beneath the root only, files replaced whole.
#pragma once

#include <time.h>

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

// Creates a private, unnamed file in the directory of `path` (same filesystem, so running out of
// space or permission shows at once); it vanishes when closed or when the process dies. Returns
// the fd (read-write), or -1 with errno set.
int create_stage(int root_fd, const std::string& path);

}  // namespace anchorfs::fs
