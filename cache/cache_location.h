// Where fact stores live: the cache root, one private store directory per repository path.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace anchorfs::cache {

// Receives one-line warnings (no trailing newline). A null sink writes them to stderr.
using WarningSink = std::function<void(const std::string&)>;

// A cache location the user asked for cannot be used (inside the repository, not creatable,
// owned by someone else). The message is a complete one-line explanation.
class CacheError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void emit_warning(const WarningSink& warn, const std::string& message);

// `$XDG_CACHE_HOME/anchorfs` when XDG_CACHE_HOME is an absolute path, else `$HOME/.cache/anchorfs`;
// nullopt when neither is usable (HOME unset, empty or relative).
std::optional<std::string> default_cache_root();

// The absolute, symlink-resolved form of `path`; components that do not exist yet are appended
// lexically to the resolved existing prefix.
std::string resolve_path(const std::string& path);

// True when `path` is `dir` itself or lies below it (both already resolved).
bool is_same_or_below(const std::string& path, const std::string& dir);

// Creates `dir` and any missing parents, each new one 0700; existing ones are left as they are.
// Throws CacheError when it cannot or when `dir` is not a directory. `dir` must be absolute.
void create_private_dirs(const std::string& dir);

// create_private_dirs(), then makes `dir` itself 0700; throws CacheError when it cannot, or when
// `dir` is owned by another user. Only for directories anchorfs owns.
void ensure_private_dir(const std::string& dir);

}  // namespace anchorfs::cache
