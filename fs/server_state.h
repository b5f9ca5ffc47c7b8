// Internal: what the request handlers share with the Server (snapshot, session, counters).
#pragma once

#include <fuse_lowlevel.h>

#include <atomic>
#include <memory>
#include <mutex>

#include "fs/generation.h"
#include "fs/inode_table.h"
#include "fs/server.h"
#include "fs/source_handles.h"

namespace anchorfs::fs {

// The kernel may keep names, attributes, pages and listings this long: what an inode number
// serves never changes, and replace_snapshot() invalidates explicitly the names and listings a
// swap changes.
inline constexpr double kCacheSeconds = 365.0 * 24 * 3600;

// An opened source root and the identity it was opened with.
struct SourceRoot {
  explicit SourceRoot(int directory_fd);
  ~SourceRoot();
  SourceRoot(const SourceRoot&) = delete;
  SourceRoot& operator=(const SourceRoot&) = delete;
  int fd = -1;
  uint64_t device = 0;
  uint64_t inode = 0;
};

class ServerState {
 public:
  ServerState(std::shared_ptr<const Snapshot> snapshot, ServerOptions server_options);
  ~ServerState();

  // The generation a request is served from. Thread-safe.
  std::shared_ptr<const Generation> current() const { return inodes.current(); }

  ServerOptions options;
  InodeTable inodes;                // the current generation, lookup counts, retired file versions
  fuse_session* session = nullptr;  // set by mount(), cleared by run()/~Server after unmount
  // The directory served as the root (O_PATH), replaced when the repository directory itself was
  // (deleted and made again).
  std::shared_ptr<const SourceRoot> root() const { return root_.load(); }
  void set_root(std::shared_ptr<const SourceRoot> root) { root_.store(std::move(root)); }
  SourceHandles handles;  // verified source descriptors by served inode number

  // Set in init() from the kernel's capabilities: answer open/opendir with ENOSYS so the kernel
  // stops sending them (and keeps page and directory caches by default).
  std::atomic<bool> no_open{false};
  std::atomic<bool> no_opendir{false};

  std::atomic<uint64_t> requests{0};
  std::atomic<uint64_t> lookups{0};
  std::atomic<uint64_t> reads{0};
  std::atomic<uint64_t> readdirs{0};
  std::atomic<uint64_t> stale_reads{0};
  std::atomic<uint64_t> forgets{0};  // forget messages (not counted in `requests`)

  std::atomic<bool> stopping{false};
  std::atomic<bool> running{false};

  // Serialises replace_snapshot() and guards `session` against unmounting while notifying.
  std::timed_mutex session_mutex;
  bool session_closed = false;  // guarded by session_mutex

 private:
  std::atomic<std::shared_ptr<const SourceRoot>> root_;
};

// The low-level operation table (operations.cpp).
const fuse_lowlevel_ops& operations();

}  // namespace anchorfs::fs
