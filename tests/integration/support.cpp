// Helpers for the integration tests: subprocesses, temp trees, fingerprints, mounts.
#include "support.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace anchorfs::itest {
namespace fsys = std::filesystem;

RunOptions feeding(std::string input) {
  RunOptions options;
  options.input = std::move(input);
  return options;
}

RunOptions as_user(uid_t uid) {
  RunOptions options;
  options.uid = uid;
  return options;
}

RunOptions in_dir(std::string cwd, std::map<std::string, std::string> env) {
  RunOptions options;
  options.cwd = std::move(cwd);
  options.env = std::move(env);
  return options;
}

ProcessResult run(const std::vector<std::string>& argv, const RunOptions& options) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) || pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC)) {
    throw std::runtime_error("pipe failed");
  }
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    setpgid(0, 0);  // so a timeout can kill the whole group
    if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) _exit(126);
    for (const auto& [key, value] : options.env) setenv(key.c_str(), value.c_str(), 1);
    if (options.uid != 0) {
      if (setgid(options.uid) != 0 || setuid(options.uid) != 0) _exit(126);
    }
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Feed stdin and drain stdout/stderr together so no pipe fills up.
  ProcessResult result;
  size_t written = 0;
  int in_fd = in_pipe[1];
  if (options.input.empty()) {
    close(in_fd);
    in_fd = -1;
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_seconds);
  bool out_open = true, err_open = true, timed_out = false;
  while (out_open || err_open) {
    pollfd fds[3];
    nfds_t n = 0;
    if (out_open) fds[n++] = {out_pipe[0], POLLIN, 0};
    if (err_open) fds[n++] = {err_pipe[0], POLLIN, 0};
    if (in_fd >= 0) fds[n++] = {in_fd, POLLOUT, 0};
    if (poll(fds, n, 200) < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
      kill(-child, SIGKILL);
      break;
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == in_fd) {
        const ssize_t w =
            write(in_fd, options.input.data() + written, options.input.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 || written == options.input.size()) {
          close(in_fd);
          in_fd = -1;
        }
        continue;
      }
      char buffer[65536];
      const ssize_t r = read(fds[i].fd, buffer, sizeof buffer);
      std::string& sink = fds[i].fd == out_pipe[0] ? result.out : result.err;
      if (r > 0) {
        sink.append(buffer, static_cast<size_t>(r));
      } else {
        (fds[i].fd == out_pipe[0] ? out_open : err_open) = false;
      }
    }
  }
  if (in_fd >= 0) close(in_fd);
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    result.exit_code = -2;
    result.err += "\n[test harness: timed out]";
  } else if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

ProcessResult anchorfs(const std::vector<std::string>& args, const RunOptions& options) {
  std::vector<std::string> argv{kAnchorfs};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, options);
}

void copy_tree(const std::string& from, const std::string& to) {
  fsys::copy(from, to, fsys::copy_options::recursive | fsys::copy_options::copy_symlinks);
}

std::vector<TreeItem> list_tree(const std::string& root) {
  std::vector<TreeItem> items;
  std::error_code error;
  // Does not descend into symlinked directories; stops at nothing else.
  for (auto it = fsys::recursive_directory_iterator(
           root, fsys::directory_options::skip_permission_denied, error);
       !error && it != fsys::recursive_directory_iterator(); it.increment(error)) {
    struct stat st {};
    if (lstat(it->path().c_str(), &st) != 0) {
      // A dead mount answers ENOTCONN; report it as a directory so callers can detach it.
      items.push_back({it->path().lexically_relative(root).string(), S_IFDIR});
      it.disable_recursion_pending();
      continue;
    }
    items.push_back({it->path().lexically_relative(root).string(), st.st_mode});
    if (S_ISDIR(st.st_mode) && is_mounted(it->path().string())) it.disable_recursion_pending();
  }
  std::sort(items.begin(), items.end(),
            [](const TreeItem& a, const TreeItem& b) { return a.path < b.path; });
  return items;
}

std::string tree_fingerprint(const std::string& root) {
  std::ostringstream out;
  for (const TreeItem& item : list_tree(root)) {
    const std::string path = root + "/" + item.path;
    struct stat st {};
    lstat(path.c_str(), &st);
    out << item.path << '\0' << std::oct << st.st_mode << std::dec << '\0' << st.st_size << '\0'
        << st.st_mtim.tv_sec << '.' << st.st_mtim.tv_nsec << '\0';
    if (S_ISREG(st.st_mode)) {
      const std::string bytes = read_file(path);
      out << std::hash<std::string>{}(bytes) << '\0';
    } else if (S_ISLNK(st.st_mode)) {
      out << fsys::read_symlink(path).string() << '\0';
    }
    out << '\n';
  }
  return out.str();
}

namespace {

// Every anchorfs the tests start caches into a private directory of this test process, so runs
// never depend on (or fill) the user's cache.
struct PrivateCacheHome {
  TempDir dir{"anchorfs-xdg"};
  PrivateCacheHome() { setenv("XDG_CACHE_HOME", dir.path().c_str(), 1); }
};
const PrivateCacheHome private_cache_home;

}  // namespace


std::vector<pid_t> find_processes(const std::vector<std::string>& needles) {
  std::vector<pid_t> pids;
  for (const auto& entry : fsys::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline;
    try {
      cmdline = read_file(entry.path().string() + "/cmdline");
    } catch (const std::exception&) {
      continue;
    }
    bool all = !cmdline.empty();
    for (const std::string& needle : needles)
      all = all && cmdline.find(needle) != std::string::npos;
    if (all) pids.push_back(static_cast<pid_t>(std::stoi(name)));
  }
  return pids;
}

Mount::Mount(const std::string& repo, const std::string& mountpoint,
             const std::vector<std::string>& extra)
    : mountpoint_(mountpoint) {
  std::vector<std::string> args{"mount", repo, mountpoint};
  args.insert(args.end(), extra.begin(), extra.end());
  result_ = anchorfs(args);
}

Mount::~Mount() {
  if (!is_mounted(mountpoint_)) return;
  if (anchorfs({"unmount", mountpoint_}).exit_code != 0) umount2(mountpoint_.c_str(), MNT_DETACH);
}

}  // namespace anchorfs::itest
