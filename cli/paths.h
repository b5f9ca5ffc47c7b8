// Path helpers for argument checking: canonical paths (tolerating a dead mount), containment.
#pragma once

#include <string>

namespace anchorfs::cli {

// The canonical absolute path of `path` with every directory component resolved but the last
// component kept as named (not followed), so it works on a dead FUSE mountpoint or a symlink.
// Throws CliError when the containing directory cannot be resolved.
std::string canonical_keep_last(const std::string& path);

// The fully resolved canonical path (realpath). Throws CliError naming `path` and errno.
std::string canonical(const std::string& path);

// True when `inner` is `outer` or lies below it (both canonical).
bool is_within(const std::string& inner, const std::string& outer);

}  // namespace anchorfs::cli
