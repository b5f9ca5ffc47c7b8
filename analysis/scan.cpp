// Walks a repository with lstat semantics into a SourceTree (no symlink is ever followed).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>

#include "analysis/open_beneath.h"
#include "analysis/plain_threads.h"
#include "analysis/scan_entry.h"
#include "analysis/source_tree.h"
#include "sync/cond_var.h"
#include "sync/mutex.h"

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

namespace {

// One directory's listing, made by whichever thread took it: its children sorted by name (paths
// and attributes set, parents not yet), and the problems in the order a one-thread walk meets them.
struct Listing {
  std::string path;
  std::vector<TreeEntry> children;
  std::vector<uint32_t> entered;  // per child: the listing of the directory it is, or kNone
  std::vector<ScanProblem> problems;
};
constexpr uint32_t kNone = UINT32_MAX;

// The directories still to list, handed out to the walking threads; each listing lands in its
// own slot (a deque: slots stay put while others are added).
class Walk {
 public:
  explicit Walk(const ScanOptions& options) : options_(options) {}

  // Lists directories until none is left and no thread is listing one (which could find more).
  void run(int root_fd) EXCLUDES(mutex_) {
    DirectoryNames names;
    std::string error;
    std::string problem;
    for (;;) {
      Listing* listing = nullptr;
      {
        const sync::MutexLock lock(mutex_);
        while (next_ == listings_.size() && busy_ > 0 && !failed_) more_.wait(mutex_);
        if (next_ == listings_.size() || failed_) {
          more_.notify_all();
          return;
        }
        listing = &listings_[next_++];
        ++busy_;
      }
      std::vector<std::string> found;  // subdirectories to enter, by child position
      try {
        list(root_fd, *listing, names, error, problem, found);
      } catch (...) {
        const sync::MutexLock lock(mutex_);
        failed_ = true;  // the others stop too: run_on_threads rethrows this
        more_.notify_all();
        throw;
      }
      const sync::MutexLock lock(mutex_);
      for (size_t k = 0; k < found.size(); ++k) {
        if (found[k].empty()) continue;
        listing->entered[k] = static_cast<uint32_t>(listings_.size());
        listings_.emplace_back().path = std::move(found[k]);
      }
      --busy_;
      more_.notify_all();
    }
  }

  // Starts the walk at the root.
  void start() EXCLUDES(mutex_) {
    const sync::MutexLock lock(mutex_);
    listings_.emplace_back();
  }
  // After run() on every thread: the listings by slot (0: the root).
  std::deque<Listing> take() EXCLUDES(mutex_) {
    const sync::MutexLock lock(mutex_);
    return std::move(listings_);
  }

 private:
  void list(int root_fd, Listing& listing, DirectoryNames& names, std::string& error,
            std::string& problem, std::vector<std::string>& found) {
    const int dir_fd = open_beneath(root_fd, listing.path, kListFlags);
    if (dir_fd < 0) {
      listing.problems.push_back(
          {listing.path, std::string("cannot list directory: ") + std::strerror(errno)});
      return;
    }
    if (options_.on_directory) options_.on_directory(listing.path, dir_fd);  // before the listing
    if (!names.read(dir_fd, error)) {
      listing.problems.push_back({listing.path, "cannot list directory: " + error});
    }
    listing.children.reserve(names.names().size());
    for (const char* name : names.names()) {
      TreeEntry& entry = listing.children.emplace_back();
      entry.path = join(listing.path, name);
      if (read_entry(dir_fd, name, entry, problem) != 0) {
        listing.problems.push_back({std::move(entry.path), std::move(problem)});
        listing.children.pop_back();
        continue;
      }
      // A directory on the excluded device (the mount serving this tree, reached through a bind
      // mount) is listed but never entered.
      const bool excluded = options_.skip_device != 0 && entry.device == options_.skip_device;
      found.push_back(S_ISDIR(entry.mode) && !excluded ? entry.path : std::string());
    }
    ::close(dir_fd);
    listing.entered.assign(listing.children.size(), kNone);
  }

  const ScanOptions& options_;
  sync::Mutex mutex_;
  sync::CondVar more_;
  std::deque<Listing> listings_ GUARDED_BY(mutex_);
  size_t next_ GUARDED_BY(mutex_) = 0;      // listings_[next_...] are not taken yet
  size_t busy_ GUARDED_BY(mutex_) = 0;      // threads listing a directory
  bool failed_ GUARDED_BY(mutex_) = false;  // a listing threw
};

}  // namespace

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

  // Directories are listed on options.threads threads at once, in whatever order they come; the
  // tree is then laid out from the listings breadth-first by directory (each directory's children
  // contiguous), as one thread walking in that order would have: the same tree for any count.
  Walk walk(options);
  walk.start();
  try {
    const size_t threads =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    run_on_threads(threads, [&] { walk.run(root_fd); });
  } catch (...) {
    ::close(root_fd);
    throw;
  }
  ::close(root_fd);
  std::deque<Listing> listings = walk.take();
  size_t total = 1;
  for (const Listing& listing : listings) total += listing.children.size();
  tree.entries.reserve(total);
  std::vector<std::pair<uint32_t, uint32_t>> pending{{0, 0}};  // (entry, listing)
  for (size_t next = 0; next < pending.size(); ++next) {
    const auto [dir_index, slot] = pending[next];
    Listing& listing = listings[slot];
    tree.entries[dir_index].first_child = static_cast<uint32_t>(tree.entries.size());
    tree.entries[dir_index].child_count = static_cast<uint32_t>(listing.children.size());
    for (ScanProblem& problem : listing.problems) tree.problems.push_back(std::move(problem));
    for (size_t k = 0; k < listing.children.size(); ++k) {
      TreeEntry& entry = tree.entries.emplace_back(std::move(listing.children[k]));
      entry.parent = dir_index;
      if (listing.entered[k] != kNone) {
        pending.emplace_back(static_cast<uint32_t>(tree.entries.size() - 1), listing.entered[k]);
      }
    }
    std::vector<TreeEntry>().swap(listing.children);
  }
  return tree;
}

}  // namespace anchorfs::analysis
