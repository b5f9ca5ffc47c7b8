// Cache options: which store, how large, which remote tier, and how warnings reach the user.
#include "cli/cache_args.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "cli/cli_error.h"

namespace anchorfs::cli {
namespace {

constexpr const char* kMaxSizeEnv = "ANCHORFS_CACHE_MAX_SIZE";
constexpr const char* kRemoteEnv = "ANCHORFS_REMOTE_CACHE";
constexpr const char* kRemoteKeyFileEnv = "ANCHORFS_REMOTE_CACHE_KEY_FILE";
constexpr const char* kRemotePasswordFileEnv = "ANCHORFS_REMOTE_CACHE_PASSWORD_FILE";
constexpr const char* kRemotePasswordEnv = "ANCHORFS_REMOTE_CACHE_PASSWORD";
constexpr size_t kMaxSecretBytes = 4096;

std::string trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

// `$XDG_CONFIG_HOME/anchorfs/config`, else `~/.config/anchorfs/config`: `key = value` lines,
// `#` starts a comment line. Absent or unreadable: no settings.
std::map<std::string, std::string> read_config_file() {
  std::string path;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && xdg[0] == '/') {
    path = std::string(xdg) + "/anchorfs/config";
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
    path = std::string(home) + "/.config/anchorfs/config";
  } else {
    return {};
  }
  std::map<std::string, std::string> settings;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const std::string text = trim(line);
    const size_t equals = text.find('=');
    if (text.empty() || text[0] == '#' || equals == std::string::npos) continue;
    settings[trim(std::string_view(text).substr(0, equals))] =
        trim(std::string_view(text).substr(equals + 1));
  }
  return settings;
}

// The first non-empty of the flag, the environment variable and the config file's key.
std::string first_of(const std::string& flag, const char* env, const std::string& key,
                     const std::map<std::string, std::string>& config) {
  if (!flag.empty()) return flag;
  if (const char* value = std::getenv(env); value != nullptr && value[0] != '\0') return value;
  const auto it = config.find(key);
  return it == config.end() ? std::string() : it->second;
}

// The secret in `path` (named by `option`), without a final line break. Refused (CliError): not
// a regular file, larger than kMaxSecretBytes, or readable or writable by every user.
std::string read_secret_file(const std::string& option, const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw CliError(option, path + ": " + errno_text(errno));
  struct stat st {};
  std::string problem;
  std::string secret(kMaxSecretBytes + 1, '\0');
  ssize_t n = -1;
  if (::fstat(fd, &st) != 0) {
    problem = errno_text(errno);
  } else if (!S_ISREG(st.st_mode)) {
    problem = "not a regular file";
  } else if ((st.st_mode & 0007) != 0) {
    problem = "open to every user (chmod o-rwx it: it holds a secret)";
  } else if ((n = ::read(fd, secret.data(), secret.size())) < 0) {
    problem = errno_text(errno);
  } else if (static_cast<size_t>(n) > kMaxSecretBytes) {
    problem = "larger than 4 KiB";
  }
  ::close(fd);
  if (!problem.empty()) throw CliError(option, path + ": " + problem);
  secret.resize(static_cast<size_t>(n));
  if (secret.ends_with('\n')) secret.pop_back();
  if (secret.ends_with('\r')) secret.pop_back();
  return secret;
}

}  // namespace

void add_cache_location_args(CLI::App& command, CacheArgs& args) {
  command.add_option("--cache-dir", args.dir,
                     "Cache root (default $XDG_CACHE_HOME/anchorfs or ~/.cache/anchorfs)")
      ->type_name("DIR");
  command.add_option("--cache-max-size", args.max_size,
                     "Cap on the cache's size, e.g. 2G, 500M (default 2G; also "
                     "$ANCHORFS_CACHE_MAX_SIZE or cache-max-size in the config file)")
      ->type_name("SIZE");
}

void add_cache_args(CLI::App& command, CacheArgs& args) {
  add_cache_location_args(command, args);
  command.add_flag("--no-cache", args.disabled,
                   "Analyse every file afresh; read and write no cache");
  command.add_option("--remote-cache", args.remote,
                     "Shared remote tier, redis://[user@]host:port[/db] (also "
                     "$ANCHORFS_REMOTE_CACHE or remote-cache in the config file, which may hold "
                     "user:password@; never a password here: every user sees a command line)")
      ->type_name("URL");
  command.add_option("--remote-cache-key-file", args.remote_key_file,
                     "The farm key: a private file of at least 16 secret bytes every machine "
                     "sharing the remote tier reads; records are sealed with it (also "
                     "$ANCHORFS_REMOTE_CACHE_KEY_FILE or remote-cache-key-file in the config "
                     "file). Without it the remote tier is not used");
  command.add_option("--remote-cache-password-file", args.remote_password_file,
                     "The remote tier's password, read from a private file (also "
                     "$ANCHORFS_REMOTE_CACHE_PASSWORD_FILE, remote-cache-password-file in the "
                     "config file, or $ANCHORFS_REMOTE_CACHE_PASSWORD)");
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

std::optional<uint64_t> parse_size(std::string_view text) {
  uint64_t number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  std::string unit(end, text.data() + text.size());
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.ends_with("IB")) unit.erase(unit.size() - 2, 1);  // KiB = K, as ccache reads them
  if (unit.size() == 2 && unit[1] == 'B') unit.pop_back();
  static const std::map<std::string, unsigned> kShift = {{"", 0},   {"B", 0},  {"K", 10},
                                                         {"M", 20}, {"G", 30}, {"T", 40}};
  const auto it = kShift.find(unit);
  if (it == kShift.end() || (it->second > 0 && number > (UINT64_MAX >> it->second))) {
    return std::nullopt;
  }
  return number << it->second;
}

CacheSettings cache_settings(const CacheArgs& args) {
  const auto config = read_config_file();
  CacheSettings settings;
  if (const std::string size = first_of(args.max_size, kMaxSizeEnv, "cache-max-size", config);
      !size.empty()) {
    const auto bytes = parse_size(size);
    if (!bytes || *bytes < cache::kMinMaxBytes) {
      throw CliError("--cache-max-size",
                     "cache size '" + size + "' is not a size of at least 1M (e.g. 2G, 500M)");
    }
    settings.max_bytes = *bytes;
  }
  if (const std::string url = first_of(args.remote, kRemoteEnv, "remote-cache", config);
      !url.empty()) {
    std::string error;
    settings.remote = cache::parse_remote_address(url, error);
    if (!settings.remote) throw CliError("--remote-cache", error);
    if (!args.remote.empty() && !settings.remote->password.empty()) {
      throw CliError("--remote-cache",
                     "a password on the command line is visible to every user (ps); give it in "
                     "--remote-cache-password-file FILE or $ANCHORFS_REMOTE_CACHE_PASSWORD, or "
                     "the whole URL in $ANCHORFS_REMOTE_CACHE or the config file");
    }
    if (const std::string file = first_of(args.remote_password_file, kRemotePasswordFileEnv,
                                          "remote-cache-password-file", config);
        !file.empty()) {
      settings.remote->password = read_secret_file("--remote-cache-password-file", file);
    } else if (const char* password = std::getenv(kRemotePasswordEnv);
               password != nullptr && password[0] != '\0') {
      settings.remote->password = password;
    }
    if (const std::string file =
            first_of(args.remote_key_file, kRemoteKeyFileEnv, "remote-cache-key-file", config);
        !file.empty()) {
      settings.farm_key = read_secret_file("--remote-cache-key-file", file);
    }
  }
  return settings;
}

std::unique_ptr<cache::LmdbFactCache> open_cache(const std::string& repo, const CacheArgs& args,
                                                 std::function<void(const std::string&)> warn) {
  if (args.disabled) return nullptr;
  const CacheSettings settings = cache_settings(args);
  cache::CacheOptions options;
  options.repo_root = repo;
  options.cache_dir = args.dir;
  options.max_bytes = settings.max_bytes;
  options.remote = settings.remote;
  options.farm_key = settings.farm_key;
  options.warn = std::move(warn);
  try {
    return cache::LmdbFactCache::open(options);
  } catch (const cache::CacheError& error) {
    throw CliError("--cache-dir", error.what());
  }
}

}  // namespace anchorfs::cli
