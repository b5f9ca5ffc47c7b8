// Refresher: the watch -> debounce -> rebuild loop on its own thread, with a polling fallback.
#include "refresh/refresher.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iterator>
#include <system_error>
#include <utility>

#include "refresh/tree_watcher.h"

namespace anchorfs::refresh {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kIdle{3'600'000};  // nothing to do until an event (or stop) arrives

milliseconds until(Clock::time_point deadline) {
  return std::max(milliseconds(0), std::chrono::ceil<milliseconds>(deadline - Clock::now()));
}

}  // namespace

Refresher::Refresher(std::string root, RebuildFn rebuild, RefreshOptions options)
    : Refresher(std::move(root),
                RebuildAtFn([rebuild = std::move(rebuild)](const std::vector<std::string>*) {
                  return rebuild();
                }),
                std::move(options)) {}

Refresher::Refresher(std::string root, RebuildAtFn rebuild, RefreshOptions options)
    : root_(std::move(root)), rebuild_(std::move(rebuild)), options_(std::move(options)) {}

Refresher::~Refresher() {
  stop();
}

void Refresher::log(const std::string& line) const {
  if (options_.log) {
    options_.log(line);
  } else {
    std::fprintf(stderr, "anchorfs: %s\n", line.c_str());
  }
}

void Refresher::enter_polling(const std::string& why) {
  {
    const sync::MutexLock lock(stats_mutex_);
    if (stats_.polling) {
      return;
    }
    stats_.polling = true;
  }
  log(fmt::format("warning: {}; rescanning every {:.1f} s instead", why,
                  std::chrono::duration<double>(options_.rescan_interval).count()));
}

bool Refresher::make_watcher() {
  try {
    adopt(std::make_unique<TreeWatcher>(
        root_, WatcherOptions{.max_watches = options_.max_watches,
                              .skip_device = options_.skip_device,
                              .extra_dirs = options_.extra_dirs}));
    return true;
  } catch (const std::system_error& error) {
    struct stat st {};
    const bool root_missing = ::stat(root_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode);
    if (root_missing && !root_lost_) {
      lose_root();
    } else if (!root_missing) {
      enter_polling(fmt::format("cannot watch {} ({})", root_, error.what()));
    }
    return false;
  }
}

void Refresher::wake_watcher() {
  const sync::MutexLock lock(watcher_mutex_);
  if (watcher_) {
    watcher_->wake();
  }
}

void Refresher::lose_root() {
  {
    const sync::MutexLock lock(watcher_mutex_);
    watcher_.reset();
  }
  root_lost_ = true;
  log(
      fmt::format("warning: the source {} was deleted or moved away; still serving the last view, "
                  "and checking every {:.1f} s for a directory at that path to serve instead",
                  root_, std::chrono::duration<double>(options_.rescan_interval).count()));
}

void Refresher::log_failure(const std::string& message) {
  const Clock::time_point now = Clock::now();
  if (message == last_failure_ && now - last_failure_logged_ < options_.repeat_failure_log) {
    ++failures_unlogged_;
    return;
  }
  const std::string repeats =
      failures_unlogged_ == 0
          ? ""
          : fmt::format(" ({} more failures since the last line)", failures_unlogged_);
  log(message + repeats);
  last_failure_ = message;
  last_failure_logged_ = now;
  failures_unlogged_ = 0;
}

void Refresher::start() {
  if (thread_.joinable()) {
    return;
  }
  make_watcher();
  launch(options_.rescan_on_start);
}

void Refresher::start(std::unique_ptr<TreeWatcher> watcher) {
  if (thread_.joinable()) {
    return;
  }
  if (!watcher) {
    start();
    return;
  }
  adopt(std::move(watcher));
  launch(false);
}

void Refresher::adopt(std::unique_ptr<TreeWatcher> watcher) {
  const bool complete = watcher->complete();
  const size_t watches = watcher->watch_count();
  {
    const sync::MutexLock lock(watcher_mutex_);
    watcher_ = std::move(watcher);
  }
  if (!complete) {
    enter_polling(fmt::format("inotify watch limit reached after {} directories", watches));
  }
}

void Refresher::launch(bool rescan_now) {
  stopping_ = false;
  thread_ = std::thread([this, rescan_now] { run(rescan_now); });
}

void Refresher::stop() {
  if (!thread_.joinable()) {
    return;
  }
  {
    const sync::MutexLock lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  wake_watcher();
  thread_.join();
}

void Refresher::request_rescan(const std::string& path) {
  {
    const sync::MutexLock lock(requested_mutex_);
    if (path.empty() || requested_paths_.size() >= WatchEvents::kMaxChanged) {
      requested_unknown_ = true;
    } else if (requested_paths_.empty() || requested_paths_.back() != path) {
      requested_paths_.push_back(path);  // a reader retrying asks again and again
    }
  }
  if (rescan_requested_.exchange(true)) {
    return;  // already asked; the loop has not picked it up yet
  }
  { const sync::MutexLock lock(wake_mutex_); }
  wake_.notify_all();
  wake_watcher();
}

bool Refresher::requests_named() {
  std::vector<std::string> paths;
  bool unknown = false;
  {
    const sync::MutexLock lock(requested_mutex_);
    paths.swap(requested_paths_);
    unknown = std::exchange(requested_unknown_, false);
  }
  if (unknown || !unbuilt_complete_) return false;
  return std::all_of(paths.begin(), paths.end(), [this](const std::string& path) {
    return std::find(unbuilt_.begin(), unbuilt_.end(), path) != unbuilt_.end();
  });
}

size_t Refresher::wait_events(milliseconds timeout, std::string* sample) {
  TreeWatcher* watcher = own_watcher();
  if (watcher == nullptr) {
    const sync::MutexLock lock(wake_mutex_);
    wake_.wait_for(wake_mutex_, timeout, [this] {
      return stopping_.load() || rescan_requested_.load() || idle_owed();
    });
    return 0;
  }
  WatchEvents events = watcher->wait(timeout);
  if (events.count > 0) {
    unbuilt_complete_ = unbuilt_complete_ && events.all_changed &&
                        unbuilt_.size() + events.changed.size() <= WatchEvents::kMaxChanged;
    if (unbuilt_complete_) {
      unbuilt_.insert(unbuilt_.end(), events.changed.begin(), events.changed.end());
    } else {
      unbuilt_.clear();
    }
  }
  if (options_.on_changes && events.count > 0) {
    changes_complete_ = changes_complete_ && events.all_changed &&
                        changes_.size() + events.changed.size() <= WatchEvents::kMaxChanged;
    if (changes_complete_) {
      changes_.insert(changes_.end(), std::make_move_iterator(events.changed.begin()),
                      std::make_move_iterator(events.changed.end()));
    }
    pass_changes(false);
  }
  if (sample != nullptr && sample->empty() && !events.samples.empty()) {
    *sample = events.samples.front();
  }
  if (!watcher->complete()) {
    enter_polling(
        fmt::format("inotify watch limit reached after {} directories", watcher->watch_count()));
  }
  return events.count;
}

void Refresher::pass_changes(bool now) {
  // The first change of a burst is passed at once; a stream of them (a branch switch) in batches,
  // each a swap of the whole served tree.
  if (!now && Clock::now() - changes_passed_ < options_.quiet) return;
  if (changes_complete_ && !changes_.empty()) {
    std::sort(changes_.begin(), changes_.end());
    changes_.erase(std::unique(changes_.begin(), changes_.end()), changes_.end());
    options_.on_changes(changes_);
    changes_passed_ = Clock::now();
  }
  changes_.clear();
  changes_complete_ = true;
}

void Refresher::settle(Burst& burst) {
  Clock::time_point last = Clock::now();
  while (!stopping_) {
    const Clock::time_point deadline =
        std::min(last + options_.quiet, burst.first + options_.max_delay);
    if (Clock::now() >= deadline) {
      return;
    }
    const size_t more = wait_events(until(deadline), &burst.sample);
    if (more > 0) {
      burst.events += more;
      last = Clock::now();
    }
  }
}

bool Refresher::rebuild_now(const Burst& burst, bool paths_known) {
  try {
    const bool known = paths_known && unbuilt_complete_ && own_watcher() != nullptr &&
                       own_watcher()->complete();
    const std::optional<std::string> what = rebuild_(known ? &unbuilt_ : nullptr);
    // Every change named so far is in the tree that rebuild scanned (or patched).
    unbuilt_.clear();
    unbuilt_complete_ = true;
    const double seconds = std::chrono::duration<double>(Clock::now() - burst.first).count();
    if (what) {  // logged before the stats move, so waiters on the stats find the line
      quiet_work_owed_ = true;
      last_published_ = Clock::now();
      const std::string cause =
          burst.events == 0
              ? std::string("a rescan")
              : fmt::format("{} change{}{}", burst.events, burst.events == 1 ? "" : "s",
                            burst.sample.empty() ? "" : " (" + burst.sample + ")");
      log(fmt::format("refreshed after {}: {}; {:.0f} ms from first change to new view", cause,
                      *what, seconds * 1000));
    }
    last_failure_.clear();
    failures_unlogged_ = 0;
    {
      const sync::MutexLock lock(stats_mutex_);
      if (what) {
        ++stats_.refreshes;
        stats_.last_seconds = seconds;
      } else {
        ++stats_.unchanged;
      }
    }
    stats_changed_.notify_all();
    return true;
  } catch (const std::exception& error) {
    log_failure(fmt::format("refresh failed ({}); retrying every {:.1f} s", error.what(),
                            std::chrono::duration<double>(options_.retry_after).count()));
    {
      const sync::MutexLock lock(stats_mutex_);
      ++stats_.failures;
    }
    stats_changed_.notify_all();
    return false;
  }
}

bool Refresher::idle_owed() const {
  return idle_asked_.load() > idle_answered_.load();
}

void Refresher::answer_idle(uint64_t asked) {
  {
    const sync::MutexLock lock(stats_mutex_);
    if (asked > idle_answered_.load()) idle_answered_.store(asked);
  }
  stats_changed_.notify_all();
}

void Refresher::do_quiet_work() {
  if (!quiet_work_owed_) return;
  quiet_work_owed_ = false;
  if (!options_.on_quiet) return;
  try {
    options_.on_quiet();
  } catch (const std::exception& error) {
    log(fmt::format("warning: {}", error.what()));
  }
}

void Refresher::run(bool rescan_now) {
  Clock::time_point next_rescan = Clock::now() + options_.rescan_interval;
  constexpr Clock::time_point kNever = Clock::time_point::max();
  // After a failed rebuild; also used for the start-up rescan.
  Clock::time_point retry_at = rescan_now ? Clock::now() : kNever;
  while (!stopping_) {
    const bool polling = stats().polling || root_lost_;
    // Read before looking for events: an answer covers only changes made before its request,
    // and inotify queues a change's event before the changing call returns.
    const uint64_t asked = idle_asked_.load();
    const bool owed = idle_owed();
    Clock::time_point wake_at = Clock::now() + kIdle;
    if (polling) {
      // Polling sees changes only by rescanning: a waiter is owed one.
      if (owed) next_rescan = std::min(next_rescan, Clock::now());
      wake_at = std::min(wake_at, next_rescan);
    }
    wake_at = std::min(wake_at, retry_at);
    const Clock::time_point quiet_at =
        quiet_work_owed_ ? last_published_ + options_.quiet_work_after : kNever;
    wake_at = std::min(wake_at, quiet_at);
    if (owed && !polling && retry_at == kNever) {
      wake_at = Clock::now();  // only look for events: a waiter waits for the answer
    }
    Burst burst;
    burst.events = wait_events(until(wake_at), &burst.sample);
    burst.first = Clock::now();
    if (stopping_) {
      break;
    }
    if (!root_lost_ && own_watcher() != nullptr && own_watcher()->root_lost()) {
      lose_root();
      next_rescan = Clock::now() + options_.rescan_interval;
      continue;
    }
    bool requested = rescan_requested_.exchange(false);
    const bool retrying = retry_at != kNever;
    const bool due =
        requested || (polling && burst.first >= next_rescan) || burst.first >= retry_at;
    if (burst.events == 0 && !due) {
      if (burst.first >= quiet_at) do_quiet_work();
      if (owed && !polling && retry_at == kNever) answer_idle(asked);
      continue;
    }
    if (burst.events > 0) {
      settle(burst);
      if (stopping_) {
        break;
      }
    }
    bool root_found = false;
    if (root_lost_) {
      // Watch the new directory before scanning it, so no change after the scan is missed.
      struct stat st {};
      if (::stat(root_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || !make_watcher()) {
        next_rescan = Clock::now() + options_.rescan_interval;
        continue;
      }
      root_lost_ = false;
      root_found = true;
      log(fmt::format("the source {} is a directory again: serving it", root_));
    }
    if (options_.on_changes) pass_changes(true);  // what the rebuild's time would leave stale
    // Polling, a rescan asked for at a path no event named, a retry, or a root found again:
    // changes no event named. (Asked for during the settling too: this rebuild covers them.)
    requested = rescan_requested_.exchange(false) || requested;
    const bool paths_known =
        !polling && (!requested || requests_named()) && !retrying && !root_found;
    retry_at = rebuild_now(burst, paths_known) ? kNever : Clock::now() + options_.retry_after;
    next_rescan = Clock::now() + options_.rescan_interval;
    if (owed && polling && retry_at == kNever) answer_idle(asked);
  }
  do_quiet_work();
}

RefreshStats Refresher::stats() const {
  const sync::MutexLock lock(stats_mutex_);
  return stats_;
}

bool Refresher::wait_for_refreshes(uint64_t count, milliseconds timeout) const {
  const auto deadline = Clock::now() + timeout;
  const sync::MutexLock lock(stats_mutex_);
  while (stats_.refreshes < count) {
    if (!stats_changed_.wait_until(stats_mutex_, deadline)) return stats_.refreshes >= count;
  }
  return true;
}

bool Refresher::wait_until_idle(milliseconds timeout) {
  const uint64_t ticket = idle_asked_.fetch_add(1) + 1;
  {
    const sync::MutexLock lock(wake_mutex_);  // the polling loop checks idle_owed() under it
  }
  wake_.notify_all();
  wake_watcher();
  const sync::MutexLock lock(stats_mutex_);
  return stats_changed_.wait_for(stats_mutex_, timeout,
                                 [&] { return idle_answered_.load() >= ticket; });
}

}  // namespace anchorfs::refresh
