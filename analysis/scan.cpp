// Walks a repository with lstat semantics into a SourceTree (no symlink is ever followed).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "analysis/source_tree.h"

namespace anchorfs::analysis {
namespace {

int64_t to_ns(const timespec& t) { return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; }

void fill_from_stat(TreeEntry& entry, const struct stat& st) {
  entry.mode = st.st_mode;
  entry.size = static_cast<uint64_t>(st.st_size);
  entry.inode = st.st_ino;
  entry.nlink = static_cast<uint32_t>(st.st_nlink);
  entry.uid = st.st_uid;
  entry.gid = st.st_gid;
  entry.mtime_ns = to_ns(st.st_mtim);
  entry.ctime_ns = to_ns(st.st_ctim);
  entry.atime_ns = to_ns(st.st_atim);
  entry.rdev = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? st.st_rdev : 0;
}

std::string join(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

// Names in a directory, sorted bytewise; nullopt-like empty + problem when unreadable.
bool list_names(const std::string& abs_dir, std::vector<std::string>& names, std::string& error) {
  int fd = ::open(abs_dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    error = std::strerror(errno);
    ::close(fd);
    return false;
  }
  errno = 0;
  while (const dirent* d = ::readdir(dir)) {
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) {
      names.emplace_back(d->d_name);
    }
  }
  bool ok = errno == 0;
  if (!ok) error = std::strerror(errno);
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return ok;
}

}  // namespace

SourceTree scan_tree(const std::string& root) {
  SourceTree tree;
  char* real = ::realpath(root.c_str(), nullptr);
  if (real == nullptr) throw std::runtime_error(root + ": " + std::strerror(errno));
  tree.root = real;
  std::free(real);

  struct stat st {};
  if (::lstat(tree.root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw std::runtime_error(root + ": not a directory");
  }
  TreeEntry root_entry;
  fill_from_stat(root_entry, st);
  tree.entries.push_back(std::move(root_entry));

  // Breadth-first by directory so each directory's children land contiguously.
  std::vector<uint32_t> pending{0};
  for (size_t next = 0; next < pending.size(); ++next) {
    const uint32_t dir_index = pending[next];
    const std::string dir_path = tree.entries[dir_index].path;
    const std::string abs_dir = dir_path.empty() ? tree.root : tree.root + "/" + dir_path;
    std::vector<std::string> names;
    std::string error;
    if (!list_names(abs_dir, names, error)) {
      tree.problems.push_back({dir_path, "cannot list directory: " + error});
    }
    tree.entries[dir_index].first_child = static_cast<uint32_t>(tree.entries.size());
    uint32_t count = 0;
    for (const std::string& name : names) {
      TreeEntry entry;
      entry.path = join(dir_path, name);
      entry.parent = dir_index;
      const std::string abs = abs_dir + "/" + name;
      if (::lstat(abs.c_str(), &st) != 0) {
        tree.problems.push_back({entry.path, std::string("vanished during scan: ") +
                                                 std::strerror(errno)});
        continue;
      }
      fill_from_stat(entry, st);
      if (S_ISLNK(st.st_mode)) {
        std::string target(static_cast<size_t>(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
        ssize_t n = ::readlink(abs.c_str(), target.data(), target.size());
        if (n < 0) {
          tree.problems.push_back({entry.path, std::string("unreadable symlink: ") +
                                                   std::strerror(errno)});
          continue;
        }
        target.resize(static_cast<size_t>(n));
        entry.symlink_target = std::move(target);
      }
      if (S_ISDIR(st.st_mode)) pending.push_back(static_cast<uint32_t>(tree.entries.size()));
      tree.entries.push_back(std::move(entry));
      ++count;
    }
    tree.entries[dir_index].child_count = count;
  }
  return tree;
}

}  // namespace anchorfs::analysis
