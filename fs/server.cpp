// The FUSE session lifecycle: mount read-only, serve multi-threaded, stop, swap snapshots.
#include "fs/server.h"

#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <vector>

#include "analysis/source_tree.h"
#include "fs/git_view.h"
#include "fs/server_state.h"
#include "fs/snapshot_rebase.h"

namespace anchorfs::fs {

SourceRoot::SourceRoot(int directory_fd) : fd(directory_fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    device = st.st_dev;
    inode = st.st_ino;
  }
}

SourceRoot::~SourceRoot() {
  if (fd >= 0) ::close(fd);
}

ServerState::ServerState(std::shared_ptr<const Snapshot> snapshot, ServerOptions server_options)
    : options(std::move(server_options)),
      inodes(std::make_shared<const Generation>(std::move(snapshot))),
      handles(options.max_source_fds != 0 ? options.max_source_fds
                                          : default_source_handle_capacity()) {}

ServerState::~ServerState() = default;

void notify(ServerState& state, const Invalidations& changed) {
  const sync::TimedMutexLock lock(state.session_mutex);
  if (state.session == nullptr || state.session_closed) return;
  // Changed files have new inode numbers, so nothing the kernel caches for an old number is
  // ever wrong: readers holding an old file keep its old size and bytes. What must go are the
  // names pointing at old numbers, and the directory listings that hold them.
  fuse_session* session = state.session;
  for (uint64_t inode : changed.contents) fuse_lowlevel_notify_inval_inode(session, inode, 0, 0);
  for (uint64_t inode : changed.attributes) {
    fuse_lowlevel_notify_inval_inode(session, inode, -1, 0);
  }
  for (const auto& [parent, name] : changed.names) {
    fuse_lowlevel_notify_inval_entry(session, parent, name.c_str(), name.size());
  }
}

void queue_notification(ServerState& state, Invalidations changed) {
  if (changed.contents.empty() && changed.attributes.empty() && changed.names.empty()) return;
  {
    const sync::MutexLock lock(state.pending_mutex);
    state.pending.push_back(std::move(changed));
  }
  state.pending_changed.notify_one();
}

namespace {

// The served root's descriptor when it is the directory `snapshot` was scanned from (a swap then
// checks the root's path by one stat instead of opening it again), else null.
std::shared_ptr<const SourceRoot> kept_root(const ServerState& state, const Snapshot& snapshot) {
  std::shared_ptr<const SourceRoot> root = state.root();
  const analysis::TreeEntry& scanned = snapshot.entry(0);
  if (root && root->device == scanned.device && root->inode == scanned.inode) return root;
  return nullptr;
}

std::pair<std::shared_ptr<const Generation>, Invalidations> swap_in(
    ServerState& state, const std::optional<std::span<const std::string>>& touched,
    std::span<const PathMove> moves) {
  const sync::MutexLock lock(state.swap_mutex);
  std::shared_ptr<const Generation> previous = state.current();
  const Snapshot& current = previous->snapshot();
  const uint64_t own_device = state.own_device.load();
  std::vector<uint32_t> origin;
  std::vector<uint8_t> copied;
  const std::shared_ptr<const SourceRoot> root = kept_root(state, current);
  std::shared_ptr<const Snapshot> patched =
      touched ? patch_snapshot(current, *touched, moves, own_device, origin, copied,
                               TagsCarriedIf::SameBytes, root ? root->fd : -1)
              : nullptr;
  if (!patched) {
    origin.clear();
    copied.clear();
    patched = rebase_snapshot(
        current, analysis::scan_tree(current.root(), {.skip_device = own_device}), moves);
  }
  auto next =
      std::make_shared<const Generation>(std::move(patched), *previous, moves, origin, &copied);
  Invalidations changed = diff_generations(*previous, *next, moves.empty() ? &copied : nullptr);
  state.inodes.swap(next, changed);
  state.mutations.fetch_add(1);
  state.last_mutation.store(std::chrono::steady_clock::now().time_since_epoch().count());
  return {std::move(next), std::move(changed)};
}

}  // namespace

std::pair<std::shared_ptr<const Generation>, Invalidations> rescan(
    ServerState& state, std::span<const std::string> touched, std::span<const PathMove> moves) {
  return swap_in(state, touched, moves);
}

std::pair<std::shared_ptr<const Generation>, Invalidations> rescan_all(
    ServerState& state, std::span<const PathMove> moves) {
  return swap_in(state, std::nullopt, moves);
}

std::pair<std::shared_ptr<const Generation>, Invalidations> serve_untagged(
    ServerState& state, std::span<const std::string> paths) {
  const sync::MutexLock lock(state.swap_mutex);
  std::shared_ptr<const Generation> previous = state.current();
  std::vector<uint32_t> origin;
  std::vector<uint8_t> copied;
  const std::shared_ptr<const SourceRoot> root = kept_root(state, previous->snapshot());
  std::shared_ptr<const Snapshot> patched =
      patch_snapshot(previous->snapshot(), paths, {}, state.own_device.load(), origin, copied,
                     TagsCarriedIf::SameVersion, root ? root->fd : -1);
  if (!patched) return {};
  auto next = std::make_shared<const Generation>(std::move(patched), *previous,
                                                 std::span<const PathMove>{}, origin, &copied);
  Invalidations changed = diff_generations(*previous, *next, &copied);
  state.inodes.swap(next, changed);
  state.changes_served_untagged.fetch_add(1, std::memory_order_relaxed);
  return {std::move(next), std::move(changed)};
}

void invalidate_attributes_now(ServerState& state, uint64_t inode) {
  if (state.session != nullptr && !state.session_closed) {
    fuse_lowlevel_notify_inval_inode(state.session, inode, -1, 0);
  }
}

namespace {

// Opens the directory a snapshot serves; throws with the reason.
std::shared_ptr<const SourceRoot> open_root(const Snapshot& snapshot) {
  const int fd = ::open(snapshot.root().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    throw std::runtime_error("source " + snapshot.root() + ": " + std::strerror(errno));
  }
  return std::make_shared<const SourceRoot>(fd);
}

// libfuse reports why a mount failed through its log function; keep the last message so the
// exception can say it.
sync::Mutex log_mutex;
std::string last_fuse_message GUARDED_BY(log_mutex);

void capture_fuse_log(enum fuse_log_level, const char* format, va_list args) {
  char line[512];
  std::vsnprintf(line, sizeof line, format, args);
  std::string message(line);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  const sync::MutexLock lock(log_mutex);
  last_fuse_message = std::move(message);
}

// The comma-separated options inside the -o values.
std::vector<std::string> split_options(const std::vector<std::string>& values) {
  std::vector<std::string> options;
  for (const std::string& value : values) {
    for (size_t start = 0; start <= value.size();) {
      size_t comma = value.find(',', start);
      if (comma == std::string::npos) comma = value.size();
      if (comma > start) options.push_back(value.substr(start, comma - start));
      start = comma + 1;
    }
  }
  return options;
}

std::string mount_options(const ServerOptions& server_options) {
  const bool writable = server_options.writable;
  const std::vector<std::string> given = split_options(server_options.fuse_options);
  auto has = [&given](std::string_view prefix) {
    for (const std::string& option : given) {
      if (option.starts_with(prefix)) return true;
    }
    return false;
  };
  std::string joined = "default_permissions";
  if (!has("fsname=")) joined += ",fsname=anchorfs";
  if (!has("subtype=")) joined += ",subtype=anchorfs";
  for (const std::string& option : given) {
    if (option == "rw" && !writable) {
      throw std::runtime_error("anchorfs mounts are read-only unless --writable: -o rw refused");
    }
    if (option == "ro" && writable) continue;
    // A repository's device nodes and set-id programs must not become live through the view.
    if (option == "dev" || option == "suid") {
      throw std::runtime_error("anchorfs mounts are nodev,nosuid: -o " + option + " refused");
    }
    joined += "," + option;
  }
  return joined + (writable ? ",rw" : ",ro");
}

// Sends queued invalidations until stopped; what is still queued then is moot (unmounting).
void run_notifier(ServerState* state) {
  sync::MutexLock lock(state->pending_mutex);
  while (true) {
    while (!state->notifier_stopping && state->pending.empty()) {
      state->pending_changed.wait(state->pending_mutex);
    }
    if (state->notifier_stopping) return;
    std::vector<Invalidations> batch = std::move(state->pending);
    state->pending.clear();
    lock.unlock();
    for (const Invalidations& changed : batch) notify(*state, changed);
    lock.lock();
  }
}

void stop_notifier(ServerState& state) {
  {
    const sync::MutexLock lock(state.pending_mutex);
    state.notifier_stopping = true;
  }
  state.pending_changed.notify_all();
  if (state.notifier.joinable()) state.notifier.join();
}

void check_mountpoint(const std::string& mountpoint) {
  struct stat st {};
  if (mountpoint.empty()) throw std::runtime_error("no mountpoint given");
  if (::stat(mountpoint.c_str(), &st) != 0) {
    throw std::runtime_error("mountpoint " + mountpoint + ": " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    throw std::runtime_error("mountpoint " + mountpoint + ": not a directory");
  }
  if (::access("/dev/fuse", R_OK | W_OK) != 0) {
    throw std::runtime_error(std::string("cannot use /dev/fuse: ") + std::strerror(errno));
  }
}

}  // namespace

Server::Server(std::shared_ptr<const Snapshot> snapshot, ServerOptions options)
    : state_(std::make_unique<ServerState>(std::move(snapshot), std::move(options))) {}

Server::~Server() {
  if (state_->session != nullptr) {
    {
      const sync::TimedMutexLock lock(state_->session_mutex);
      state_->session_closed = true;
      fuse_session_unmount(state_->session);
    }
    fuse_session_destroy(state_->session);
    state_->session = nullptr;
  }
}

void Server::trace_to(std::shared_ptr<Tracer> tracer) {
  state_->tracer = std::move(tracer);
}

void Server::skip_device(uint64_t device) {
  state_->own_device = device;
}

void Server::mount() {
  if (state_->session != nullptr) throw std::runtime_error("already mounted");
  ServerOptions& options = state_->options;
  check_mountpoint(options.mountpoint);
  // Absolute, so stop() still finds the mount after a daemon's chdir("/").
  if (char* absolute = ::realpath(options.mountpoint.c_str(), nullptr)) {
    options.mountpoint = absolute;
    std::free(absolute);
  }
  if (!state_->root()) state_->set_root(open_root(state_->current()->snapshot()));

  const std::string joined = mount_options(options);
  std::vector<std::string> argv_storage{"anchorfs", "-o", joined};
  if (options.debug) argv_storage.emplace_back("-d");
  std::vector<char*> argv;
  for (std::string& arg : argv_storage) argv.push_back(arg.data());
  fuse_args args = FUSE_ARGS_INIT(static_cast<int>(argv.size()), argv.data());

  {
    const sync::MutexLock lock(log_mutex);
    last_fuse_message.clear();
  }
  fuse_set_log_func(capture_fuse_log);
  const fuse_lowlevel_ops& ops = operations(options.writable);
  fuse_session* session = fuse_session_new(&args, &ops, sizeof ops, state_.get());
  std::string failure;
  if (session == nullptr) {
    failure = "invalid FUSE options (" + joined + ")";
  } else if (fuse_session_mount(session, options.mountpoint.c_str()) != 0) {
    failure = "cannot mount on " + options.mountpoint;
    fuse_session_destroy(session);
    session = nullptr;
  }
  fuse_set_log_func(nullptr);
  fuse_opt_free_args(&args);
  if (session == nullptr) {
    const sync::MutexLock lock(log_mutex);
    if (!last_fuse_message.empty()) failure += ": " + last_fuse_message;
    throw std::runtime_error(failure);
  }
  state_->session = session;
}

int Server::run() {
  if (state_->session == nullptr) throw std::runtime_error("run() before mount()");
  state_->running = true;
  if (state_->stopping) fuse_session_exit(state_->session);

  fuse_loop_config* config = fuse_loop_cfg_create();
  if (state_->options.max_threads > 0) {
    fuse_loop_cfg_set_max_threads(config, state_->options.max_threads);
  }
  fuse_loop_cfg_set_clone_fd(config, 1);
  state_->notifier = std::thread(run_notifier, state_.get());
  const int rc = fuse_session_loop_mt(state_->session, config);
  fuse_loop_cfg_destroy(config);

  // A notifier stuck in the kernel (on a page a dead worker will never fill) is released by
  // the unmount itself, so do not wait for it forever.
  const bool locked = state_->session_mutex.try_lock_for(std::chrono::seconds(2));
  state_->session_closed = true;
  fuse_session_unmount(state_->session);
  state_->running = false;
  if (locked) state_->session_mutex.unlock();
  stop_notifier(*state_);
  // A positive value is a signal libfuse's own handlers caught: still a clean, requested exit.
  return rc > 0 ? 0 : rc;
}

void Server::stop() {
  state_->stopping = true;
  if (state_->session == nullptr) return;
  fuse_session_exit(state_->session);
  if (!state_->running) return;
  // Workers only notice the exit flag between requests; send one the kernel cannot answer from
  // its caches (a negative lookup of a name never asked before).
  static std::atomic<unsigned> poke_count{0};
  const std::string probe = state_->options.mountpoint + "/.anchorfs-stop-" +
                            std::to_string(::getpid()) + "-" + std::to_string(poke_count++);
  struct stat st {};
  ::lstat(probe.c_str(), &st);
}

namespace {

// Git holds a lock of an index the mount serves (as on disk now: git in the checkout lets go of
// its own without the mount's seeing it at once), taken less than kGitLockWait ago: an older one
// is stale, or its command waits on its user (git commit's editor) having read the index already.
constexpr std::chrono::seconds kGitLockWait{10};

bool git_holds_an_index_lock(const ServerState& state) {
  const std::shared_ptr<const Generation> generation = state.current();
  const Snapshot& snapshot = generation->snapshot();
  const std::shared_ptr<const SourceRoot> root = state.root();
  if (!root) return false;
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  for (const Snapshot::ServedIndex& served : snapshot.git_indexes()) {
    const std::string lock = snapshot.entry(served.entry).path + ".lock";
    struct stat st {};
    if (::fstatat(root->fd, lock.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        now.tv_sec - st.st_ctim.tv_sec < kGitLockWait.count()) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool Server::replace_snapshot(std::shared_ptr<const Snapshot> next,
                              std::optional<uint64_t> unless_mutated_since) {
  if (!next) throw std::invalid_argument("replace_snapshot: null snapshot");
  if (unless_mutated_since) {
    // A re-tag between git's read of the index and its lstat of a file changes the file's size
    // under it: the index served while the lock is held records sizes as served (fs/git_view.h).
    // Letting go of a lock through the mount is a change, so the caller builds again.
    while (!state_->stopping && git_holds_an_index_lock(*state_)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  Invalidations changed;
  std::shared_ptr<const Generation> generation;
  {
    const sync::MutexLock lock(state_->swap_mutex);
    if (unless_mutated_since && state_->mutations.load() != *unless_mutated_since) return false;
    std::shared_ptr<const Generation> previous = state_->current();
    if (next->root() != previous->snapshot().root()) {
      throw std::invalid_argument("replace_snapshot: the new snapshot serves " + next->root() +
                                  ", not " + previous->snapshot().root());
    }
    // The repository directory was deleted and made again: serve the new one (files still read
    // through descriptors of the old one keep their versions).
    const analysis::TreeEntry& next_root = next->entry(0);
    std::shared_ptr<const SourceRoot> root = state_->root();
    if (root && (root->device != next_root.device || root->inode != next_root.inode)) {
      std::shared_ptr<const SourceRoot> reopened = open_root(*next);
      if (reopened->device != next_root.device || reopened->inode != next_root.inode) {
        throw std::runtime_error("source " + next->root() + " changed again while it was scanned");
      }
      state_->set_root(std::move(reopened));
    }
    generation = std::make_shared<const Generation>(std::move(next), *previous);
    changed = diff_generations(*previous, *generation);
    state_->inodes.swap(generation, changed);
  }
  notify(*state_, changed);
  // The kernel now looks the renumbered files up afresh: the same snapshot again, whose index
  // tells git their sizes (git in the mount then trusts them instead of reading them).
  if (generation->index_provisional()) {
    {
      const sync::MutexLock lock(state_->swap_mutex);
      if (state_->current() != generation) return true;  // a later swap serves its own index
      auto settled = std::make_shared<const Generation>(generation->snapshot_ptr(), *generation);
      changed = diff_generations(*generation, *settled);
      state_->inodes.swap(settled, changed);
    }
    notify(*state_, changed);
  }
  return true;
}

bool Server::serve_changes_untagged(std::span<const std::string> paths) {
  std::vector<std::string> outside_git;
  for (const std::string& path : paths) {
    if (!inside_git_dir(path) && !path.starts_with('/')) outside_git.push_back(path);
  }
  if (outside_git.empty()) return false;
  auto [generation, changed] = serve_untagged(*state_, outside_git);
  if (!generation) return false;
  notify(*state_, changed);
  return true;
}

uint64_t Server::mutation_count() const {
  return state_->mutations.load();
}

std::chrono::steady_clock::time_point Server::last_mutation() const {
  return std::chrono::steady_clock::time_point(
      std::chrono::steady_clock::duration(state_->last_mutation.load()));
}

std::shared_ptr<const Snapshot> Server::snapshot() const {
  return state_->current()->snapshot_ptr();
}

ServerStats Server::stats() const {
  ServerStats stats;
  stats.requests = state_->requests.load(std::memory_order_relaxed);
  stats.lookups = state_->lookups.load(std::memory_order_relaxed);
  stats.reads = state_->reads.load(std::memory_order_relaxed);
  stats.readdirs = state_->readdirs.load(std::memory_order_relaxed);
  stats.stale_reads = state_->stale_reads.load(std::memory_order_relaxed);
  stats.forgets = state_->forgets.load(std::memory_order_relaxed);
  stats.known_inodes = state_->inodes.known_inodes();
  stats.retired_inodes = state_->inodes.retired_inodes();
  stats.source_fds = state_->handles.size();
  stats.mutations = state_->mutations.load(std::memory_order_relaxed);
  stats.changes_served_untagged = state_->changes_served_untagged.load(std::memory_order_relaxed);
  stats.followed_changes = state_->followed_changes.load(std::memory_order_relaxed);
  return stats;
}

}  // namespace anchorfs::fs
