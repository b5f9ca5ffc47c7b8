// Writing the tagged tree of a snapshot into a directory: the bytes the mount would serve.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cli/export_manifest.h"
#include "fs/snapshot.h"

namespace anchorfs::cli {

struct ExportReport {
  size_t files = 0;
  size_t tagged = 0;
  size_t directories = 0;
  size_t symlinks = 0;
  std::vector<std::string> skipped;  // "path: why" (special files, vanished or changed files)
  // What was written, entry by entry, and the blocks served (manifest.repo is left to the caller).
  Manifest manifest;
};

// Writes every entry of `snapshot` below `outdir` (which exists): directories, regular files
// with their tagged view, symlinks as symlinks; permission bits and modification times are
// those of the originals. With `replace`, entries already in `outdir` are replaced. A file that
// changed since the analysis is written as it is now, untagged, and reported in `skipped`.
// Every entry written is recorded in the report's manifest: for a file, the checkout version
// read, the plan applied to it and the hash of the bytes written.
// Throws CliError on a write failure.
ExportReport export_tree(const fs::Snapshot& snapshot, const std::string& outdir, bool replace);

}  // namespace anchorfs::cli
