// The mount's log: timestamped lines to stderr (the terminal, or the daemon's --log file) and,
// in the foreground with --log, to that file too.
#pragma once

#include <string>

#include "sync/mutex.h"

namespace anchorfs::cli {

class DaemonLog {
 public:
  // `file` ("" for none) is opened for appending (created 0600) only when `also_file` is set:
  // a daemon's stderr already is its log file.
  DaemonLog(const std::string& file, bool also_file);
  ~DaemonLog();
  DaemonLog(const DaemonLog&) = delete;
  DaemonLog& operator=(const DaemonLog&) = delete;

  void write(const std::string& line);  // thread-safe

 private:
  sync::Mutex mutex_;  // keeps lines whole when threads log at once (guards the output)
  int file_fd_ = -1;   // fixed once constructed
};

}  // namespace anchorfs::cli
