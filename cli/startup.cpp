// Startup reporting for `anchorfs mount`: throttled progress, summary, and the daemon pipe.
#include "cli/startup.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>

#include "cli/cli_error.h"

namespace anchorfs::cli {
namespace {

constexpr auto kProgressInterval = std::chrono::milliseconds(100);

void write_stderr(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

// Takes `mutex` for a progress line unless another thread holds it: only the final line waits
// for it, so a worker never blocks behind another that is already printing.
bool take_progress_turn(sync::Mutex& mutex, size_t done, size_t total) TRY_ACQUIRE(true, mutex) {
  if (mutex.try_lock()) return true;
  if (done != total) return false;
  mutex.lock();
  return true;
}

// At most one progress line per interval, plus always the final one; `last` is the last one's.
bool progress_due(std::chrono::steady_clock::time_point& last, size_t done, size_t total) {
  const auto now = std::chrono::steady_clock::now();
  if (done != total && now - last < kProgressInterval) return false;
  last = now;
  return true;
}

// Once every file is parsed the whole-repository resolution runs, silently: say so.
std::string progress_text(size_t done, size_t total) {
  return fmt::format("\ranchorfs: parsed {}/{} files{}", done, total,
                     done == total ? "; resolving the graph..." : "");
}

volatile sig_atomic_t parent_interrupted = 0;
void on_parent_signal(int) {
  parent_interrupted = 1;
}

}  // namespace

ForegroundReporter::ForegroundReporter() : terminal_(::isatty(STDERR_FILENO) == 1) {}

void ForegroundReporter::progress(size_t done, size_t total) {
  if (!terminal_ || !take_progress_turn(mutex_, done, total)) return;
  const sync::MutexLock lock(mutex_, std::adopt_lock);
  if (!progress_due(last_, done, total) || ready_) return;
  progress_shown_ = true;
  write_stderr(progress_text(done, total));
}

void ForegroundReporter::note(std::string_view line) {
  const sync::MutexLock lock(mutex_);
  if (progress_shown_) write_stderr("\n");
  progress_shown_ = false;
  write_stderr(fmt::format("anchorfs: {}\n", line));
}

void ForegroundReporter::ready(std::string_view summary) {
  const sync::MutexLock lock(mutex_);
  if (progress_shown_) write_stderr("\r\033[K");
  progress_shown_ = false;
  ready_ = true;
  write_stderr(fmt::format("anchorfs: {}\n", summary));
}

void PipeReporter::close_pipe() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void PipeReporter::send(std::string_view kind, std::string_view text) {
  if (fd_ < 0) {
    if (kind == "note") write_stderr(fmt::format("anchorfs: {}\n", text));
    return;
  }
  std::string line(kind);
  line += ' ';
  for (char c : text) line += c == '\n' ? ' ' : c;
  line += '\n';
  std::string_view rest = line;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd_, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone; carry on (it may have been interrupted)
    rest.remove_prefix(static_cast<size_t>(n));
  }
}

void PipeReporter::progress(size_t done, size_t total) {
  if (!take_progress_turn(mutex_, done, total)) return;
  const sync::MutexLock lock(mutex_, std::adopt_lock);
  if (progress_due(last_, done, total)) send("progress", fmt::format("{} {}", done, total));
}

void PipeReporter::note(std::string_view line) {
  const sync::MutexLock lock(mutex_);
  send("note", line);
}

void PipeReporter::ready(std::string_view summary) {
  const sync::MutexLock lock(mutex_);
  send("ready", summary);
  close_pipe();
}

void PipeReporter::failed(std::string_view message, std::string_view hint) {
  const sync::MutexLock lock(mutex_);
  if (!hint.empty()) send("hint", hint);
  send("error", message);
  close_pipe();
}

int relay_startup(int fd, pid_t child) {
  struct sigaction action {};
  action.sa_handler = on_parent_signal;  // no SA_RESTART: read() returns EINTR
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);

  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  bool progress_shown = false;
  auto end_progress = [&] {
    if (progress_shown) write_stderr("\r\033[K");
    progress_shown = false;
  };
  std::string buffer;
  std::string hint;  // sent before the error it follows
  char chunk[4096];
  for (;;) {
    if (parent_interrupted) {
      ::kill(child, SIGTERM);
      end_progress();
      write_stderr("anchorfs: mount: interrupted; the mount was not made\n");
      ::waitpid(child, nullptr, 0);
      return kExitRuntime;
    }
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buffer.append(chunk, static_cast<size_t>(n));
    size_t newline;
    while ((newline = buffer.find('\n')) != std::string::npos) {
      const std::string line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      const size_t space = line.find(' ');
      const std::string kind = line.substr(0, space);
      const std::string text = space == std::string::npos ? "" : line.substr(space + 1);
      if (kind == "progress") {
        if (!terminal) continue;
        const size_t split = text.find(' ');
        write_stderr(
            progress_text(std::stoul(text.substr(0, split)), std::stoul(text.substr(split + 1))));
        progress_shown = true;
      } else if (kind == "note") {
        if (progress_shown) write_stderr("\n");
        progress_shown = false;
        write_stderr(fmt::format("anchorfs: {}\n", text));
      } else if (kind == "ready") {
        end_progress();
        write_stderr(fmt::format("anchorfs: {}\n", text));
        return kExitOk;
      } else if (kind == "hint") {
        hint = text;
      } else if (kind == "error") {
        end_progress();
        write_stderr(fmt::format("anchorfs: {}\n", text));
        if (!hint.empty()) write_stderr(fmt::format("anchorfs: {}\n", hint));
        ::waitpid(child, nullptr, 0);
        return kExitRuntime;
      }
    }
  }
  end_progress();
  int status = 0;
  std::string why = "exited";
  if (::waitpid(child, &status, 0) == child) {
    if (WIFSIGNALED(status)) {
      why = fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                        strsignal(WTERMSIG(status)));
    } else if (WIFEXITED(status)) {
      why = fmt::format("exited with status {}", WEXITSTATUS(status));
    }
  }
  write_stderr(fmt::format("anchorfs: mount: the daemon {} before the mount was ready\n", why));
  return kExitRuntime;
}

}  // namespace anchorfs::cli
