// The signal-waiting thread of a mount: clean unmount on SIGTERM/SIGINT/SIGHUP.
#include "cli/signal_waiter.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "fs/server.h"

namespace anchorfs::cli {
namespace {

// SIGUSR1 only wakes the waiting thread when the waiter is destroyed.
sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) sigaddset(&set, sig);
  return set;
}

}  // namespace

SignalWaiter::SignalWaiter() {
  const sigset_t set = handled_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  thread_ = std::thread([this] { wait_loop(); });
}

SignalWaiter::~SignalWaiter() {
  finished();
  pthread_kill(thread_.native_handle(), SIGUSR1);
  thread_.join();
}

void SignalWaiter::mounting() {
  const sync::MutexLock lock(mutex_);
  phase_ = Phase::Mounting;
}

void SignalWaiter::serving(fs::Server& server) {
  const sync::MutexLock lock(mutex_);
  phase_ = Phase::Serving;
  server_ = &server;
  if (stop_requested_) server_->stop();
}

void SignalWaiter::finished() {
  const sync::MutexLock lock(mutex_);
  phase_ = Phase::Finished;
  server_ = nullptr;
}

void SignalWaiter::wait_loop() {
  const sigset_t set = handled_signals();
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0) continue;
    const sync::MutexLock lock(mutex_);
    switch (phase_) {
      case Phase::Analysing:
        if (sig != SIGUSR1) ::_exit(128 + sig);
        break;
      case Phase::Mounting:
        if (sig != SIGUSR1) stop_requested_ = true;
        break;
      case Phase::Serving:
        if (sig != SIGUSR1) server_->stop();
        break;
      case Phase::Finished:
        return;
    }
  }
}

}  // namespace anchorfs::cli
