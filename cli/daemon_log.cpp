// Timestamped log lines of a running mount (refreshes, warnings).
#include "cli/daemon_log.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <ctime>

#include "fs/private_file.h"

namespace anchorfs::cli {
namespace {

void write_fd(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

DaemonLog::DaemonLog(const std::string& file, bool also_file) {
  if (also_file && !file.empty()) {
    file_fd_ = fs::open_private_file(file, fs::PrivateOpen::Append).fd;
  }
}

DaemonLog::~DaemonLog() {
  if (file_fd_ >= 0) ::close(file_fd_);
}

void DaemonLog::write(const std::string& line) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &local);
  const std::string text = fmt::format("{} anchorfs: {}\n", stamp, line);
  const sync::MutexLock lock(mutex_);
  write_fd(STDERR_FILENO, text);
  if (file_fd_ >= 0) write_fd(file_fd_, text);
}

}  // namespace anchorfs::cli
