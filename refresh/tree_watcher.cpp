// TreeWatcher: inotify watches per directory, an eventfd to interrupt waiting.
#include "refresh/tree_watcher.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <system_error>

#include "analysis/open_beneath.h"

namespace anchorfs::refresh {

namespace {

// No IN_DONT_FOLLOW: directories are watched through /proc/self/fd links of descriptors opened
// without following any symlink.
constexpr uint32_t kMask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB |
                           IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF |
                           IN_ONLYDIR | IN_EXCL_UNLINK;
constexpr size_t kMaxSamples = 5;
constexpr int kListFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;

std::string join(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

}  // namespace

TreeWatcher::TreeWatcher(std::string root, WatcherOptions options)
    : root_(std::move(root)), options_(std::move(options)) {
  open_descriptors();
  watch_tree("");
  watch_extra_dirs();
}

TreeWatcher::TreeWatcher(std::string root, WatcherOptions options, Unwalked)
    : root_(std::move(root)), options_(std::move(options)) {
  open_descriptors();
  watch_extra_dirs();
}

void TreeWatcher::open_descriptors() {
  root_fd_ = ::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd_ < 0) {
    throw std::system_error(errno, std::generic_category(), root_);
  }
  inotify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (inotify_fd_ < 0) {
    const int error = errno;
    ::close(root_fd_);
    throw std::system_error(error, std::generic_category(), "inotify_init1");
  }
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) {
    const int error = errno;
    ::close(inotify_fd_);
    ::close(root_fd_);
    throw std::system_error(error, std::generic_category(), "eventfd");
  }
}

void TreeWatcher::watch_extra_dirs() {
  for (const std::string& dir : options_.extra_dirs) {
    const int wd = ::inotify_add_watch(inotify_fd_, dir.c_str(), kMask);
    if (wd >= 0) paths_[wd] = dir;
  }
}

TreeWatcher::~TreeWatcher() {
  ::close(inotify_fd_);
  ::close(wake_fd_);
  ::close(root_fd_);
}

bool TreeWatcher::add_watch(const std::string& relative, int dir_fd) {
  if (options_.max_watches != 0 && paths_.size() >= options_.max_watches) {
    complete_ = false;
    return false;
  }
  // Through the descriptor, not the path: any depth, and the very directory we opened.
  const std::string path = "/proc/self/fd/" + std::to_string(dir_fd);
  const int wd = ::inotify_add_watch(inotify_fd_, path.c_str(), kMask);
  if (wd < 0) {
    // ENOSPC: the user's watch limit; ENOENT/ENOTDIR: gone or replaced meanwhile (its parent's
    // events cover that); EACCES: unreadable, so the scan cannot list it either.
    if (errno == ENOSPC || errno == ENOMEM) {
      complete_ = false;
    }
    return false;
  }
  paths_[wd] = relative;
  if (relative.empty()) {
    root_wd_ = wd;
  }
  return true;
}

void TreeWatcher::watch_tree(const std::string& relative) {
  const int dir_fd = analysis::open_beneath(root_fd_, relative, kListFlags);
  if (dir_fd < 0) {
    return;
  }
  struct stat st {};
  if (::fstat(dir_fd, &st) != 0 ||
      (options_.skip_device != 0 && st.st_dev == options_.skip_device) ||
      !add_watch(relative, dir_fd)) {
    ::close(dir_fd);
    return;
  }
  DIR* dir = ::fdopendir(dir_fd);
  if (dir == nullptr) {
    ::close(dir_fd);
    return;
  }
  std::vector<std::string> subdirs;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") {
      continue;
    }
    bool is_dir = entry->d_type == DT_DIR;
    if (entry->d_type == DT_UNKNOWN) {
      is_dir = ::fstatat(::dirfd(dir), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
               S_ISDIR(st.st_mode);
    }
    if (is_dir) {
      subdirs.push_back(join(relative, name));
    }
  }
  ::closedir(dir);
  for (const std::string& subdir : subdirs) {
    watch_tree(subdir);
  }
}

bool TreeWatcher::root_lost() const {
  struct stat held {};
  struct stat named {};
  if (root_watch_gone_ || ::fstat(root_fd_, &held) != 0 || held.st_nlink == 0) {
    return true;
  }
  return ::stat(root_.c_str(), &named) != 0 || named.st_dev != held.st_dev ||
         named.st_ino != held.st_ino;
}

void TreeWatcher::forget_tree(const std::string& relative) {
  const std::string prefix = relative + "/";
  for (auto it = paths_.begin(); it != paths_.end();) {
    if (it->second == relative || it->second.starts_with(prefix)) {
      ::inotify_rm_watch(inotify_fd_, it->first);
      it = paths_.erase(it);
    } else {
      ++it;
    }
  }
}

void TreeWatcher::drain(WatchEvents& events) {
  alignas(inotify_event) char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(inotify_fd_, buffer, sizeof buffer);
    if (n <= 0) {
      return;  // EAGAIN: drained
    }
    for (ssize_t at = 0; at < n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      if (event->mask & IN_Q_OVERFLOW) {
        events.overflowed = true;
        events.all_changed = false;
        events.changed.clear();
        ++events.count;
        continue;
      }
      const auto dir = paths_.find(event->wd);
      if (event->mask & IN_IGNORED) {
        if (dir != paths_.end()) {
          paths_.erase(dir);
        }
        if (event->wd == root_wd_) {
          root_watch_gone_ = true;
          ++events.count;
        }
        continue;
      }
      if (dir == paths_.end()) {
        continue;
      }
      const std::string path =
          event->len > 0 ? join(dir->second, std::string(event->name)) : dir->second;
      ++events.count;
      if (events.samples.size() < kMaxSamples &&
          (events.samples.empty() || events.samples.back() != path)) {
        events.samples.push_back(path);
      }
      if (events.all_changed && !dir->second.starts_with('/') &&
          (events.changed.empty() || events.changed.back() != path)) {
        events.all_changed = events.changed.size() < WatchEvents::kMaxChanged;
        if (events.all_changed) {
          events.changed.push_back(path);
        } else {
          events.changed.clear();
        }
      }
      if ((event->mask & IN_ISDIR) && !dir->second.starts_with('/')) {
        if (event->mask & (IN_CREATE | IN_MOVED_TO)) {
          watch_tree(path);  // a new or moved-in directory, with whatever it already holds
        } else if (event->mask & (IN_DELETE | IN_MOVED_FROM)) {
          forget_tree(path);
        }
      }
    }
  }
}

WatchEvents TreeWatcher::wait(std::chrono::milliseconds timeout) {
  WatchEvents events;
  pollfd fds[2] = {{inotify_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  const int ready = ::poll(fds, 2, static_cast<int>(std::max<int64_t>(0, timeout.count())));
  if (ready <= 0) {
    return events;
  }
  if (fds[1].revents & POLLIN) {
    uint64_t value = 0;
    [[maybe_unused]] const ssize_t n = ::read(wake_fd_, &value, sizeof value);
  }
  if (fds[0].revents & POLLIN) {
    drain(events);
  }
  if (events.overflowed) {
    watch_tree("");  // directories created while events were lost need their watches
  }
  return events;
}

void TreeWatcher::wake() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

}  // namespace anchorfs::refresh
