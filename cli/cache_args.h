// The --cache-dir / --no-cache options and opening the fact cache for a repository.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>

#include "cache/lmdb_fact_cache.h"

namespace anchorfs::cli {

struct CacheArgs {
  std::string dir;  // "" = the default location
  bool disabled = false;
};

void add_cache_args(CLI::App& command, CacheArgs& args);

// "anchorfs: warning: <message>" on stderr.
void warn_on_stderr(const std::string& message);

// The cache root in use: --cache-dir, else $XDG_CACHE_HOME/anchorfs or ~/.cache/anchorfs.
// Throws CliError when there is none.
std::string cache_root(const CacheArgs& args);

// The version every cache entry is written under and must carry to be read back:
// "<front end>-facts-<its facts_version>[,...]+<hex build id of this binary>".
std::string cache_entries_version();

// The repository's fact store, or nullptr with --no-cache (or after a warning when the default
// location is unusable). Throws CliError when an explicit --cache-dir cannot be used.
// Opens LMDB: call it in the process that will use it (after any fork).
std::unique_ptr<cache::LmdbFactCache> open_cache(const std::string& repo, const CacheArgs& args,
                                                 std::function<void(const std::string&)> warn);

}  // namespace anchorfs::cli
