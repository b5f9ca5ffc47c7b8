// DaemonPresence: an abstract unix socket per served device; free again once the daemon exits.
#include "cli/daemon_presence.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <thread>

namespace anchorfs::cli {
namespace {

// Binds the presence name of `device` on a new socket; -1 when someone else holds it.
int bind_presence(const std::string& device) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string name = "anchorfs-daemon-" + device;  // after a leading NUL: abstract
  const size_t length = std::min(name.size(), sizeof address.sun_path - 1);
  std::memcpy(address.sun_path + 1, name.data(), length);
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + length);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), size) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

DaemonPresence::DaemonPresence(const std::string& device) {
  if (!device.empty()) fd_ = bind_presence(device);
}

DaemonPresence::~DaemonPresence() {
  if (fd_ >= 0) ::close(fd_);
}

bool wait_for_daemon_exit(const std::string& device, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const int fd = bind_presence(device);
    if (fd >= 0) {
      ::close(fd);
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace anchorfs::cli
