// Spawning and bounded waiting for the test helpers' child processes.
#include "tests/hostile/support/process.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace anchorfs::testing {
namespace {

ExitStatus decode(int raw) {
  ExitStatus status;
  if (WIFEXITED(raw)) {
    status.exited = true;
    status.code = WEXITSTATUS(raw);
  } else if (WIFSIGNALED(raw)) {
    status.signal = WTERMSIG(raw);
  }
  return status;
}

void redirect(int target, const std::string& path) {
  const int fd = ::open(path.empty() ? "/dev/null" : path.c_str(),
                        O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || ::dup2(fd, target) < 0) ::_exit(126);
  ::close(fd);
}

// Everything exec needs, built before fork: the child of a threaded process must not allocate.
struct ExecPlan {
  std::vector<std::string> strings;
  std::vector<char*> argv;
  std::vector<char*> envp;
};

ExecPlan plan_exec(const std::vector<std::string>& argv, const SpawnOptions& options) {
  ExecPlan plan;
  plan.strings = argv;
  plan.strings.insert(plan.strings.end(), options.extra_env.begin(), options.extra_env.end());
  for (size_t i = 0; i < argv.size(); ++i) plan.argv.push_back(plan.strings[i].data());
  plan.argv.push_back(nullptr);
  for (size_t i = argv.size(); i < plan.strings.size(); ++i) {
    plan.envp.push_back(plan.strings[i].data());
  }
  for (char** env = environ; *env != nullptr; ++env) plan.envp.push_back(*env);
  plan.envp.push_back(nullptr);
  return plan;
}

// Runs in the forked child only: async-signal-safe calls, then exec.
[[noreturn]] void exec_child(const ExecPlan& plan, const SpawnOptions& options) {
  ::setpgid(0, 0);
  const int null_in = ::open("/dev/null", O_RDONLY);
  if (null_in >= 0) ::dup2(null_in, STDIN_FILENO);
  redirect(STDOUT_FILENO, options.stdout_path);
  redirect(STDERR_FILENO, options.stderr_path);
  if (options.drop_dac_capabilities) {
    if (::prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) != 0 ||
        ::prctl(PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0) != 0) {
      ::_exit(125);
    }
  }
  if (options.run_as_uid) {
    // No supplementary group of ours either (root's group 0 would open group-readable files).
    if (::setgroups(0, nullptr) != 0 || ::setgid(*options.run_as_uid) != 0 ||
        ::setuid(*options.run_as_uid) != 0) {
      ::_exit(124);
    }
  }
  ::execvpe(plan.argv[0], plan.argv.data(), plan.envp.data());
  ::_exit(127);
}

}  // namespace

std::string ExitStatus::describe() const {
  if (exited) return "exit code " + std::to_string(code);
  if (signal != 0) return std::string("killed by signal ") + ::strsignal(signal);
  return "unknown status";
}

Child::Child(const std::vector<std::string>& argv, const SpawnOptions& options) {
  const ExecPlan plan = plan_exec(argv, options);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid_ == 0) exec_child(plan, options);
}

Child::~Child() {
  if (!status_ && pid_ > 0) kill_and_wait();
}

bool Child::running() {
  return !wait_for(std::chrono::milliseconds(0)).has_value();
}

std::optional<ExitStatus> Child::wait_for(std::chrono::milliseconds timeout) {
  if (status_) return status_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int raw = 0;
    const pid_t done = ::waitpid(pid_, &raw, WNOHANG);
    if (done == pid_) {
      status_ = decode(raw);
      return status_;
    }
    if (done < 0 && errno != EINTR) {
      status_ = ExitStatus{};
      return status_;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void Child::signal(int sig) {
  if (!status_ && pid_ > 0) ::kill(pid_, sig);
}

ExitStatus Child::kill_and_wait() {
  if (status_) return *status_;
  ::kill(pid_, SIGKILL);
  int raw = 0;
  while (::waitpid(pid_, &raw, 0) < 0 && errno == EINTR) {
  }
  status_ = decode(raw);
  return *status_;
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

RunResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
              const SpawnOptions& options) {
  char dir_template[] = "/tmp/anchorfs-run-XXXXXX";
  const char* dir = ::mkdtemp(dir_template);
  if (dir == nullptr) throw std::runtime_error("mkdtemp failed");
  SpawnOptions captured = options;
  captured.stdout_path = std::string(dir) + "/out";
  captured.stderr_path = std::string(dir) + "/err";
  RunResult result;
  {
    Child child(argv, captured);
    auto status = child.wait_for(timeout);
    if (!status) {
      result.timed_out = true;
      status = child.kill_and_wait();
    }
    result.status = *status;
  }
  result.out = read_text_file(captured.stdout_path);
  result.err = read_text_file(captured.stderr_path);
  ::unlink(captured.stdout_path.c_str());
  ::unlink(captured.stderr_path.c_str());
  ::rmdir(dir);
  return result;
}

}  // namespace anchorfs::testing
