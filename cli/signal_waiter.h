// Turns SIGTERM/SIGINT/SIGHUP into a clean stop of the server, from a thread that sigwait()s.
#pragma once

#include <thread>

#include "sync/mutex.h"

namespace anchorfs::fs {
class Server;
}

namespace anchorfs::cli {

// Construct before any other thread exists: it blocks the signals in the calling thread, so
// every thread created later (analysis workers, FUSE workers) inherits the mask and only the
// waiting thread receives them.
//  - before mounting() a signal ends the process at once (nothing to clean up yet);
//  - between mounting() and serving() it is remembered and stops the server as soon as it
//    exists (so a mount is never left behind);
//  - after serving() it calls Server::stop().
class SignalWaiter {
 public:
  SignalWaiter();
  ~SignalWaiter();
  SignalWaiter(const SignalWaiter&) = delete;
  SignalWaiter& operator=(const SignalWaiter&) = delete;

  void mounting();
  void serving(fs::Server& server);
  void finished();  // the server is about to be destroyed: no more stop() calls

 private:
  enum class Phase { Analysing, Mounting, Serving, Finished };
  void wait_loop();

  sync::Mutex mutex_;
  Phase phase_ GUARDED_BY(mutex_) = Phase::Analysing;
  fs::Server* server_ GUARDED_BY(mutex_) = nullptr;
  bool stop_requested_ GUARDED_BY(mutex_) = false;
  std::thread thread_;
};

}  // namespace anchorfs::cli
