// Internal: what the request handlers share with the Server (snapshot, session, counters).
#pragma once

#include <fuse_lowlevel.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "fs/generation.h"
#include "fs/server.h"

namespace anchorfs::fs {

// The kernel may keep names, attributes, pages and listings this long: the snapshot never changes
// behind its back, and replace_snapshot() invalidates explicitly what a swap changes.
inline constexpr double kCacheSeconds = 365.0 * 24 * 3600;

class ServerState {
 public:
  ServerState(std::shared_ptr<const Snapshot> snapshot, ServerOptions server_options);
  ~ServerState();

  // The generation a request is served from. Thread-safe.
  std::shared_ptr<const Generation> current() const { return generation_.load(); }

  ServerOptions options;
  fuse_session* session = nullptr;  // set by mount(), cleared by run()/~Server after unmount
  int root_fd = -1;                 // O_PATH of the snapshot root; see open_root()

  // Set in init() from the kernel's capabilities: answer open/opendir with ENOSYS so the kernel
  // stops sending them (and keeps page and directory caches by default).
  std::atomic<bool> no_open{false};
  std::atomic<bool> no_opendir{false};

  std::atomic<uint64_t> requests{0};
  std::atomic<uint64_t> lookups{0};
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> readdirs{0};
  std::atomic<uint64_t> stale_reads{0};

  std::atomic<bool> stopping{false};
  std::atomic<bool> running{false};

  // Serialises replace_snapshot() and guards `session` against unmounting while notifying.
  std::timed_mutex session_mutex;
  bool session_closed = false;  // guarded by session_mutex

  // Swaps generations; returns the previous one. Thread-safe.
  std::shared_ptr<const Generation> swap(std::shared_ptr<const Generation> next) {
    return generation_.exchange(std::move(next));
  }

 private:
  std::atomic<std::shared_ptr<const Generation>> generation_;
};

// The low-level operation table (operations.cpp).
const fuse_lowlevel_ops& operations();

}  // namespace anchorfs::fs
