// lstat-level walks, whole-file reads and fingerprints of directory trees, for test assertions.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace anchorfs::testing {

struct Node {
  mode_t mode = 0;
  uint64_t size = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  std::string link_target;  // symlinks only
};

struct Walk {
  std::map<std::string, Node> nodes;           // by repository-relative path (raw bytes)
  std::map<std::string, int> unlistable_dirs;  // relative path -> errno of opendir/readdir
  std::map<std::string, int> unstatable;       // relative path -> errno of lstat
};

// Walks below `root` without following symlinks and without opening anything but directories.
Walk walk_tree(const std::string& root);

struct ReadResult {
  int error = 0;  // errno of open/read; 0 on success
  std::string bytes;
};

// Reads a whole regular file with open/read (O_NONBLOCK so a FIFO swapped in cannot block).
ReadResult read_file(const std::string& path);

// 128-bit digest (hex) of everything a session must leave untouched: names, types, modes,
// owners, sizes, mtimes, ctimes, symlink targets and the bytes of every regular file.
std::string tree_fingerprint(const std::string& root);

// Describes a difference between two byte strings: first differing offset and context.
std::string describe_difference(const std::string& expected, const std::string& actual);

// Printable form of a raw path (non-printable bytes as \xNN).
std::string printable(const std::string& raw);

}  // namespace anchorfs::testing
