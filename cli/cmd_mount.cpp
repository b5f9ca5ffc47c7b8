// `anchorfs mount REPO MOUNTPOINT`: analyse, then serve the tagged view (daemonised unless -f).
#include <fcntl.h>
#include <fmt/format.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "cli/cache_args.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/daemon_log.h"
#include "cli/daemon_presence.h"
#include "cli/doctor_checks.h"
#include "cli/mount_checks.h"
#include "cli/mountinfo.h"
#include "cli/paths.h"
#include "cli/signal_waiter.h"
#include "cli/startup.h"
#include "cli/view_args.h"
#include "fs/git_view.h"
#include "fs/private_file.h"
#include "fs/server.h"
#include "fs/snapshot.h"
#include "refresh/publish.h"
#include "refresh/refresher.h"
#include "refresh/snapshot_builder.h"
#include "refresh/tree_watcher.h"
#include "render/tag_plan.h"
#include "sync/mutex.h"

namespace anchorfs::cli {
namespace {

struct MountArgs {
  std::string repo;
  std::string mountpoint;
  bool foreground = false;
  bool debug = false;
  bool verbose = false;
  bool no_watch = false;
  bool writable = false;
  unsigned threads = 0;
  CacheArgs cache;
  std::vector<std::string> fuse_options;
  std::string log_file;
  ViewArgs view;
  std::string trace_file;
  uint64_t trace_max_size = fs::TraceOptions{}.max_bytes;
  bool trace_keep_cache = false;
};

// Options identifying the mount in /proc/self/mountinfo ("fuse.anchorfs", source = REPO), so
// `anchorfs unmount` can tell an anchorfs mount from any other.
std::vector<std::string> fuse_options_for(const MountArgs& args, const std::string& repo) {
  std::vector<std::string> options{"subtype=anchorfs"};
  // The kernel splits mount options at commas; a repository path with one gets a generic name.
  options.push_back(repo.find_first_of(",\\") == std::string::npos ? "fsname=" + repo
                                                                   : "fsname=anchorfs");
  for (const std::string& option : args.fuse_options) options.push_back(option);
  return options;
}

// A shell word: single-quoted, with embedded quotes closed, escaped and reopened.
std::string shell_quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// What git inside the mount runs as its clean filter: this very executable.
std::string git_filter_command(const std::string& repo) {
  char exe[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) throw CliError("/proc/self/exe", errno_text(errno));
  return shell_quoted(std::string(exe, static_cast<size_t>(n))) + " git-filter --checkout " +
         shell_quoted(repo);
}

// A linked worktree's git directories live outside it: the view's .git follows them too.
std::vector<std::string> git_dirs_outside(const std::string& repo) {
  std::vector<std::string> dirs;
  const std::optional<fs::GitDirs> git = fs::locate_git_dirs(repo);
  if (!git) return dirs;
  for (const std::string& dir : {git->gitdir, git->common, git->common + "/info"}) {
    if (!is_within(dir, repo) && std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) {
      dirs.push_back(dir);
    }
  }
  return dirs;
}

void report_skipped(const refresh::Built& built, StartupReporter& reporter) {
  for (const auto& problem : built.snapshot->problems()) {
    reporter.note("skipped " + problem.path + ": " + problem.reason);
  }
  for (const auto& skipped : built.skipped_files) {
    reporter.note("untagged " + skipped.path + ": " + skipped.reason);
  }
}

// The device number of the mount just made, from mountinfo's "major:minor" (asking the mount
// itself would put its root attributes in the kernel's cache for a year, dead daemon or not).
dev_t mount_device(const std::optional<MountEntry>& mounted) {
  unsigned major = 0;
  unsigned minor = 0;
  if (!mounted || std::sscanf(mounted->device.c_str(), "%u:%u", &major, &minor) != 2) return 0;
  return makedev(major, minor);
}

// The options that decide what the mount serves, as given, for a trace's header.
std::vector<std::pair<std::string, std::string>> mount_options_for_trace(const MountArgs& args) {
  std::vector<std::pair<std::string, std::string>> options{
      {"view", args.view.view},
      {"style", args.view.style},
      {"max_links", std::to_string(args.view.max_links)},
      {"watch", args.no_watch ? "no" : "yes"},
      {"writable", args.writable ? "yes" : "no"}};
  if (args.view.hub_threshold_option != nullptr && args.view.hub_threshold_option->count() > 0) {
    options.emplace_back("hub_threshold", std::to_string(args.view.hub_threshold));
  }
  if (args.view.tag_budget_option != nullptr && args.view.tag_budget_option->count() > 0) {
    options.emplace_back("tag_budget", fmt::format("{}", args.view.tag_budget));
  }
  return options;
}

// Analyse, mount, report ready, serve (refreshing on changes unless --no-watch) until
// unmounted or signalled. `on_ready` runs after the ready report (the daemon detaches there).
int analyse_and_serve(const MountArgs& args, const CheckedMountPaths& paths,
                      StartupReporter& reporter, const std::function<void()>& on_ready) {
  SignalWaiter signals;
  const auto store = open_cache(paths.repo, args.cache, [&reporter](const std::string& message) {
    reporter.note("warning: " + message);
  });
  refresh::BuildOptions build_options;
  build_options.repo = paths.repo;
  build_options.threads = args.threads;
  build_options.view = args.view.options();
  build_options.cache = store.get();
  build_options.plan_maps = !args.trace_file.empty();
  build_options.will_refresh = !args.no_watch;
  build_options.on_progress = [&reporter](size_t done, size_t total) {
    reporter.progress(done, total);
  };
  build_options.git_view = fs::GitViewOptions{.filter_command = git_filter_command(paths.repo),
                                              .filter_patterns = {},
                                              .assume_unchanged = !args.writable};
  refresh::SnapshotBuilder builder(build_options);
  // The first scan puts each directory's watch in place before listing it, so the refresher
  // starts with the event of every change that scan missed: no second walk for the watches and
  // no start-up rescan (each a pass over the whole tree). Without inotify the refresher finds
  // out for itself and polls.
  std::vector<std::string> extra_dirs;
  std::unique_ptr<refresh::TreeWatcher> watcher;
  if (!args.no_watch) {
    extra_dirs = git_dirs_outside(paths.repo);
    try {
      watcher = std::make_unique<refresh::TreeWatcher>(
          paths.repo, refresh::WatcherOptions{.extra_dirs = extra_dirs},
          refresh::TreeWatcher::Unwalked{});
    } catch (const std::system_error&) {
      watcher.reset();
    }
  }
  std::function<void(const std::string&, int)> watch_directory;
  // The scan lists directories on several threads at once; the watcher takes one at a time.
  sync::Mutex watching_mutex;
  if (watcher) {
    watch_directory = [&watcher, &watching_mutex](const std::string& path, int dir_fd) {
      const sync::MutexLock lock(watching_mutex);
      watcher->watch_directory(path, dir_fd);
    };
  }
  refresh::Built built;
  try {
    built = builder.build(watch_directory);
  } catch (const std::exception& error) {
    throw CliError(paths.repo, error.what());
  }
  if (args.verbose) report_skipped(built, reporter);
  const std::string line =
      "mounted " + paths.repo + " on " + paths.mountpoint + ": " + refresh::describe(built);

  fs::ServerOptions server_options;
  server_options.mountpoint = paths.mountpoint;
  server_options.fuse_options = fuse_options_for(args, paths.repo);
  server_options.debug = args.debug;
  server_options.max_threads = args.threads;
  server_options.writable = args.writable;
  std::shared_ptr<fs::Tracer> tracer;
  if (!args.trace_file.empty()) {
    fs::TraceOptions trace_options;
    trace_options.path = args.trace_file;
    trace_options.max_bytes = args.trace_max_size;
    trace_options.keep_kernel_cache = args.trace_keep_cache;
    trace_options.root = paths.repo;
    trace_options.mountpoint = paths.mountpoint;
    trace_options.view = built.view_reason;
    trace_options.style = args.view.style;
    trace_options.mount_options = mount_options_for_trace(args);
    try {
      tracer = std::make_shared<fs::Tracer>(trace_options);
    } catch (const std::exception& error) {
      throw CliError(args.trace_file, error.what());
    }
  }
  // A read that finds its source changed with no inotify event to say so (a hard link edited
  // from outside REPO) asks the refresher for a rescan.
  std::atomic<refresh::Refresher*> rescan_target{nullptr};
  server_options.on_source_changed = [&rescan_target](const std::string& path) {
    if (refresh::Refresher* target = rescan_target.load()) target->request_rescan(path);
  };
  // getxattr(MOUNTPOINT, user.anchorfs.settled) of a writable mount: the refresher is idle.
  if (!args.no_watch) {
    server_options.wait_until_settled = [&rescan_target](std::chrono::milliseconds limit) {
      rescan_target.wait(nullptr);  // the watches are set up just after the mount serves
      refresh::Refresher* target = rescan_target.load();
      return target != nullptr && target->wait_until_idle(limit);
    };
  }
  std::optional<DaemonPresence> presence;  // released after the server and refresher are gone
  fs::Server server(std::move(built.snapshot), server_options);
  if (tracer) server.trace_to(tracer);
  signals.mounting();
  try {
    server.mount();
  } catch (const std::exception& error) {
    throw CliError(paths.mountpoint, error.what()).with_hint(doctor_hint(paths.mountpoint));
  }
  const std::optional<MountEntry> mounted = find_mount(paths.mountpoint);
  presence.emplace(mounted ? mounted->device : std::string());
  const dev_t device = mount_device(mounted);
  server.skip_device(device);
  signals.serving(server);

  DaemonLog log(args.log_file, args.foreground || args.debug);
  std::unique_ptr<refresh::Refresher> refresher;
  std::thread watching;
  if (!args.no_watch) {
    // Watches are set up on their own thread, while the mount serves: REPO may reach the mount
    // itself (a bind mount with shared propagation), and only a serving mount answers the fstat
    // that tells the watcher and the rescans to keep out of its device.
    watching = std::thread([&] {
      builder.keep_records();  // before the refresher may build again
      builder.skip_device(device);
      // A view served from its record has no analysis behind it: make it now, while nothing
      // changes, rather than inside the first refresh (the refresher's builds wait for it).
      builder.prime_in_background();
      refresh::RefreshOptions refresh_options;
      refresh_options.log = [&log](const std::string& message) { log.write(message); };
      refresh_options.skip_device = device;
      refresh_options.extra_dirs = extra_dirs;
      refresh_options.on_quiet = [&builder] { builder.keep_records(); };
      // A changed file is served as the checkout holds it, untagged, until its refresh lands
      // (docs/cache.md). A writable mount's own changes are served by the mount already, and the
      // events of its writes would only swap again.
      if (!args.writable) {
        refresh_options.on_changes = [&server](std::span<const std::string> changed) {
          server.serve_changes_untagged(changed);
        };
      }
      refresher = std::make_unique<refresh::Refresher>(
          paths.repo, refresh::rebuild_and_publish(builder, server), refresh_options);
      if (watcher) watcher->skip_device(device);
      refresher->start(std::move(watcher));
      rescan_target = refresher.get();
      rescan_target.notify_all();
    });
  }
  reporter.ready(line);
  on_ready();
  if (args.no_watch) builder.keep_records();  // nothing else builds: the view is served
  const int rc = server.run();
  signals.finished();
  if (tracer) {
    const fs::TraceStats traced = tracer->stats();
    log.write("trace " + args.trace_file + ": " + std::to_string(traced.recorded) + " events, " +
              std::to_string(traced.dropped) + " dropped, " + std::to_string(traced.rotations) +
              " rotations");
  }
  if (watching.joinable()) watching.join();
  rescan_target = nullptr;
  if (refresher) refresher->stop();
  return rc == 0 ? kExitOk : kExitRuntime;
}

// Points stdin/stdout at /dev/null and stderr at the log (or /dev/null), as a daemon should.
void detach_stdio(const std::string& log_file) {
  const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd >= 0) {
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(null_fd, STDOUT_FILENO);
  }
  int err_fd = null_fd;
  if (!log_file.empty()) {
    const fs::PrivateFile log = fs::open_private_file(log_file, fs::PrivateOpen::Append);
    if (log.fd >= 0) err_fd = log.fd;
  }
  if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
  if (err_fd >= 0 && err_fd != null_fd) ::close(err_fd);
  if (null_fd >= 0) ::close(null_fd);
}

// The daemon: its own session, reports over `fd`, serves. Never returns to the caller's logic
// with the parent's expectations: its exit code is the server's.
int run_daemon(const MountArgs& args, const CheckedMountPaths& paths, int fd) {
  ::setsid();
  if (::chdir("/") != 0) {
    // Not fatal: every path we use is absolute.
  }
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd >= 0) {
    ::dup2(null_fd, STDIN_FILENO);
    ::close(null_fd);
  }
  PipeReporter reporter(fd);
  try {
    return analyse_and_serve(args, paths, reporter, [&] { detach_stdio(args.log_file); });
  } catch (const CliError& error) {
    reporter.failed(error.what(), error.hint());
    return kExitRuntime;
  } catch (const std::exception& error) {
    reporter.failed(error.what(), "");
    return kExitRuntime;
  }
}

// A relative path made absolute against the current directory (the daemon runs in "/").
std::string absolute(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof cwd) == nullptr) throw CliError(path, errno_text(errno));
  return std::string(cwd) + "/" + path;
}

// Process-wide settings of a serving daemon, made before any thread starts.
void tune_daemon_process() {
  // glibc gives every thread that meets contention an arena of its own (up to 8 per core), each
  // keeping its peak: 16 readers once grew RSS by 220 MB in ten arenas. One per core is enough.
  ::mallopt(M_ARENA_MAX, static_cast<int>(std::max(2u, std::thread::hardware_concurrency())));
  // The server keeps one source descriptor per file version read lately (a quarter of the soft
  // limit): let it use what the hard limit allows.
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &files);
  }
}

int run_mount(const MountArgs& given) {
  const CheckedMountPaths paths = check_mount_paths(given.repo, given.mountpoint);
  tune_daemon_process();
  MountArgs args = given;
  args.log_file = absolute(args.log_file);
  args.cache.dir = absolute(args.cache.dir);
  args.trace_file = absolute(args.trace_file);
  check_outside_mount("--log", args.log_file, paths);
  check_outside_mount("--trace", args.trace_file, paths);
  check_outside_mount("--cache-dir", args.cache.dir, paths);
  if (!args.log_file.empty()) {
    // Refused here, with a message, rather than silently by the daemon.
    const fs::PrivateFile log = fs::open_private_file(args.log_file, fs::PrivateOpen::Append);
    if (log.fd < 0) throw CliError("--log", args.log_file + ": " + log.problem);
    ::close(log.fd);
  }
  if (args.foreground || args.debug) {
    ForegroundReporter reporter;
    return analyse_and_serve(args, paths, reporter, [] {});
  }
  // Fork before anything starts a thread (TBB, libfuse): only the calling thread survives fork.
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw CliError("pipe", errno_text(errno));
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw CliError("fork", errno_text(errno));
  if (child == 0) {
    ::close(fds[0]);
    std::exit(run_daemon(args, paths, fds[1]));
  }
  ::close(fds[1]);
  const int rc = relay_startup(fds[0], child);
  ::close(fds[0]);
  return rc;
}

}  // namespace

Command add_mount_command(CLI::App& app) {
  auto args = std::make_shared<MountArgs>();
  CLI::App* command = app.add_subcommand(
      "mount",
      "Analyse REPO and mount its tagged view on MOUNTPOINT (read-only unless --writable)");
  command->add_option("REPO", args->repo, "Repository directory to analyse and serve")->required();
  command->add_option("MOUNTPOINT", args->mountpoint, "Empty directory to mount on")->required();
  command->add_flag("-f,--foreground", args->foreground,
                    "Stay in the foreground (logs on stderr; Ctrl-C unmounts)");
  command->add_flag("-d,--debug", args->debug, "Trace FUSE requests on stderr (implies -f)");
  command->add_option("--threads", args->threads,
                      "Threads for analysis and for serving (0: all cores / libfuse default)");
  command
      ->add_option("-o", args->fuse_options,
                   "FUSE mount options, comma-separated (e.g. allow_other)")
      ->delimiter(',')
      ->allow_extra_args(false);
  add_view_args(*command, args->view);
  add_cache_args(*command, args->cache);
  command->add_flag("--writable", args->writable,
                    "Let writes through to REPO: tagged files are stored without their tags, "
                    "atomically, when closed; everything else passes through");
  command->add_flag("--no-watch", args->no_watch,
                    "Serve a frozen snapshot: do not follow changes to REPO");
  command->add_option(
      "--log", args->log_file,
      "Append refreshes and warnings to FILE (the daemon's messages go nowhere else)")
      ->type_name("FILE");
  command->add_option("--trace", args->trace_file,
                      "Write JSON lines of lookups, opens, reads and listings to FILE "
                      "(docs/study.md); kernel caching is then reduced so every read is seen")
      ->type_name("FILE");
  command->add_option("--trace-max-size", args->trace_max_size,
                      "Rotate the trace to FILE.1 beyond this many bytes (default 256 MiB)");
  command->add_flag("--trace-keep-cache", args->trace_keep_cache,
                    "Trace without reducing kernel caching (cheaper; cached re-reads unseen)");
  command->add_flag("-v,--verbose", args->verbose,
                    "List every file served untagged or skipped, and why");
  return {command, [args] { return run_mount(*args); }};
}

}  // namespace anchorfs::cli
