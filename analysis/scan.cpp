// Walks a repository with lstat semantics into a SourceTree (no symlink is ever followed).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "analysis/open_beneath.h"
#include "analysis/scan_entry.h"
#include "analysis/source_tree.h"

namespace anchorfs::analysis {
namespace {

int64_t to_ns(const timespec& t) {
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

std::string join(const std::string& dir, std::string_view name) {
  std::string path;
  path.reserve(dir.size() + 1 + name.size());
  path.append(dir);
  if (!dir.empty()) path.push_back('/');
  path.append(name);
  return path;
}

}  // namespace

void fill_from_stat(TreeEntry& entry, const struct stat& st) {
  entry.mode = st.st_mode;
  entry.size = static_cast<uint64_t>(st.st_size);
  entry.inode = st.st_ino;
  entry.device = st.st_dev;
  entry.nlink = static_cast<uint32_t>(st.st_nlink);
  entry.uid = st.st_uid;
  entry.gid = st.st_gid;
  entry.mtime_ns = to_ns(st.st_mtim);
  entry.ctime_ns = to_ns(st.st_ctim);
  entry.atime_ns = to_ns(st.st_atim);
  entry.rdev = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? st.st_rdev : 0;
}

bool DirectoryNames::read(int fd, std::string& error) {
  // Big enough for most directories in one call; a larger one grows it (kept for the next).
  constexpr size_t kChunk = 32 * 1024;
  names_.clear();
  size_t used = 0;
  bool ok = true;
  for (;;) {
    if (buffer_.size() < used + kChunk) buffer_.resize(used + kChunk);
    const ssize_t n = ::getdents64(fd, buffer_.data() + used, buffer_.size() - used);
    if (n < 0) {
      error = std::strerror(errno);
      ok = false;
      break;
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  // Pointers only now: the buffer may have moved while it grew.
  for (size_t at = 0; at < used;) {
    const auto* d = reinterpret_cast<const dirent64*>(buffer_.data() + at);
    at += d->d_reclen;
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) {
      names_.push_back(d->d_name);
    }
  }
  std::sort(names_.begin(), names_.end(),
            [](const char* a, const char* b) { return std::strcmp(a, b) < 0; });
  return ok;
}

bool list_names(int fd, std::vector<std::string>& names, std::string& error) {
  DirectoryNames listing;
  const bool ok = listing.read(fd, error);
  ::close(fd);
  names.assign(listing.names().begin(), listing.names().end());
  return ok;
}

int read_entry(int dir_fd, const char* name, TreeEntry& entry, std::string& problem) {
  struct stat st {};
  if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    const int error = errno;
    problem = std::string("vanished during scan: ") + std::strerror(error);
    return error;
  }
  fill_from_stat(entry, st);
  if (S_ISLNK(st.st_mode)) {
    std::string target(static_cast<size_t>(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
    const ssize_t n = ::readlinkat(dir_fd, name, target.data(), target.size());
    if (n < 0) {
      const int error = errno;
      problem = std::string("unreadable symlink: ") + std::strerror(error);
      return error;
    }
    target.resize(static_cast<size_t>(n));
    entry.symlink_target = std::move(target);
  }
  return 0;
}

const TreeEntry* find_entry(const SourceTree& tree, std::string_view path) {
  if (tree.entries.empty()) return nullptr;
  const TreeEntry* at = &tree.entries[0];
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string_view component = path.substr(0, slash);
    if (!S_ISDIR(at->mode) || at->first_child + uint64_t{at->child_count} > tree.entries.size()) {
      return nullptr;
    }
    const auto first = tree.entries.begin() + at->first_child;
    const auto last = first + at->child_count;
    const auto name_of = [](const TreeEntry& child) {
      const std::string_view child_path = child.path;
      const size_t child_slash = child_path.rfind('/');
      return child_slash == std::string_view::npos ? child_path
                                                   : child_path.substr(child_slash + 1);
    };
    const auto found = std::lower_bound(
        first, last, component,
        [&](const TreeEntry& child, std::string_view wanted) { return name_of(child) < wanted; });
    if (found == last || name_of(*found) != component) return nullptr;
    at = &*found;
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  }
  return at;
}

SourceTree scan_tree(const std::string& root, const ScanOptions& options) {
  SourceTree tree;
  char* real = ::realpath(root.c_str(), nullptr);
  if (real == nullptr) throw std::runtime_error(root + ": " + std::strerror(errno));
  tree.root = real;
  std::free(real);

  // Every directory is opened relative to this one, never by its full path: depth is limited
  // only by the tree, and a symlink swapped in anywhere is never followed.
  const int root_fd = ::open(tree.root.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st {};
  if (root_fd < 0 || ::fstat(root_fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
    if (root_fd >= 0) ::close(root_fd);
    throw std::runtime_error(root + ": not a directory");
  }
  TreeEntry root_entry;
  fill_from_stat(root_entry, st);
  tree.entries.push_back(std::move(root_entry));

  // Breadth-first by directory so each directory's children land contiguously.
  std::vector<uint32_t> pending{0};
  DirectoryNames listing;
  std::string error;
  std::string problem;
  for (size_t next = 0; next < pending.size(); ++next) {
    const uint32_t dir_index = pending[next];
    const std::string dir_path = tree.entries[dir_index].path;
    tree.entries[dir_index].first_child = static_cast<uint32_t>(tree.entries.size());
    const int dir_fd = open_beneath(root_fd, dir_path, kListFlags);
    if (dir_fd < 0) {
      tree.problems.push_back(
          {dir_path, std::string("cannot list directory: ") + std::strerror(errno)});
      continue;
    }
    if (options.on_directory) options.on_directory(dir_path, dir_fd);
    if (!listing.read(dir_fd, error)) {
      tree.problems.push_back({dir_path, "cannot list directory: " + error});
    }
    uint32_t count = 0;
    for (const char* name : listing.names()) {
      TreeEntry& entry = tree.entries.emplace_back();
      entry.path = join(dir_path, name);
      entry.parent = dir_index;
      if (read_entry(dir_fd, name, entry, problem) != 0) {
        tree.problems.push_back({std::move(entry.path), std::move(problem)});
        tree.entries.pop_back();
        continue;
      }
      // A directory on the excluded device (the mount serving this tree, reached through a bind
      // mount) is listed but never entered.
      const bool excluded = options.skip_device != 0 && entry.device == options.skip_device;
      if (S_ISDIR(entry.mode) && !excluded) {
        pending.push_back(static_cast<uint32_t>(tree.entries.size() - 1));
      }
      ++count;
    }
    ::close(dir_fd);
    tree.entries[dir_index].child_count = count;
  }
  ::close(root_fd);
  return tree;
}

}  // namespace anchorfs::analysis
