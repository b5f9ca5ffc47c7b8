// The cache options (--cache-dir, --no-cache, --cache-max-size, --remote-cache), their
// environment and config-file fallbacks, and opening the fact cache.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cache/lmdb_fact_cache.h"

namespace anchorfs::cli {

struct CacheArgs {
  std::string dir;  // "" = the default location
  bool disabled = false;
  std::string max_size;  // "" = $ANCHORFS_CACHE_MAX_SIZE, else the config file, else the default
  std::string remote;    // "" = $ANCHORFS_REMOTE_CACHE, else the config file, else none
  std::string remote_key_file;       // the farm key; "" = environment, else config file
  std::string remote_password_file;  // the Redis password; "" = environment, else config file
};

// The settings in force, each from the first of: flag, environment, config file, default.
struct CacheSettings {
  uint64_t max_bytes = cache::kDefaultMaxBytes;
  std::optional<cache::RemoteAddress> remote;  // with the password, from wherever it came
  std::string farm_key;                        // the key file's bytes ("" = none given)
};

void add_cache_args(CLI::App& command, CacheArgs& args);
// --cache-dir and --cache-max-size only (the cache commands).
void add_cache_location_args(CLI::App& command, CacheArgs& args);

// "anchorfs: warning: <message>" on stderr.
void warn_on_stderr(const std::string& message);

// The cache root in use: --cache-dir, else $XDG_CACHE_HOME/anchorfs or ~/.cache/anchorfs.
// Throws CliError when there is none.
std::string cache_root(const CacheArgs& args);

// "2G", "500M", "64KiB", "1000000": bytes; nullopt when malformed.
std::optional<uint64_t> parse_size(std::string_view text);

// Throws CliError for a malformed size or remote URL (never quoting credentials), a password in
// --remote-cache (argv is visible to every user: it must come from a file or the environment),
// and a key or password file that cannot be read, is not a regular file of at most 4 KiB, or is
// open to every user.
CacheSettings cache_settings(const CacheArgs& args);

// The repository's fact store, or nullptr with --no-cache (or after a warning when the default
// location is unusable). Throws CliError when an explicit --cache-dir cannot be used.
// Opens LMDB: call it in the process that will use it (after any fork).
std::unique_ptr<cache::LmdbFactCache> open_cache(const std::string& repo, const CacheArgs& args,
                                                 std::function<void(const std::string&)> warn);

}  // namespace anchorfs::cli
