// Source selection (excluded directories, claimed files) and non-blocking safe reads.
#include "analysis/source_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <numeric>

#include "analysis/language.h"
#include "analysis/open_beneath.h"

namespace anchorfs::analysis {
namespace {

std::string_view base_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool has_child_named(const SourceTree& tree, const TreeEntry& dir, std::string_view name) {
  const auto first = tree.entries.begin() + dir.first_child;
  const auto last = first + dir.child_count;
  const auto it = std::lower_bound(first, last, name, [](const TreeEntry& e, std::string_view n) {
    return base_name(e.path) < n;
  });
  return it != last && base_name(it->path) == name;
}

}  // namespace

bool is_excluded_directory_name(std::string_view name) {
  return name.starts_with('.') || name == "__pycache__" || name == "node_modules" ||
         name == "site-packages" || name == "dist-packages";
}

namespace {

constexpr uint32_t kNotClaimed = UINT32_MAX;

// Whether sibling `a` comes before sibling `b` in path order: below a directory every path goes
// on with a slash, so a directory sorts as its name followed by '/' ("a.c" and "a-b" before the
// directory "a"'s files). Siblings' names differ and hold no slash.
bool before_in_path_order(const TreeEntry& a, const TreeEntry& b) {
  const std::string_view x = base_name(a.path);
  const std::string_view y = base_name(b.path);
  const size_t common = std::min(x.size(), y.size());
  if (const int order = x.substr(0, common).compare(y.substr(0, common)); order != 0) {
    return order < 0;
  }
  if (x.size() == y.size()) return false;
  // One name is a prefix of the other: the shorter one's next byte is '/' if it is a directory
  // (never equal to the longer one's next byte), else it has none and comes first.
  if (x.size() < y.size()) return !S_ISDIR(a.mode) || '/' < y[common];
  return S_ISDIR(b.mode) && x[common] < '/';
}

// The claimed entries in path order, walked through the tree (each directory's children are
// sorted by name, and so nearly in path order already); empty when the walk does not reach all
// `claimed_count` of them (a malformed tree).
std::vector<uint32_t> in_path_order(const SourceTree& tree, const std::vector<uint32_t>& claimed,
                                    size_t claimed_count) {
  std::vector<uint32_t> order;
  order.reserve(claimed_count);
  std::vector<uint32_t> pending{0};
  std::vector<uint32_t> children;
  while (!pending.empty()) {
    const uint32_t at = pending.back();
    pending.pop_back();
    const TreeEntry& e = tree.entries[at];
    if (claimed[at] != kNotClaimed) order.push_back(at);
    if (!S_ISDIR(e.mode) || e.child_count == 0 ||
        e.first_child + uint64_t{e.child_count} > tree.entries.size() || e.first_child <= at) {
      continue;
    }
    children.resize(e.child_count);
    std::iota(children.begin(), children.end(), e.first_child);
    std::sort(children.begin(), children.end(), [&](uint32_t a, uint32_t b) {
      return before_in_path_order(tree.entries[a], tree.entries[b]);
    });
    pending.insert(pending.end(), children.rbegin(), children.rend());
  }
  if (order.size() != claimed_count) order.clear();
  return order;
}

}  // namespace

std::vector<SourceFile> select_sources(const SourceTree& tree) {
  std::vector<uint32_t> claimed(tree.entries.size(), kNotClaimed);  // front end per entry
  size_t claimed_count = 0;
  std::vector<bool> excluded(tree.entries.size(), false);
  const auto& languages = front_ends();
  for (size_t i = 0; i < tree.entries.size(); ++i) {
    const TreeEntry& e = tree.entries[i];
    if (i > 0) {
      if (e.parent >= i) continue;  // malformed tree: never index out of order
      excluded[i] = excluded[e.parent];
    }
    if (S_ISDIR(e.mode)) {
      if (i > 0 && !excluded[i]) {
        excluded[i] = is_excluded_directory_name(base_name(e.path)) ||
                      (e.first_child + uint64_t{e.child_count} <= tree.entries.size() &&
                       has_child_named(tree, e, "pyvenv.cfg"));
      }
      continue;
    }
    if (excluded[i] || !S_ISREG(e.mode)) continue;
    for (size_t l = 0; l < languages.size(); ++l) {
      if (languages[l]->claims(e.path)) {
        claimed[i] = static_cast<uint32_t>(l);
        ++claimed_count;
        break;
      }
    }
  }
  // Path order without comparing whole paths: sorting them (long shared prefixes) was most of
  // this function's cost, and a refresh selects sources twice.
  std::vector<uint32_t> order = in_path_order(tree, claimed, claimed_count);
  if (order.empty() && claimed_count > 0) {
    for (uint32_t i = 0; i < claimed.size(); ++i) {
      if (claimed[i] != kNotClaimed) order.push_back(i);
    }
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return tree.entries[a].path < tree.entries[b].path; });
  }
  std::vector<SourceFile> out;
  out.reserve(order.size());
  for (const uint32_t i : order) {
    const TreeEntry& e = tree.entries[i];
    out.push_back({e.path, claimed[i], e.size, i});
  }
  return out;
}

namespace {

// Lines end at \n or \r (either alone counts, as for the parser). memchr does the scanning:
// this runs over every source on every mount, warm ones included.
size_t longest_line(std::string_view bytes) {
  if (bytes.empty()) return 0;
  size_t longest = 0;
  const char* start = bytes.data();
  const char* const end = bytes.data() + bytes.size();
  while (true) {
    const auto left = static_cast<size_t>(end - start);
    const char* newline = static_cast<const char*>(std::memchr(start, '\n', left));
    const char* line_end = newline != nullptr ? newline : end;
    // A lone \r also ends a line; only lines long enough to matter are searched for one.
    for (const char* p = start; static_cast<size_t>(line_end - p) > longest;) {
      const char* cr =
          static_cast<const char*>(std::memchr(p, '\r', static_cast<size_t>(line_end - p)));
      const char* piece_end = cr != nullptr ? cr : line_end;
      longest = std::max(longest, static_cast<size_t>(piece_end - p));
      if (cr == nullptr) break;
      p = cr + 1;
    }
    if (newline == nullptr) return longest;
    start = newline + 1;
  }
}

constexpr int kReadFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;

// Opens a source beneath the root directory (a run of directories at a time when the path is too
// long for the kernel), following no symlink on the way.
int open_source_file(const std::string& root, const std::string& path) {
  const int root_fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return -1;
  const int fd = open_beneath(root_fd, path, kReadFlags);
  const int error = errno;
  ::close(root_fd);
  errno = error;
  return fd;
}

}  // namespace

SourceBytes read_source(const std::string& root, const std::string& path, size_t max_bytes,
                        size_t max_line_bytes) {
  SourceBytes r;
  const int fd = open_source_file(root, path);
  if (fd < 0) {
    r.problem = std::string("unreadable: ") + std::strerror(errno);
    return r;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    r.problem = "not a regular file";
    ::close(fd);
    return r;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    r.problem = "too large (" + std::to_string(st.st_size) + " bytes)";
    r.too_large = true;
    r.size = static_cast<uint64_t>(st.st_size);
    ::close(fd);
    return r;
  }
  // The file may change while read: never read more than max_bytes + 1.
  r.bytes.resize(static_cast<size_t>(st.st_size) + 1);
  size_t filled = 0;
  while (true) {
    if (filled == r.bytes.size()) {
      if (r.bytes.size() > max_bytes) break;
      r.bytes.resize(std::min(max_bytes + 1, r.bytes.size() * 2));
    }
    const ssize_t n = ::read(fd, r.bytes.data() + filled, r.bytes.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      r.problem = std::string("unreadable: ") + std::strerror(errno);
      ::close(fd);
      return r;
    }
    if (n == 0) break;
    filled += static_cast<size_t>(n);
  }
  ::close(fd);
  r.bytes.resize(filled);
  if (filled > max_bytes) {
    r.problem = "too large (grew while read)";
    r.too_large = true;
    r.size = filled;
    return r;
  }
  if (r.bytes.find('\0') != std::string::npos) {
    r.problem = "binary (contains NUL bytes)";
    return r;
  }
  if (const size_t longest = longest_line(r.bytes); longest > max_line_bytes) {
    r.problem = "a line of " + std::to_string(longest) + " bytes (generated or minified)";
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace anchorfs::analysis
