// Live refresh: watch the source tree, let bursts settle, rebuild, hand the result over.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "sync/cond_var.h"
#include "sync/mutex.h"

namespace anchorfs::refresh {

class TreeWatcher;

struct RefreshOptions {
  std::chrono::milliseconds quiet{100};       // a burst has settled after this long without events
  std::chrono::milliseconds max_delay{5000};  // ...or this long after its first event, regardless
  std::chrono::milliseconds rescan_interval{2000};  // polling period when inotify cannot cover all
  std::chrono::milliseconds retry_after{1000};      // after a failed rebuild
  size_t max_watches = 0;                           // 0: the kernel's limit
  std::vector<std::string> extra_dirs;  // absolute directories outside the tree to watch too
  // Rescan once as soon as the watches are in place: changes made between the caller's initial
  // scan and start() would otherwise wait for the next change to be noticed.
  bool rescan_on_start = true;
  std::function<void(const std::string&)> log;  // one line per refresh, warnings; null: stderr
  // Directories on this device are never watched (see WatcherOptions::skip_device).
  uint64_t skip_device = 0;
  // A failure logged once is logged again only when its message changes or after this long.
  std::chrono::milliseconds repeat_failure_log{60'000};
  // Called on the refresher's thread once no change came for `quiet_work_after` since a refresh
  // published a view, and when it stops after one did: what a refresh owes but need not do on
  // its way to the view (SnapshotBuilder::keep_records). Null: nothing.
  std::function<void()> on_quiet;
  std::chrono::milliseconds quiet_work_after{10'000};
  // Called on the refresher's thread with the repository paths of the changes each look at the
  // watcher found, as soon as it found them (before the burst settles and the rebuild runs; not
  // while a rebuild runs): a live mount serves those files as they are meanwhile
  // (fs::Server::serve_changes_untagged). Not called when the changes could not all be named (a
  // queue overflow). Null: nothing.
  std::function<void(std::span<const std::string>)> on_changes;
};

// Rescans and, if anything changed, rebuilds and publishes the view: returns a one-line
// description for the log, or nullopt when the tree turned out unchanged. Throws on failure.
using RebuildFn = std::function<std::optional<std::string>()>;
// The same, told every repository-relative path changed since the last rebuild that succeeded
// (the watcher's events), or null when they are not all known (polling, a lost event, a rescan
// asked for): it may then patch that rebuild's scan instead of listing the whole tree.
using RebuildAtFn = std::function<std::optional<std::string>(const std::vector<std::string>*)>;

struct RefreshStats {
  uint64_t refreshes = 0;  // rebuilds that published a changed view
  uint64_t unchanged = 0;  // rescans that found nothing to publish
  uint64_t failures = 0;
  bool polling = false;     // inotify could not watch every directory: periodic rescans
  double last_seconds = 0;  // first event of the last burst to the rebuild's end
};

// Thread-safety: start/stop from the owning thread; stats(), wait_for_refreshes() and
// wait_until_idle() from any.
class Refresher {
 public:
  Refresher(std::string root, RebuildFn rebuild, RefreshOptions options = {});
  Refresher(std::string root, RebuildAtFn rebuild, RefreshOptions options = {});
  ~Refresher();  // stops
  Refresher(const Refresher&) = delete;
  Refresher& operator=(const Refresher&) = delete;

  void start();  // sets up the watches (before returning), then runs on its own thread
  // As start(), adopting watches already in place: `watcher` was given every directory by the
  // scan the served view came from (TreeWatcher::Unwalked, before each was listed), so it holds
  // the event of every change that scan did not see and no start-up rescan is made, whatever
  // options.rescan_on_start says. A null `watcher` is start().
  void start(std::unique_ptr<TreeWatcher> watcher);
  void stop();   // waits for a rebuild in progress to finish

  // Asks for a rescan soon (a read found a source changed that no event announced: a hard link
  // edited from outside, a change in another mount namespace). Thread-safe, cheap, never blocks
  // but for a leaf lock. `path`: the repository path whose read found it (empty: unknown); when
  // the events seen before the rebuild named every such path, the read only came before its
  // event was read, and that rebuild still patches its last scan rather than listing the tree.
  void request_rescan(const std::string& path = {});

  RefreshStats stats() const;
  // Blocks until at least `count` refreshes have completed or `timeout` passed; returns whether
  // they did.
  bool wait_for_refreshes(uint64_t count, std::chrono::milliseconds timeout) const;

  // Blocks until every change made before the call has been seen and handled (its rebuild
  // published, or found to change nothing) and no retry is pending, or `timeout` passed; returns
  // whether it got there. Without inotify (polling) one rescan after the call counts. For tests:
  // they wait for this instead of sleeping (clangd's blockUntilIdleForTest).
  bool wait_until_idle(std::chrono::milliseconds timeout);

 private:
  struct Burst {
    std::chrono::steady_clock::time_point first;
    size_t events = 0;
    std::string sample;  // one changed path, for the log
  };

  void launch(bool rescan_now);  // the thread, once the watcher (or polling) is set up
  void run(bool rescan_now);
  void log(const std::string& line) const;
  void do_quiet_work();  // on_quiet, when a published view owes it
  // Events, or a timeout, or stop(): whichever comes first.
  size_t wait_events(std::chrono::milliseconds timeout, std::string* sample);
  void settle(Burst& burst);             // waits for the burst to end (debounce)
  // False on failure. `paths_known`: the changes since the last rebuild are those events named.
  bool rebuild_now(const Burst& burst, bool paths_known);
  void enter_polling(const std::string& why);
  bool idle_owed() const;
  void answer_idle(uint64_t asked);
  // Makes the watcher (null when inotify or the root is unavailable); false without one.
  bool make_watcher();
  // Serves from `watcher`; polling instead where it could not watch every directory.
  void adopt(std::unique_ptr<TreeWatcher> watcher);
  void wake_watcher();
  // The root was deleted or moved away: drop the watcher and poll until it is back.
  void lose_root();
  void log_failure(const std::string& message);

  std::string root_;
  RebuildAtFn rebuild_;
  RefreshOptions options_;
  // The watcher as the refresher thread reads it: that thread alone replaces it (under
  // watcher_mutex_), so its own reads need no lock.
  TreeWatcher* own_watcher() const NO_THREAD_SAFETY_ANALYSIS { return watcher_.get(); }

  sync::Mutex watcher_mutex_;  // guards watcher_ against wake-ups from other threads
  std::unique_ptr<TreeWatcher> watcher_ GUARDED_BY(watcher_mutex_);
  // Hands the changes gathered so far to options_.on_changes (at most once per `quiet` unless
  // `now`), or drops them when they could not all be named.
  void pass_changes(bool now);
  std::vector<std::string> changes_;  // refresher thread only: for on_changes, not passed yet
  // Refresher thread only: every path the events named since the last rebuild that succeeded,
  // while all are known (for rebuild_).
  std::vector<std::string> unbuilt_;
  bool unbuilt_complete_ = true;
  bool changes_complete_ = true;      // refresher thread only
  std::chrono::steady_clock::time_point changes_passed_{};  // refresher thread only
  bool root_lost_ = false;    // refresher thread only
  bool quiet_work_owed_ = false;  // refresher thread only: a view was published since on_quiet
  std::chrono::steady_clock::time_point last_published_{};  // refresher thread only
  std::string last_failure_;  // refresher thread only
  std::chrono::steady_clock::time_point last_failure_logged_{};
  uint64_t failures_unlogged_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> rescan_requested_{false};
  // The paths of the rescans asked for since the refresher last took them, and whether one came
  // without a path (or too many came): see request_rescan.
  sync::Mutex requested_mutex_;
  std::vector<std::string> requested_paths_ GUARDED_BY(requested_mutex_);
  bool requested_unknown_ GUARDED_BY(requested_mutex_) = false;
  // Refresher thread: takes the requests; true when the events since the last rebuild named each.
  bool requests_named();
  sync::Mutex wake_mutex_;  // without a watcher, polling sleeps on this until stop()
  sync::CondVar wake_;

  mutable sync::Mutex stats_mutex_;
  mutable sync::CondVar stats_changed_;
  RefreshStats stats_ GUARDED_BY(stats_mutex_);
  // wait_until_idle() requests, numbered, and the last one the loop answered (written under
  // stats_mutex_, which its waiters wait on).
  std::atomic<uint64_t> idle_asked_{0};
  std::atomic<uint64_t> idle_answered_{0};
};

}  // namespace anchorfs::refresh
