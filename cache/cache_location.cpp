// Resolving the cache root and the private per-repository store directories.
#include "cache/cache_location.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace anchorfs::cache {

void emit_warning(const WarningSink& warn, const std::string& message) {
  if (warn) {
    warn(message);
  } else {
    std::fprintf(stderr, "anchorfs: warning: %s\n", message.c_str());
  }
}

namespace {

// XDG: a relative path in these variables is invalid and must be ignored.
std::optional<std::string> absolute_env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || value[0] != '/') {
    return std::nullopt;
  }
  return std::string(value);
}

}  // namespace

std::optional<std::string> default_cache_root() {
  if (auto xdg = absolute_env("XDG_CACHE_HOME")) {
    return *xdg + "/anchorfs";
  }
  if (auto home = absolute_env("HOME")) {
    return *home + "/.cache/anchorfs";
  }
  return std::nullopt;
}

std::string resolve_path(const std::string& path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) {
    absolute = path;
  }
  std::filesystem::path resolved = std::filesystem::weakly_canonical(absolute, ec);
  if (ec) {
    resolved = absolute.lexically_normal();
  }
  std::string text = resolved.string();
  while (text.size() > 1 && text.back() == '/') {
    text.pop_back();
  }
  return text;
}

bool is_same_or_below(const std::string& path, const std::string& dir) {
  if (path == dir) {
    return true;
  }
  if (dir == "/") {
    return true;
  }
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}

void create_private_dirs(const std::string& dir) {
  std::string prefix;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    prefix = dir.substr(0, pos);
    if (prefix.empty() || ::mkdir(prefix.c_str(), 0700) == 0 || errno == EEXIST) {
      continue;
    }
    throw CacheError(
        fmt::format("cannot create cache directory {}: {}", prefix, std::strerror(errno)));
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw CacheError(fmt::format("cache location {} is not a directory", dir));
  }
}

void ensure_private_dir(const std::string& dir) {
  create_private_dirs(dir);
  // A symlink in its place is followed only when it is ours: in a shared --cache-dir (/tmp)
  // another user could point one at a directory of ours (all of root's), and the store, its lock
  // file and the clean-up of set-aside files would land there.
  struct stat link {};
  if (::lstat(dir.c_str(), &link) == 0 && S_ISLNK(link.st_mode) && link.st_uid != ::geteuid()) {
    throw CacheError(fmt::format("cache directory {} is another user's symbolic link", dir));
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    throw CacheError(
        fmt::format("cannot inspect cache directory {}: {}", dir, std::strerror(errno)));
  }
  if (st.st_uid != ::geteuid()) {
    throw CacheError(fmt::format("cache directory {} belongs to another user", dir));
  }
  if ((st.st_mode & 07777) != 0700 && ::chmod(dir.c_str(), 0700) != 0) {
    throw CacheError(
        fmt::format("cannot make cache directory {} private: {}", dir, std::strerror(errno)));
  }
}

}  // namespace anchorfs::cache
