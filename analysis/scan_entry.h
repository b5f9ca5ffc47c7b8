// Internal to the tree scans (scan.cpp, rescan_paths.cpp): reading one directory level with
// lstat semantics.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "analysis/source_tree.h"

namespace anchorfs::analysis {

inline constexpr int kListFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;

// `entry`'s attributes from an lstat.
void fill_from_stat(TreeEntry& entry, const struct stat& st);

// The names of one directory, read with getdents64 into one buffer (no allocation per name, and
// none per directory once the buffer has grown), sorted bytewise; each NUL-terminated in place.
// Reuse one for many directories.
class DirectoryNames {
 public:
  // Reads the directory `fd` (left open) in full, replacing the names held; false with `error`
  // set when it cannot (the names read until then are kept).
  bool read(int fd, std::string& error);
  const std::vector<const char*>& names() const { return names_; }

 private:
  std::vector<char> buffer_;
  std::vector<const char*> names_;
};

// Names in the directory `fd` (taken over and closed), sorted bytewise; false with `error` set
// when it cannot be read in full.
bool list_names(int fd, std::vector<std::string>& names, std::string& error);

// Fills `entry` (its path already set) from `name` in the directory `dir_fd`, never following a
// symlink (its target is read instead). 0, or the errno with `problem` saying what failed.
int read_entry(int dir_fd, const char* name, TreeEntry& entry, std::string& problem);
inline int read_entry(int dir_fd, const std::string& name, TreeEntry& entry,
                      std::string& problem) {
  return read_entry(dir_fd, name.c_str(), entry, problem);
}

}  // namespace anchorfs::analysis
