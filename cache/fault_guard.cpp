// A per-thread landing pad for SIGBUS/SIGSEGV around calls into LMDB.
#include "cache/fault_guard.h"

#include <setjmp.h>
#include <signal.h>

#include <array>
#include <mutex>

namespace anchorfs::cache {
namespace {

constexpr std::array<int, 2> kSignals = {SIGBUS, SIGSEGV};

thread_local sigjmp_buf* landing = nullptr;
std::array<struct sigaction, kSignals.size()> previous_actions{};

void on_fault(int signal, siginfo_t* info, void* context) {
  if (sigjmp_buf* pad = landing) {
    landing = nullptr;
    siglongjmp(*pad, 1);
  }
  // Not ours: hand it to whoever handled it before (a sanitizer), or die as we would have.
  for (size_t i = 0; i < kSignals.size(); ++i) {
    if (kSignals[i] != signal) continue;
    const struct sigaction& old = previous_actions[i];
    if ((old.sa_flags & SA_SIGINFO) != 0 && old.sa_sigaction != nullptr) {
      old.sa_sigaction(signal, info, context);
      return;
    }
    if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN && old.sa_handler != nullptr) {
      old.sa_handler(signal);
      return;
    }
    ::signal(signal, SIG_DFL);  // the faulting instruction runs again and kills the process
  }
}

void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (size_t i = 0; i < kSignals.size(); ++i) {
      struct sigaction action {};
      action.sa_sigaction = on_fault;
      action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
      sigemptyset(&action.sa_mask);
      sigaction(kSignals[i], &action, &previous_actions[i]);
    }
  });
}

}  // namespace

void leave_guarded_body() {
  if (sigjmp_buf* pad = landing) {
    landing = nullptr;
    siglongjmp(*pad, 1);
  }
}

bool run_guarded(const std::function<void()>& body) {
  install_once();
  sigjmp_buf pad;
  sigjmp_buf* const outer = landing;
  if (sigsetjmp(pad, 1) != 0) {
    landing = outer;
    return false;
  }
  landing = &pad;
  body();
  landing = outer;
  return true;
}

}  // namespace anchorfs::cache
