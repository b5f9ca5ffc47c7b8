// Which files of a scanned tree are analysed, and reading them safely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/source_tree.h"

namespace anchorfs::analysis {

struct SourceFile {
  std::string path;      // repository-relative
  size_t front_end = 0;  // index into front_ends()
  uint64_t size = 0;     // bytes, as scanned
  size_t entry = 0;      // its index in the scanned tree's entries
};

// Whether a directory (repository-relative path; its entries as listed) is never analysed:
// hidden directories (.git, .tox, .venv, ...), __pycache__, node_modules, site-packages and
// dist-packages below the root, and virtual environments (directories holding pyvenv.cfg).
bool is_excluded_directory_name(std::string_view name);

// Regular files some front end claims, outside excluded directories, sorted by path (bytewise).
std::vector<SourceFile> select_sources(const SourceTree& tree);

struct SourceBytes {
  bool ok = false;
  std::string bytes;
  std::string problem;     // why the file is not analysed, when !ok
  bool too_large = false;  // !ok because it holds more than max_bytes
  uint64_t size = 0;       // its size when too large (as found: it may have grown while read)
};

// Reads root/path beneath the root (no symlink followed anywhere on the way: a directory swapped
// for a link out of the repository since the scan is not entered) and without ever blocking
// (FIFOs, devices): only regular files of at most max_bytes, without NUL bytes, are returned.
inline constexpr size_t kDefaultMaxLineBytes = 256 << 10;

// Files over `max_bytes`, or with a line over `max_line_bytes` (generated data, minified code:
// parsing them costs a syntax node per token and gigabytes), are not analysed.
SourceBytes read_source(const std::string& root, const std::string& path, size_t max_bytes,
                        size_t max_line_bytes = kDefaultMaxLineBytes);

}  // namespace anchorfs::analysis
