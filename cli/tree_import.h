// Taking an edited export back into the checkout by the writable mount's store rule.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cli/export_manifest.h"

namespace anchorfs::cli {

struct ImportReport {
  size_t written = 0;   // files edited in the copy, stored
  size_t created = 0;   // files and symlinks new in the copy
  size_t deleted = 0;   // files, symlinks and directories gone from the copy
  size_t modes = 0;     // permission or time changes alone
  size_t directories = 0;  // directories new in the copy
  std::vector<std::string> changes;  // "M path", "A path", "D path", "m path" (mode, time) in order
  std::vector<std::string> refused;  // "path: why": nothing was written for these
  std::vector<std::string> skipped;  // "path: why": not imported by rule (.git, special files)
};

// Compares the copy at `copy` with what `manifest` says was exported from `repo` (canonical;
// the manifest's repository) and carries every difference into the checkout: an edited file is
// stored as render::untag_written stores a writable mount's writes (a byte is removed only if
// the export wrote it as a tag); a file whose checkout version changed since the export, or a
// path the checkout gained meanwhile, is refused and left alone. Unless `dry_run`, the changes
// are made and `manifest` is updated to describe the copy as it now is against the checkout
// (a later import takes only later edits). Paths with a `.git` component are never imported.
// Throws CliError when the copy or the checkout cannot be read at all.
ImportReport import_tree(Manifest& manifest, const std::string& copy, const std::string& repo,
                         bool dry_run);

}  // namespace anchorfs::cli
