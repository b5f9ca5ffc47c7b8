// The FUSE server: mounts a Snapshot read-only and serves it with the libfuse3 low-level API.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fs/snapshot.h"
#include "fs/tracer.h"

namespace anchorfs::fs {

struct ServerOptions {
  std::string mountpoint;
  std::vector<std::string> fuse_options;  // extra -o values ("allow_other", ...); "rw" is refused
  bool debug = false;                     // libfuse request tracing on stderr
  unsigned max_threads = 0;               // worker threads; 0: libfuse's default
  // Source descriptors kept open (one per served file version read lately); 0: a quarter of
  // the descriptor limit, within [64, 16384].
  size_t max_source_fds = 0;
  // Called (from a request thread; keep it short) with the entry's repository path when a read
  // found its source changed since the snapshot and refused it: the caller should rescan soon.
  std::function<void(const std::string& path)> on_source_changed;
  // Writes pass through to the checkout (docs/filesystem.md, "Writable mounts"); otherwise the
  // mount is read-only and every change fails with EROFS.
  bool writable = false;
  // Writable mounts: blocks (a request thread) until every change made to the checkout before
  // the call has been refreshed and its re-tag published, or the limit passed; returns whether
  // it got there. Answers getxattr(MOUNTPOINT, kSettledAttribute). Null: nothing refreshes.
  std::function<bool(std::chrono::milliseconds)> wait_until_settled;
};

// Reading this extended attribute of a writable mount's root waits for the live refresh to
// settle (ServerOptions::wait_until_settled): after it, the view of every change made before is
// published, so tools that read a file twice (git: lstat, then read) see one version.
inline constexpr std::string_view kSettledAttribute = "user.anchorfs.settled";

struct ServerStats {
  uint64_t requests = 0;  // requests handled (all kinds)
  uint64_t lookups = 0;
  uint64_t reads = 0;
  uint64_t readdirs = 0;
  uint64_t stale_reads = 0;     // reads refused: the source changed since the snapshot
  uint64_t forgets = 0;         // forget messages from the kernel (not counted in `requests`)
  uint64_t known_inodes = 0;    // inode numbers the kernel currently holds (lookup count > 0)
  uint64_t retired_inodes = 0;  // replaced or removed file versions still served to the kernel
  uint64_t source_fds = 0;      // source descriptors held open (one per version read lately)
  uint64_t mutations = 0;       // writable mounts: changes made through the mount (rescans)
  // Changes seen before their refresh and served untagged meanwhile (swaps), and inode numbers
  // a reader was sized by whose reads then moved on to the checkout's version (docs/filesystem.md,
  // "Between a change and its refresh").
  uint64_t changes_served_untagged = 0;
  uint64_t followed_changes = 0;
};

class ServerState;

// Lifecycle: construct, mount(), run() (blocks), then destroy. stop() may come from any thread.
class Server {
 public:
  // Thread-safety: not thread-safe; construct and destroy from the thread that owns the server.
  Server(std::shared_ptr<const Snapshot> snapshot, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Sends every lookup, open, read and listing to `tracer` (see its keep_kernel_cache option).
  // Call before mount(), from the owning thread.
  void trace_to(std::shared_ptr<Tracer> tracer);

  // Creates the session and mounts it read-only; on return the mount serves requests as soon as
  // run() is called (requests arriving before that wait in the kernel). Throws std::runtime_error
  // with a clear message (mountpoint missing, not a directory, no /dev/fuse, mount refused).
  // Call once, from the owning thread.
  void mount();

  // Serves with a multi-threaded loop until the filesystem is unmounted or stop() is called;
  // then makes sure it is unmounted. Returns 0 on a clean exit, else a negative errno.
  // Call once, after mount(), from one thread.
  int run();

  // The device the mount serves (from mountinfo, after mount()): rescans made by a writable
  // mount's requests never enter directories on it. Call before run(), from the owning thread.
  void skip_device(uint64_t device);

  // Ends run() and unmounts (like libfuse's SIGTERM handling: open files in the mount fail from
  // then on). Thread-safe; may be called from a signal-handling thread, before or during run().
  // Not async-signal-safe: call it from a thread that sigwait()ed, not from a signal handler.
  void stop();

  // Swaps in a new snapshot atomically (every request is served from one snapshot) and tells the
  // kernel to drop exactly the cached names, listings and attributes that changed. Unchanged
  // files and all directories keep their inode numbers; a file whose content or size changed
  // gets a new one, and its old number keeps serving the old version to whoever still holds it
  // until the kernel forgets it. Thread-safe; must not be called from inside a request handler.
  // Before mount() it only swaps. With `unless_mutated_since` (a mutation_count() read before
  // `next` was scanned), nothing is swapped and false is returned when the mount changed the
  // checkout since: `next` may lack that change, and publishing it would take it back. It first
  // waits while git holds a young index lock of the checkout (fs/git_view.h: a re-tag must not
  // come between git's read of the index and its lstat of a file).
  bool replace_snapshot(std::shared_ptr<const Snapshot> next,
                        std::optional<uint64_t> unless_mutated_since = std::nullopt);

  // The checkout changed at `paths` (repository-relative: made, changed or removed), seen before
  // the refresh that re-renders them (a watcher's events): from now on those files are served as
  // the checkout holds them, untagged, until replace_snapshot publishes their new view; files
  // whose version is unchanged keep their tags. Paths in a `.git` are left to the refresh (it
  // remakes the view's `.git`), and so is everything when a path needs a whole rescan. Returns
  // whether anything was swapped. Thread-safe; must not be called from inside a request handler.
  bool serve_changes_untagged(std::span<const std::string> paths);

  // How many changes a writable mount has made to the checkout so far. Thread-safe.
  uint64_t mutation_count() const;
  // When the last of them was made (the clock's epoch when none was). Thread-safe.
  std::chrono::steady_clock::time_point last_mutation() const;

  // The snapshot currently served. Thread-safe.
  std::shared_ptr<const Snapshot> snapshot() const;
  // Request counters so far. Thread-safe (relaxed counters).
  ServerStats stats() const;

 private:
  std::unique_ptr<ServerState> state_;
};

}  // namespace anchorfs::fs
