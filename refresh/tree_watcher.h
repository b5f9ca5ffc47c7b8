// Recursive inotify watch of a source tree: which directories changed, new directories included.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace anchorfs::refresh {

// What one wait() saw.
struct WatchEvents {
  size_t count = 0;                  // change events (creations, writes, deletions, renames, ...)
  std::vector<std::string> samples;  // a few changed repository-relative paths, for the log
  bool overflowed = false;           // the kernel queue overflowed: changes were lost
  // Every repository-relative path an event named (consecutive repeats once), unless there were
  // more than kMaxChanged or the queue overflowed: then empty, and `all_changed` false.
  std::vector<std::string> changed;
  bool all_changed = true;
  static constexpr size_t kMaxChanged = 4096;
};

struct WatcherOptions {
  size_t max_watches = 0;  // 0: as many as the kernel allows; else stop at this many (a budget)
  // Directories on this device (st_dev; 0: none) are never watched nor entered: the mount serving
  // the tree, should it be reachable from inside it. Deciding needs an fstat of the directory,
  // which the mount answers only while it serves: watch after serving has started.
  uint64_t skip_device = 0;
  // Absolute directories outside the tree watched too, without their subdirectories (a linked
  // worktree's git directories); their events are sampled by absolute path.
  std::vector<std::string> extra_dirs;
};

// Thread-safety: wait() and the queries from one thread; wake() from any thread.
class TreeWatcher {
 public:
  // Watches `root` and every directory below it (symlinks are not followed). Throws
  // std::system_error when inotify itself is unavailable (no instances left) or `root` cannot be
  // opened.
  explicit TreeWatcher(std::string root, WatcherOptions options = {});
  // Watches nothing below `root` yet: the caller's own walk of the tree (the mount's scan) adds
  // each directory with watch_directory() after opening it and before listing it, so every change
  // made after that walk saw a directory raises an event, and the tree is walked once, not twice.
  struct Unwalked {};
  TreeWatcher(std::string root, WatcherOptions options, Unwalked);
  ~TreeWatcher();
  TreeWatcher(const TreeWatcher&) = delete;
  TreeWatcher& operator=(const TreeWatcher&) = delete;

  // False once a directory could not be watched (watch limit or budget reached): changes below
  // it go unnoticed, so the caller must also rescan periodically.
  bool complete() const { return complete_; }
  // True once the root directory itself was deleted, or its path names another directory or
  // nothing (moved away, replaced): the caller makes a new watcher when the path names a directory
  // again. (inotify says IN_DELETE_SELF only once nobody holds the directory, and we do.)
  bool root_lost() const;
  size_t watch_count() const { return paths_.size(); }

  // Waits up to `timeout` for change events and drains them; watches directories that appeared.
  // Returns early (possibly with count 0) after wake().
  WatchEvents wait(std::chrono::milliseconds timeout);
  void wake();

  // Watches the directory open as `dir_fd` at `relative` (repository-relative; "" for the root);
  // false when it could not (then complete() may turn false). One call at a time, before the
  // events are first waited for: the mount's first scan calls it from its walking threads under a
  // lock (cli/cmd_mount.cpp).
  bool watch_directory(const std::string& relative, int dir_fd) {
    return add_watch(relative, dir_fd);
  }
  // From now on, directories that appear on `device` are neither watched nor entered.
  void skip_device(uint64_t device) { options_.skip_device = device; }

 private:
  void open_descriptors();  // the root, inotify and wake descriptors (throws std::system_error)
  void watch_extra_dirs();
  void watch_tree(const std::string& relative);  // adds watches for a directory and below
  // Watches the directory open as `dir_fd` (relative path `relative`); false if it could not.
  bool add_watch(const std::string& relative, int dir_fd);
  void forget_tree(const std::string& relative);  // drops watches of a removed directory
  void drain(WatchEvents& events);

  std::string root_;
  WatcherOptions options_;
  int root_fd_ = -1;  // O_PATH of the root: directories are opened beneath it, never by full path
  int inotify_fd_ = -1;
  int wake_fd_ = -1;
  bool complete_ = true;
  int root_wd_ = -1;
  bool root_watch_gone_ = false;                // the kernel dropped the root's watch (IN_IGNORED)
  std::unordered_map<int, std::string> paths_;  // watch descriptor -> relative directory
};

}  // namespace anchorfs::refresh
