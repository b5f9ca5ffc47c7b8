// The lstat-level listing of a repository: the input of analysis and of the filesystem snapshot.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::analysis {

inline constexpr uint32_t kNoParent = UINT32_MAX;

// One directory entry as lstat saw it during the scan. Symlinks are never followed.
struct TreeEntry {
  std::string path;            // repository-relative, '/'-separated, raw bytes; "" for the root
  uint32_t parent = kNoParent; // index of the containing directory entry
  mode_t mode = 0;             // file type and permission bits
  uint64_t size = 0;
  uint64_t inode = 0;          // the source inode (identity across rescans)
  uint64_t device = 0;         // st_dev: with `inode`, which file this is
  uint32_t nlink = 1;
  uid_t uid = 0;
  gid_t gid = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  int64_t atime_ns = 0;
  std::string symlink_target;  // for symlinks only
  uint64_t rdev = 0;           // device nodes: st_rdev (0 for everything else)
  uint32_t first_child = 0;    // directories: children are entries[first_child, +child_count)
  uint32_t child_count = 0;
};

// Something the scan could not list, and why (unreadable directory, vanished entry, ...).
struct ScanProblem {
  std::string path;
  std::string reason;
};

struct SourceTree {
  std::string root;                // absolute, canonical path of the repository
  std::vector<TreeEntry> entries;  // entries[0] is the root; every parent precedes its children;
                                   // a directory's children are contiguous, sorted by name
                                   // (bytewise)
  std::vector<ScanProblem> problems;
};

struct ScanOptions {
  // Directories on this device (st_dev; 0: none) are listed but not entered: the mount serving
  // the tree, should it be reachable from inside it (a bind mount with shared propagation).
  uint64_t skip_device = 0;
  // Called with each directory's path and an open descriptor of it after opening it and before
  // listing it: a watcher placed here sees every change the listing (and the stat of each entry)
  // may have missed. Called from the walking threads, several at once when `threads` > 1.
  std::function<void(const std::string& path, int dir_fd)> on_directory = nullptr;
  // How many threads list directories at once (0: one per core); the tree is the same for any
  // count.
  size_t threads = 1;
};

// The entry at repository-relative `path` ("" is the root), found through the sorted children
// of each directory on the way; null when there is none.
const TreeEntry* find_entry(const SourceTree& tree, std::string_view path);

// Lists every entry below `root` (which must be a directory). Never follows symlinks, never
// opens anything but directories (each relative to its parent's run, so depth is limited only by
// the kernel), never blocks on FIFOs or devices.
SourceTree scan_tree(const std::string& root, const ScanOptions& options = {});

}  // namespace anchorfs::analysis
