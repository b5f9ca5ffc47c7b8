// Internal: what the request handlers share with the Server (snapshot, session, counters).
#pragma once

#include <fuse_lowlevel.h>

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fs/generation.h"
#include "fs/inode_table.h"
#include "fs/open_files.h"
#include "fs/served_layouts.h"
#include "fs/server.h"
#include "fs/source_handles.h"
#include "sync/cond_var.h"
#include "sync/mutex.h"

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
  std::shared_ptr<Tracer> tracer;   // set before mounting; null when untraced
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
  std::atomic<uint64_t> changes_served_untagged{0};  // serve_untagged swaps
  std::atomic<uint64_t> followed_changes{0};         // inode numbers that now serve the checkout

  std::atomic<bool> stopping{false};
  std::atomic<bool> running{false};

  // Guards `session` against unmounting while notifying the kernel (the pointer is set before
  // any other thread starts; what the lock orders is its use against the unmount).
  sync::TimedMutex session_mutex;
  // Set under session_mutex, except by run() when a notifier stuck in the kernel holds the
  // mutex past its timeout: atomic, so that write is no data race with notify()'s read.
  std::atomic<bool> session_closed{false};

  // Serialises generation swaps (refreshes and a writable mount's rescans): a rescan and its swap
  // happen together, so no swap can publish a scan older than the current generation's. Never
  // held while talking to the kernel. It orders a sequence of steps, so no data is GUARDED_BY it.
  sync::Mutex swap_mutex;
  std::atomic<uint64_t> mutations{0};  // rescans after changes made through the mount
  // steady_clock time of the last of them, in its ticks since its epoch.
  std::atomic<int64_t> last_mutation{0};
  // The mount's own device (0: unknown): a writable mount's rescans list directories on it but
  // never enter them, or a REPO that reaches the mount would scan through its own handlers.
  std::atomic<uint64_t> own_device{0};

  OpenFiles open_files;  // writable mounts: files open for writing
  std::atomic<uint32_t> memory_stages{0};  // their stages kept in memory (create_empty_stage)
  ServedLayouts served_layouts;  // writable mounts: what opens were served lately (fs/store.h)

  // Invalidations a request handler cannot send itself (the kernel holds the directory locks
  // of the request until the reply): sent by the notifier thread while run() serves.
  sync::Mutex pending_mutex;
  sync::CondVar pending_changed;
  std::vector<Invalidations> pending GUARDED_BY(pending_mutex);
  bool notifier_stopping GUARDED_BY(pending_mutex) = false;
  std::thread notifier;

 private:
  std::atomic<std::shared_ptr<const SourceRoot>> root_;
};

// The server state of a request, counted as one request.
inline ServerState& state_of(fuse_req_t req) {
  auto* state = static_cast<ServerState*>(fuse_req_userdata(req));
  state->requests.fetch_add(1, std::memory_order_relaxed);
  return *state;
}

// An inode as one request serves it: from the current generation, or, for a file version that
// generation no longer has, from the old version the kernel still holds.
struct Served {
  std::shared_ptr<const Generation> generation;  // keeps `entry` and `layout` alive
  std::shared_ptr<const RetiredFile> retired;    // or this does
  const analysis::TreeEntry* entry = nullptr;
  const FileLayout* layout = nullptr;
  uint32_t index = 0;  // of `entry` in the generation's snapshot, when not retired
  const std::string* content = nullptr;  // a file served from memory (a .git overlay)
  Serving serving = Serving::Special;    // how: what the handlers dispatch on
};
// Inode `ino` as the current generation, or a retired version, serves it.
std::optional<Served> resolve(const ServerState& state, uint64_t ino);
// Entry `index` of `generation`.
inline Served served_entry(std::shared_ptr<const Generation> generation, uint32_t index) {
  Served served;
  const Snapshot& snapshot = generation->snapshot();
  served.entry = &snapshot.entry(index);
  served.layout = &snapshot.layout(index);
  served.index = index;
  served.content = generation->content(index).get();
  served.serving = snapshot.serving(index);
  served.generation = std::move(generation);
  return served;
}

// The entry reply for entry `index` of `generation` (cached for a year).
fuse_entry_param entry_param(const Generation& generation, uint32_t index);

// Opens the source at `path` for a reader (open_source). Out of descriptors, it gives back kept
// ones (our own are the likely cause) and tries once more. -1 with errno as a reader may see it
// (open_error_for_reader): EMFILE, EACCES, ENOENT ... as themselves, never a blanket EIO.
int open_for_reader(ServerState& state, const std::string& path);

// Tells the kernel to drop what `changed` lists (no-op once unmounted). Not from a handler whose
// request holds a lock these invalidations need (directory operations): queue() those.
void notify(ServerState& state, const Invalidations& changed);
void queue_notification(ServerState& state, Invalidations changed);

// Writable mounts: after a change made through the mount, swaps in the checkout as it is now
// (tags kept for unchanged files), following `moves` (renames the kernel made). `touched`: the
// repository paths the change made, changed or removed, which alone are read again (see
// patch_snapshot; it falls back to a whole rescan where that is not enough). Returns the new
// generation and what the kernel must drop.
std::pair<std::shared_ptr<const Generation>, Invalidations> rescan(
    ServerState& state, std::span<const std::string> touched,
    std::span<const PathMove> moves = {});
// The same for a change whose paths are not known: the whole checkout is scanned again.
std::pair<std::shared_ptr<const Generation>, Invalidations> rescan_all(
    ServerState& state, std::span<const PathMove> moves = {});

// A change to the checkout seen before the refresh that re-renders it (a read found a file
// changed, the watcher saw paths change): swaps in the current generation with the files at
// `paths` (repository paths made, changed or removed) read again and served untagged, as the
// checkout holds them now, until the refresh. Not a mutation: the mount changed nothing, and the
// refresh built meanwhile is published as usual. Returns the new generation and what the kernel
// must drop (the caller sends or queues it), or a null generation when only a whole rescan could
// follow the change (the view's `.git`, a moved directory): the refresh is left to do it.
std::pair<std::shared_ptr<const Generation>, Invalidations> serve_untagged(
    ServerState& state, std::span<const std::string> paths);

// Drops the kernel's cached attributes of `inode` at once. Only from a request handler (its
// session outlives it) and never for a directory whose lock the request holds.
void invalidate_attributes_now(ServerState& state, uint64_t inode);

// The low-level operation table (fs/operations.cpp): read-only, or with a writable mount's
// handlers set over it.
const fuse_lowlevel_ops& operations(bool writable);

}  // namespace anchorfs::fs
