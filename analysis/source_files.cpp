// Source selection (excluded directories, claimed files) and non-blocking safe reads.
#include "analysis/source_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

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

std::vector<SourceFile> select_sources(const SourceTree& tree) {
  std::vector<SourceFile> out;
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
        out.push_back({e.path, l, e.size, i});
        break;
      }
    }
  }
  std::sort(out.begin(), out.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
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
