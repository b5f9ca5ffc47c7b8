// Lets `anchorfs unmount` wait until the daemon serving a mount has let go of everything.
#pragma once

#include <chrono>
#include <string>

namespace anchorfs::cli {

// Held by a mount's daemon for its whole life: an abstract socket named after the mount's device
// ("major:minor" in mountinfo), released by the kernel when the process is gone.
class DaemonPresence {
 public:
  explicit DaemonPresence(const std::string& device);  // best effort: nothing on failure
  ~DaemonPresence();
  DaemonPresence(const DaemonPresence&) = delete;
  DaemonPresence& operator=(const DaemonPresence&) = delete;

 private:
  int fd_ = -1;
};

// Waits until no process holds the DaemonPresence of `device` (the daemon exited, and with it
// every descriptor it held in other mounts) or `limit` passes; returns whether it did.
bool wait_for_daemon_exit(const std::string& device, std::chrono::milliseconds limit);

}  // namespace anchorfs::cli
