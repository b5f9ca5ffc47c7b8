// Test-side control of an anchorfs daemon: start, readiness, watchdog, cleanup.
#include "tests/hostile/support/mount_session.h"

#include <signal.h>
#include <sys/mount.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tests/support/mount_table.h"

namespace anchorfs::testing {
const std::string& anchorfs_binary() {
  // ANCHORFS_TEST_BINARY in the environment runs the suites against another build (e.g. main's,
  // to watch a new test fail before its fix).
  static const std::string path = [] {
    const char* other = std::getenv("ANCHORFS_TEST_BINARY");
    return std::string(other != nullptr && *other != '\0' ? other : ANCHORFS_TEST_BINARY);
  }();
  return path;
}

bool is_fuse_mounted(const std::string& mountpoint) {
  for (const test_support::MountEntry& entry : test_support::mount_table()) {
    if (entry.mount_point == mountpoint && entry.fstype.rfind("fuse", 0) == 0) return true;
  }
  return false;
}

std::string mount_super_options(const std::string& mountpoint) {
  std::string options;
  for (const test_support::MountEntry& entry : test_support::mount_table()) {
    if (entry.mount_point == mountpoint) options = entry.super_options;
  }
  return options;
}

void force_unmount(const std::string& mountpoint) {
  for (int attempt = 0; attempt < 4 && is_fuse_mounted(mountpoint); ++attempt) {
    run({"fusermount3", "-u", "-z", mountpoint}, std::chrono::seconds(5));
    if (is_fuse_mounted(mountpoint)) ::umount2(mountpoint.c_str(), MNT_DETACH);
  }
}

Watchdog::Watchdog(std::chrono::milliseconds limit, std::function<void()> on_expire)
    : thread_([this, limit, on_expire = std::move(on_expire)] {
        std::unique_lock lock(mutex_);
        if (!wake_.wait_for(lock, limit, [this] { return disarmed_; })) {
          expired_ = true;
          lock.unlock();
          on_expire();
        }
      }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    disarmed_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

MountSession::MountSession(std::string repo, std::string mountpoint, const MountOptions& options)
    : repo_(std::move(repo)), mountpoint_(std::move(mountpoint)) {
  cache_home_ = options.cache_home.empty() ? mountpoint_ + ".cache" : options.cache_home;
  out_path_ = mountpoint_ + ".out.log";
  err_path_ = mountpoint_ + ".err.log";
  std::vector<std::string> argv{anchorfs_binary(), "mount", repo_, mountpoint_, "-f"};
  if (options.verbose) argv.push_back("--verbose");
  argv.insert(argv.end(), options.extra_args.begin(), options.extra_args.end());
  SpawnOptions spawn;
  spawn.stdout_path = out_path_;
  spawn.stderr_path = err_path_;
  spawn.drop_dac_capabilities = options.drop_dac_capabilities;
  spawn.extra_env = {"XDG_CACHE_HOME=" + cache_home_};
  const auto start = std::chrono::steady_clock::now();
  daemon_ = std::make_unique<Child>(argv, spawn);
  const auto deadline = start + options.ready_timeout * timeout_scale();
  // Ready is the daemon's own word for it: in the foreground it prints "anchorfs: mounted ..."
  // once it serves, a little after the kernel lists the mount. Waiting for the listing alone
  // let a test read the log before that line (under load, the first mount's "parsed" was missing).
  while (!is_fuse_mounted(mountpoint_) ||
         read_text_file(err_path_).find("anchorfs: mounted ") == std::string::npos) {
    if (auto status = daemon_->wait_for(std::chrono::milliseconds(20))) {
      throw std::runtime_error("anchorfs mount exited before the mount was ready (" +
                               status->describe() + "):\n" + log());
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      daemon_->kill_and_wait();
      force_unmount(mountpoint_);
      throw std::runtime_error("anchorfs mount not ready within " +
                               std::to_string(options.ready_timeout.count() * timeout_scale()) +
                               " ms:\n" + log());
    }
  }
  startup_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

MountSession::~MountSession() {
  if (daemon_->running() && is_fuse_mounted(mountpoint_)) {
    unmount();
    if (!wait_daemon(std::chrono::seconds(10))) daemon_->kill_and_wait();
  }
  daemon_->kill_and_wait();
  force_unmount(mountpoint_);
}

std::string MountSession::log() const {
  return read_text_file(out_path_) + read_text_file(err_path_);
}

RunResult MountSession::unmount(const std::vector<std::string>& extra) {
  std::vector<std::string> argv{anchorfs_binary(), "unmount", mountpoint_};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run(argv, std::chrono::seconds(30));
}

std::optional<ExitStatus> MountSession::wait_daemon(std::chrono::milliseconds timeout) {
  return daemon_->wait_for(timeout);
}

void MountSession::abort() {
  daemon_->signal(SIGKILL);
  force_unmount(mountpoint_);
}

long rss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (in >> key) {
    if (key == "VmRSS:") {
      long value = 0;
      in >> value;
      return value;
    }
    in.ignore(1 << 20, '\n');
  }
  return 0;
}

}  // namespace anchorfs::testing
