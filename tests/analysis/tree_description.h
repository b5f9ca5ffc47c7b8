// A scanned tree as text: what tests comparing two scans of one directory hold equal.
#pragma once

#include <string>

#include "analysis/source_tree.h"

namespace anchorfs::analysis::test {

// Every field a scan records but the access time (listing a directory may move it), entry by
// entry in the tree's order, the places in the tree (parent, children) included.
inline std::string describe_tree(const SourceTree& tree) {
  std::string out;
  for (const TreeEntry& e : tree.entries) {
    out += e.path + " parent=" + std::to_string(e.parent) + " mode=" + std::to_string(e.mode) +
           " size=" + std::to_string(e.size) + " ino=" + std::to_string(e.inode) +
           " dev=" + std::to_string(e.device) + " nlink=" + std::to_string(e.nlink) +
           " uid=" + std::to_string(e.uid) + " gid=" + std::to_string(e.gid) +
           " mtime=" + std::to_string(e.mtime_ns) + " ctime=" + std::to_string(e.ctime_ns) +
           " link=" + e.symlink_target + " rdev=" + std::to_string(e.rdev) +
           " children=" + std::to_string(e.first_child) + "+" + std::to_string(e.child_count) +
           "\n";
  }
  return out;
}

}  // namespace anchorfs::analysis::test
