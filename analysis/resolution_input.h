// The one reader of the repository files resolution takes besides sources (Cargo.toml, go.mod,
// tsconfig.json, package.json, setup.cfg, pyproject.toml, ...): every front end reads through it.
#pragma once

#include <cstddef>
#include <string_view>

#include "analysis/source_files.h"

namespace anchorfs::analysis {

// The most bytes of one resolution input that are read: manifests are a few KiB, but a large C
// project's compile_commands.json runs to tens of MiB. A larger one is ignored, as if absent,
// with a warning. The graph cache key hashes inputs to the same bound, so what is ignored is
// ignored for the key too.
inline constexpr size_t kMaxResolutionInputBytes = size_t{64} << 20;

// Reads `path` (repository-relative) of the repository at `root` (absolute) as read_source does:
// opened beneath the root with no symlink anywhere on the way (a manifest that is a symlink, or
// lies under one, is not read: nothing outside the repository influences tags), non-blocking (a
// FIFO cannot hang analysis), regular files only (never /dev/zero), at most
// kMaxResolutionInputBytes. A file over the bound prints one warning on stderr (once per process
// for each path and size): `anchorfs: warning: PATH: N bytes, over the 64 MiB bound of
// resolution inputs; ignored`. !ok: absent, refused or ignored, and why (`problem`).
SourceBytes read_resolution_input(std::string_view root, std::string_view path);

}  // namespace anchorfs::analysis
