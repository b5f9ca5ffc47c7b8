// Cache options: which store, or none, and how its warnings reach the user.
#include "cli/cache_args.h"

#include <iostream>
#include <string>

#include "analysis/build_identity.h"
#include "analysis/language.h"
#include "cli/cli_error.h"

namespace anchorfs::cli {

void add_cache_args(CLI::App& command, CacheArgs& args) {
  command.add_option("--cache-dir", args.dir,
                     "Fact cache root (default $XDG_CACHE_HOME/anchorfs or ~/.cache/anchorfs)");
  command.add_flag("--no-cache", args.disabled,
                   "Analyse every file afresh; read and write no cache");
}

void warn_on_stderr(const std::string& message) {
  std::cerr << "anchorfs: warning: " << message << "\n";
}

std::string cache_root(const CacheArgs& args) {
  if (!args.dir.empty()) return cache::resolve_path(args.dir);
  const auto root = cache::default_cache_root();
  if (!root)
    throw CliError("cache", "no cache location: set HOME or XDG_CACHE_HOME, or pass --cache-dir");
  return *root;
}

// Every front end's facts version, and the build of the extractor that wrote them: an extractor
// changed without a version bump (any development build) must not be handed another's facts.
std::string cache_entries_version() {
  std::string version;
  for (const auto& front_end : analysis::front_ends()) {
    if (!version.empty()) version += ',';
    version += std::string(front_end->name()) + "-facts-" +
               std::to_string(front_end->facts_version());
  }
  const std::string_view build = analysis::analyser_build_id();
  if (!build.empty()) version += '+';
  for (const char byte : build) {
    constexpr char kHex[] = "0123456789abcdef";
    version += kHex[static_cast<unsigned char>(byte) >> 4];
    version += kHex[static_cast<unsigned char>(byte) & 0xf];
  }
  return version;
}

std::unique_ptr<cache::LmdbFactCache> open_cache(const std::string& repo, const CacheArgs& args,
                                                 std::function<void(const std::string&)> warn) {
  if (args.disabled) return nullptr;
  cache::CacheOptions options;
  options.repo_root = repo;
  options.cache_dir = args.dir;
  options.analyser_version = cache_entries_version();
  options.warn = std::move(warn);
  try {
    return cache::LmdbFactCache::open(options);
  } catch (const cache::CacheError& error) {
    throw CliError("--cache-dir", error.what());
  }
}

}  // namespace anchorfs::cli
