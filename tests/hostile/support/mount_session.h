// A running `anchorfs mount -f` for tests: bounded start-up, watchdog, guaranteed cleanup.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/hostile/support/process.h"

namespace anchorfs::testing {

// Paths of the binaries under test, compiled in by CMake.
const std::string& anchorfs_binary();

// True when /proc/self/mountinfo lists a FUSE mount at `mountpoint` (never touches the mount).
bool is_fuse_mounted(const std::string& mountpoint);
// The mountinfo super options of the mount at `mountpoint` ("" if not mounted).
std::string mount_super_options(const std::string& mountpoint);

// Last resort cleanup that cannot block: lazy unmount through fusermount3 and umount2.
void force_unmount(const std::string& mountpoint);

// Calls `on_expire` once if not disarmed within `limit`. Used so that a hung FUSE request fails
// the test (the callback kills the daemon, which aborts every pending request) instead of
// blocking CI.
class Watchdog {
 public:
  Watchdog(std::chrono::milliseconds limit, std::function<void()> on_expire);
  ~Watchdog();
  bool expired() const { return expired_; }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool disarmed_ = false;
  std::atomic<bool> expired_{false};
  std::thread thread_;
};

struct MountOptions {
  std::vector<std::string> extra_args;  // e.g. {"--view", "topo"}
  bool verbose = true;
  bool drop_dac_capabilities = true;  // the daemon obeys permission bits (see docs)
  std::chrono::milliseconds ready_timeout{120'000};
  std::string cache_home;  // XDG_CACHE_HOME for the daemon; empty: <mountpoint>.cache
};

class MountSession {
 public:
  // Starts the daemon and waits until the mount is listed and the daemon said it serves (its
  // "anchorfs: mounted ..." line, so log() holds the summary); throws with the daemon's log when it
  // exits first or the timeout passes.
  MountSession(std::string repo, std::string mountpoint, const MountOptions& options = {});
  ~MountSession();  // unmounts (bounded) and kills the daemon if still alive

  pid_t daemon_pid() const { return daemon_->pid(); }
  const std::string& mountpoint() const { return mountpoint_; }
  const std::string& repo() const { return repo_; }
  const std::string& cache_home() const { return cache_home_; }
  bool daemon_running() { return daemon_->running(); }
  std::string log() const;  // daemon stdout + stderr so far
  double startup_seconds() const { return startup_seconds_; }

  // `anchorfs unmount [extra]` (bounded); returns its result.
  RunResult unmount(const std::vector<std::string>& extra = {});
  // Waits for the daemon to exit after an unmount or a signal.
  std::optional<ExitStatus> wait_daemon(std::chrono::milliseconds timeout);
  void signal(int sig) { daemon_->signal(sig); }
  ExitStatus kill_daemon() { return daemon_->kill_and_wait(); }
  // What killing the daemon from a watchdog does: abort pending requests, detach the mount.
  void abort();

 private:
  std::string repo_;
  std::string mountpoint_;
  std::string cache_home_;
  std::string out_path_;
  std::string err_path_;
  std::unique_ptr<Child> daemon_;
  double startup_seconds_ = 0;
};

// Reads /proc/PID/status VmRSS in KiB (0 if the process is gone).
long rss_kib(pid_t pid);

}  // namespace anchorfs::testing
