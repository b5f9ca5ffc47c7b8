// How a mount in progress reports to the user: directly (foreground) or over a pipe (daemon).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "sync/mutex.h"

namespace anchorfs::cli {

class StartupReporter {
 public:
  virtual ~StartupReporter() = default;
  // Files parsed so far; thread-safe (called from analysis workers), cheap when throttled.
  virtual void progress(size_t done, size_t total) = 0;
  // A line for --verbose (skipped files and why).
  virtual void note(std::string_view line) = 0;
  // The mount serves: print the summary line.
  virtual void ready(std::string_view summary) = 0;
};

// Writes straight to stderr; progress only when stderr is a terminal.
class ForegroundReporter : public StartupReporter {
 public:
  ForegroundReporter();
  void progress(size_t done, size_t total) override;
  void note(std::string_view line) override;
  void ready(std::string_view summary) override;

 private:
  const bool terminal_;
  sync::Mutex mutex_;
  // Later analyses (refreshes) report in the log, not as progress.
  bool ready_ GUARDED_BY(mutex_) = false;
  std::chrono::steady_clock::time_point last_ GUARDED_BY(mutex_){};
  bool progress_shown_ GUARDED_BY(mutex_) = false;
};

// The daemon side of the startup pipe: one line per message ("progress D T", "note ...",
// "ready ...", "error ..."). The parent relays them (see relay_startup). ready() and failed()
// close the pipe (the parent exits then); later notes go to stderr (the daemon's log).
class PipeReporter : public StartupReporter {
 public:
  explicit PipeReporter(int fd) : fd_(fd) {}
  void progress(size_t done, size_t total) override;
  void note(std::string_view line) override;
  void ready(std::string_view summary) override;
  // The mount failed: the parent prints `message` (then `hint`, unless empty) and exits 1.
  void failed(std::string_view message, std::string_view hint);

 private:
  void send(std::string_view kind, std::string_view text) REQUIRES(mutex_);
  void close_pipe() REQUIRES(mutex_);
  sync::Mutex mutex_;
  int fd_ GUARDED_BY(mutex_);
  std::chrono::steady_clock::time_point last_ GUARDED_BY(mutex_){};
};

// The parent side: relays the child's messages until it is ready (returns 0) or failed / died
// (prints why, returns 1). Interrupting the parent (Ctrl-C) stops the child.
int relay_startup(int fd, pid_t child);

}  // namespace anchorfs::cli
