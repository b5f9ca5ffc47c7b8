// Walking, reading and fingerprinting trees for the hostile and stress tests.
#include "tests/hostile/support/tree_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace anchorfs::testing {
namespace {

int64_t to_ns(const timespec& t) {
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

std::string join(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

void walk_dir(const std::string& root, const std::string& rel, Walk& walk) {
  const std::string abs = rel.empty() ? root : root + "/" + rel;
  DIR* dir = ::opendir(abs.c_str());
  if (dir == nullptr) {
    walk.unlistable_dirs[rel] = errno;
    return;
  }
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
      names.emplace_back(entry->d_name);
    }
    errno = 0;
  }
  if (errno != 0) walk.unlistable_dirs[rel] = errno;
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string child = join(rel, name);
    struct stat st {};
    if (::lstat((abs + "/" + name).c_str(), &st) != 0) {
      walk.unstatable[child] = errno;
      continue;
    }
    Node node;
    node.mode = st.st_mode;
    node.size = static_cast<uint64_t>(st.st_size);
    node.uid = st.st_uid;
    node.gid = st.st_gid;
    node.mtime_ns = to_ns(st.st_mtim);
    node.ctime_ns = to_ns(st.st_ctim);
    if (S_ISLNK(st.st_mode)) {
      std::string target(4096, '\0');
      const ssize_t n = ::readlink((abs + "/" + name).c_str(), target.data(), target.size());
      target.resize(n > 0 ? static_cast<size_t>(n) : 0);
      node.link_target = target;
    }
    walk.nodes[child] = node;
    if (S_ISDIR(st.st_mode)) walk_dir(root, child, walk);
  }
}

}  // namespace

Walk walk_tree(const std::string& root) {
  Walk walk;
  walk_dir(root, "", walk);
  return walk;
}

ReadResult read_file(const std::string& path) {
  ReadResult result;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    result.error = errno;
    return result;
  }
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      result.error = errno;
      break;
    }
    if (n == 0) break;
    result.bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return result;
}

std::string tree_fingerprint(const std::string& root) {
  const Walk walk = walk_tree(root);
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  auto feed = [&](const void* data, size_t size) { XXH3_128bits_update(state, data, size); };
  for (const auto& [path, node] : walk.nodes) {
    feed(path.data(), path.size() + 1);
    const int64_t fields[] = {node.mode,     static_cast<int64_t>(node.size),
                              node.uid,      node.gid,
                              node.mtime_ns, node.ctime_ns};
    feed(fields, sizeof fields);
    feed(node.link_target.data(), node.link_target.size() + 1);
    if (S_ISREG(node.mode)) {
      const ReadResult content = read_file(root + "/" + path);
      feed(&content.error, sizeof content.error);
      const XXH128_hash_t digest = XXH3_128bits(content.bytes.data(), content.bytes.size());
      feed(&digest, sizeof digest);
    }
  }
  for (const auto& [path, error] : walk.unlistable_dirs) {
    feed(path.data(), path.size() + 1);
    feed(&error, sizeof error);
  }
  const XXH128_hash_t digest = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(digest.high64),
                static_cast<unsigned long long>(digest.low64));
  return hex;
}

std::string describe_difference(const std::string& expected, const std::string& actual) {
  size_t at = 0;
  while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) ++at;
  const size_t from = at > 40 ? at - 40 : 0;
  return "sizes " + std::to_string(expected.size()) + " vs " + std::to_string(actual.size()) +
         ", first difference at byte " + std::to_string(at) +
         "\nexpected: " + printable(expected.substr(from, 120)) +
         "\nactual:   " + printable(actual.substr(from, 120));
}

std::string printable(const std::string& raw) {
  std::string out;
  for (const unsigned char c : raw) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  return out;
}

}  // namespace anchorfs::testing
