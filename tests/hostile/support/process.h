// Child processes for the hostile and stress tests: spawn with captured output, bounded waits.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/wait.h"

namespace anchorfs::testing {

struct SpawnOptions {
  std::string stdout_path;  // empty: /dev/null
  std::string stderr_path;  // empty: /dev/null
  // Drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH before exec: root then obeys permission bits
  // like an ordinary owner, so chmod 000 really is unreadable to the child.
  bool drop_dac_capabilities = false;
  std::optional<uid_t> run_as_uid;     // setgid/setuid before exec (e.g. nobody)
  std::vector<std::string> extra_env;  // NAME=value
};

// How a child ended.
struct ExitStatus {
  bool exited = false;  // false: killed by `signal`
  int code = -1;
  int signal = 0;
  bool ok() const { return exited && code == 0; }
  std::string describe() const;
};

class Child {
 public:
  Child(const std::vector<std::string>& argv, const SpawnOptions& options = {});
  ~Child();  // kills (SIGKILL) and reaps a child still running
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  bool running();
  // Waits at most `timeout`; nullopt if still running.
  std::optional<ExitStatus> wait_for(std::chrono::milliseconds timeout);
  void signal(int sig);
  ExitStatus kill_and_wait();

 private:
  pid_t pid_ = -1;
  std::optional<ExitStatus> status_;
};

struct RunResult {
  ExitStatus status;
  bool timed_out = false;
  std::string out;
  std::string err;
};

// Runs to completion or kills it after `timeout`; output captured through temporary files.
RunResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
              const SpawnOptions& options = {});

std::string read_text_file(const std::string& path);

using test_support::timeout_scale;
using test_support::wait_until;

}  // namespace anchorfs::testing
