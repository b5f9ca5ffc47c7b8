// rescan_paths(): a SourceTree patched at known paths instead of scanned whole.
#include "analysis/rescan_paths.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "analysis/open_beneath.h"
#include "analysis/scan_entry.h"
#include "analysis/unique_fd.h"

namespace anchorfs::analysis {
namespace {

std::string_view name_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view parent_of(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

// The last component of `path`, the path of a child of the directory at `dir` (no search).
std::string_view child_name(std::string_view dir, std::string_view path) {
  return dir.empty() ? path : path.substr(dir.size() + 1);
}

std::string join(std::string_view dir, std::string_view name) {
  return dir.empty() ? std::string(name) : std::string(dir) + "/" + std::string(name);
}

using FileKey = std::pair<uint64_t, uint64_t>;  // device, inode

class Patcher {
 public:
  Patcher(const SourceTree& old, const ScanOptions& options, int root_fd)
      : old_(old), options_(options), root_fd_(root_fd) {}

  // Which names to read again, by directory of the old tree; false when a path is unusable.
  void add(std::string_view path) {
    while (!path.empty()) {
      const std::string_view parent = parent_of(path);
      const TreeEntry* dir = find_entry(old_, parent);
      if (dir != nullptr && S_ISDIR(dir->mode)) {
        const auto index = static_cast<uint32_t>(dir - old_.entries.data());
        reread_[index].insert(std::string(name_of(path)));
        reread_paths_.push_back(std::string(path));
        return;
      }
      path = parent;
    }
    restat_root_ = true;
  }

  bool run(SourceTree& out, std::vector<uint32_t>& origin) {
    out.root = old_.root;
    TreeEntry root = old_.entries[0];
    const bool restat_root = restat_root_ || reread_.contains(0);
    if (restat_root) {
      struct stat st {};
      if (::fstat(root_fd_, &st) != 0 || !S_ISDIR(st.st_mode)) return false;
      fill_from_stat(root, st);
    }
    root.first_child = 0;
    root.child_count = 0;
    push(out, origin, std::move(root), 0, false, !restat_root);
    pending_.push_back({0, 0});
    for (size_t next = 0; next < pending_.size(); ++next) {
      if (!expand(out, origin, pending_[next])) return false;
    }
    out.entries.resize(size_);  // what reused storage was left over
    if (!restat_other_names(out)) return false;
    for (const ScanProblem& problem : old_.problems) {
      if (!reread_below(problem.path)) out.problems.push_back(problem);
    }
    for (ScanProblem& problem : problems_) out.problems.push_back(std::move(problem));
    return true;
  }

  std::vector<uint8_t> copied() && { return std::move(copied_); }

 private:
  struct Pending {
    uint32_t out;  // the directory's index in the result
    uint32_t old;  // its index in the old tree, or kNoOrigin: list it from the disk
  };

  // Puts `entry` at the end of the result: assigned over reused storage where there is some
  // (a path assigned over an old path's buffer allocates nothing), else appended.
  template <typename E>
  TreeEntry& place(SourceTree& out, E&& entry) {
    if (size_ < out.entries.size()) {
      out.entries[size_] = std::forward<E>(entry);
    } else {
      out.entries.push_back(std::forward<E>(entry));
    }
    return out.entries[size_++];
  }

  void push(SourceTree& out, std::vector<uint32_t>& origin, TreeEntry entry, uint32_t from,
            bool read, bool copied) {
    place(out, std::move(entry));
    origin.push_back(from);
    read_.push_back(read);
    copied_.push_back(copied);
  }

  bool excluded(const TreeEntry& entry) const {
    return options_.skip_device != 0 && entry.device == options_.skip_device;
  }

  // `path` is one of the paths read again or below one.
  bool reread_below(std::string_view path) const {
    for (const std::string& reread : reread_paths_) {
      if (path == reread || (path.size() > reread.size() && path.starts_with(reread) &&
                             path[reread.size()] == '/')) {
        return true;
      }
    }
    return false;
  }

  // Reads `name` of the directory `dir_fd` (entry `parent` of the result) from the disk, in
  // place of `prior` (the old entry at that path, or kNoOrigin).
  void read_again(SourceTree& out, std::vector<uint32_t>& origin, int dir_fd, uint32_t parent,
                  const std::string& name, uint32_t prior, uint32_t& count) {
    const TreeEntry* was = prior == kNoOrigin ? nullptr : &old_.entries[prior];
    if (was != nullptr && !S_ISDIR(was->mode) && was->nlink > 1) {
      linked_.insert({was->device, was->inode});
    }
    TreeEntry entry;
    entry.path = join(out.entries[parent].path, name);
    entry.parent = parent;
    std::string problem;
    if (const int error = read_entry(dir_fd, name, entry, problem); error != 0) {
      // Gone: removed or renamed away. Anything else is a problem, as in a scan.
      if (error != ENOENT && error != ENOTDIR) problems_.push_back({entry.path, problem});
      return;
    }
    if (!S_ISDIR(entry.mode) && entry.nlink > 1) linked_.insert({entry.device, entry.inode});
    const bool same_directory = was != nullptr && S_ISDIR(entry.mode) && S_ISDIR(was->mode) &&
                                was->inode == entry.inode && was->device == entry.device;
    const bool is_dir = S_ISDIR(entry.mode);
    const bool enter = is_dir && !excluded(entry);
    const uint32_t index = size_;
    push(out, origin, std::move(entry), prior, true, false);
    ++count;
    if (enter) pending_.push_back({index, same_directory ? prior : kNoOrigin});
  }

  bool expand(SourceTree& out, std::vector<uint32_t>& origin, Pending dir) {
    out.entries[dir.out].first_child = size_;
    uint32_t count = 0;
    const bool fresh = dir.old == kNoOrigin;
    const auto reread = fresh ? reread_.end() : reread_.find(dir.old);
    const TreeEntry* old_dir = fresh ? nullptr : &old_.entries[dir.old];
    bool restat_child = false;
    if (old_dir != nullptr) {
      // (Only directories are in reread_: the map's keys are few, the children many.)
      const auto key = reread_.lower_bound(old_dir->first_child);
      restat_child =
          key != reread_.end() && key->first < old_dir->first_child + old_dir->child_count;
    }
    const bool open = fresh || reread != reread_.end() || restat_child;
    // (A copy: pushing children may move the entries.)
    const std::string dir_path = open ? out.entries[dir.out].path : std::string();
    // The root, which is never listed here (never fresh), is the descriptor held already: names
    // are read beneath it without opening "." again (two system calls of every swap).
    const bool at_root = dir.out == 0 && !fresh;
    const UniqueFd opened(open && !at_root ? open_beneath(root_fd_, dir_path, kListFlags) : -1);
    const int dir_fd = at_root ? root_fd_ : opened.get();
    if (open && dir_fd < 0) {
      if (!fresh) return false;
      problems_.push_back(
          {dir_path, std::string("cannot list directory: ") + std::strerror(errno)});
      out.entries[dir.out].child_count = 0;
      return true;
    }
    if (!open) {
      // The common case of a per-change copy of the whole tree: nothing in this directory to
      // read again, so its children are copied in place, without a temporary or a name lookup.
      const uint32_t end = old_dir->first_child + old_dir->child_count;
      for (uint32_t k = old_dir->first_child; k < end; ++k) {
        const uint32_t index = size_;
        TreeEntry& entry = place(out, old_.entries[k]);
        entry.parent = dir.out;
        entry.first_child = 0;
        entry.child_count = 0;
        origin.push_back(k);
        if (S_ISDIR(entry.mode) && !excluded(entry)) pending_.push_back({index, k});
      }
      read_.resize(size_, false);
      copied_.resize(size_, true);
      count = old_dir->child_count;
    } else if (fresh) {
      std::vector<std::string> names;
      std::string error;
      const int list_fd = ::dup(dir_fd);
      if (list_fd < 0 || !list_names(list_fd, names, error)) {
        if (list_fd < 0) error = std::strerror(errno);
        problems_.push_back({dir_path, "cannot list directory: " + error});
      }
      for (const std::string& name : names) {
        read_again(out, origin, dir_fd, dir.out, name, kNoOrigin, count);
      }
    } else {
      static const std::set<std::string> kNone;
      const std::set<std::string>& names = reread == reread_.end() ? kNone : reread->second;
      auto name = names.begin();
      for (uint32_t k = old_dir->first_child; k < old_dir->first_child + old_dir->child_count;
           ++k) {
        // Most directories have no name to read again: their children are copied without
        // looking at their names (a per-change copy of the whole tree, so every byte counts).
        if (name != names.end()) {
          const std::string_view old_name = child_name(old_dir->path, old_.entries[k].path);
          for (; name != names.end() && *name < old_name; ++name) {
            read_again(out, origin, dir_fd, dir.out, *name, kNoOrigin, count);
          }
          if (name != names.end() && *name == old_name) {
            read_again(out, origin, dir_fd, dir.out, *name, k, count);
            ++name;
            continue;
          }
        }
        // (Copied in place: no temporary to move and destroy.)
        const uint32_t index = size_;
        TreeEntry& entry = place(out, old_.entries[k]);
        entry.parent = dir.out;
        entry.first_child = 0;
        entry.child_count = 0;
        const bool restat = S_ISDIR(entry.mode) && reread_.contains(k);
        if (restat) {
          // A directory whose children changed: its own times and link count moved.
          const std::string old_name(child_name(old_dir->path, old_.entries[k].path));
          std::string problem;
          if (read_entry(dir_fd, old_name, entry, problem) != 0 ||
              !S_ISDIR(entry.mode) || entry.inode != old_.entries[k].inode) {
            return false;
          }
        }
        origin.push_back(k);
        read_.push_back(false);
        copied_.push_back(restat ? 0 : 1);
        ++count;
        if (S_ISDIR(entry.mode) && !excluded(entry)) pending_.push_back({index, k});
      }
      for (; name != names.end(); ++name) {
        read_again(out, origin, dir_fd, dir.out, *name, kNoOrigin, count);
      }
    }
    out.entries[dir.out].child_count = count;
    return true;
  }

  // The other names of files whose link count changed (kept from the old tree so far).
  bool restat_other_names(SourceTree& out) {
    if (linked_.empty()) return true;
    for (uint32_t i = 1; i < out.entries.size(); ++i) {
      TreeEntry& entry = out.entries[i];
      if (read_[i] || S_ISDIR(entry.mode) || !linked_.contains({entry.device, entry.inode})) {
        continue;
      }
      UniqueFd dir_fd(open_beneath(root_fd_, std::string(parent_of(entry.path)),
                                   O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      std::string problem;
      if (dir_fd.get() < 0 ||
          read_entry(dir_fd.get(), std::string(name_of(entry.path)), entry, problem) != 0) {
        return false;
      }
      copied_[i] = false;
    }
    return true;
  }

  const SourceTree& old_;
  const ScanOptions& options_;
  const int root_fd_;
  bool restat_root_ = false;
  std::map<uint32_t, std::set<std::string>> reread_;  // old directory -> names to read again
  std::vector<std::string> reread_paths_;
  std::vector<Pending> pending_;
  std::vector<uint8_t> read_;      // by entry of the result: read from the disk
  std::vector<uint8_t> copied_;    // by entry of the result: see rescan_paths' `copied`
  std::set<FileKey> linked_;       // files whose link count may have changed
  std::vector<ScanProblem> problems_;
  uint32_t size_ = 0;  // entries placed in the result
};

}  // namespace

std::optional<SourceTree> rescan_paths(const SourceTree& tree, std::span<const std::string> paths,
                                       const ScanOptions& options, std::vector<uint32_t>* origin,
                                       std::vector<uint8_t>* copied,
                                       std::vector<TreeEntry> storage, int root_fd) {
  if (tree.entries.empty()) return std::nullopt;
  // The repository directory itself may have been replaced (deleted or renamed away and made
  // again): its path must still name the directory the tree is of.
  const UniqueFd opened(
      root_fd >= 0 ? -1 : ::open(tree.root.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  struct stat st {};
  if (root_fd >= 0) {
    if (::fstatat(AT_FDCWD, tree.root.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
  } else {
    if (opened.get() < 0 || ::fstat(opened.get(), &st) != 0) return std::nullopt;
    root_fd = opened.get();
  }
  if (!S_ISDIR(st.st_mode) || st.st_ino != tree.entries[0].inode ||
      st.st_dev != tree.entries[0].device) {
    return std::nullopt;
  }
  Patcher patcher(tree, options, root_fd);
  for (const std::string& path : paths) patcher.add(path);
  SourceTree out;
  out.entries = std::move(storage);
  out.entries.reserve(tree.entries.size() + paths.size());
  std::vector<uint32_t> origins;
  origins.reserve(tree.entries.size() + paths.size());
  if (!patcher.run(out, origins)) return std::nullopt;
  if (origin != nullptr) *origin = std::move(origins);
  if (copied != nullptr) *copied = std::move(patcher).copied();
  return out;
}

}  // namespace anchorfs::analysis
