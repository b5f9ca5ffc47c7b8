// `anchorfs mount REPO MOUNTPOINT`: analyse, then serve the tagged view (daemonised unless -f).
#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cache_args.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/daemon_log.h"
#include "cli/mount_checks.h"
#include "cli/signal_waiter.h"
#include "cli/startup.h"
#include "cli/view_args.h"
#include "fs/server.h"
#include "fs/snapshot.h"
#include "refresh/publish.h"
#include "refresh/refresher.h"
#include "refresh/snapshot_builder.h"
#include "render/tag_plan.h"

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

void report_skipped(const refresh::Built& built, StartupReporter& reporter) {
  for (const auto& problem : built.snapshot->problems()) {
    reporter.note("skipped " + problem.path + ": " + problem.reason);
  }
  for (const auto& skipped : built.skipped_files) {
    reporter.note("untagged " + skipped.path + ": " + skipped.reason);
  }
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
  build_options.on_progress = [&reporter](size_t done, size_t total) {
    reporter.progress(done, total);
  };
  refresh::SnapshotBuilder builder(build_options);
  refresh::Built built;
  try {
    built = builder.build();
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
  // Tags come back through the refresh; the checkout gets the writer's code without them.
  server_options.untag = [](std::string_view bytes) {
    return render::has_tag_delimiter(bytes) ? render::strip(bytes) : std::string(bytes);
  };
  std::shared_ptr<fs::Tracer> tracer;
  if (!args.trace_file.empty()) {
    fs::TraceOptions trace_options;
    trace_options.path = args.trace_file;
    trace_options.max_bytes = args.trace_max_size;
    trace_options.keep_kernel_cache = args.trace_keep_cache;
    trace_options.root = paths.repo;
    trace_options.mountpoint = paths.mountpoint;
    trace_options.view = built.view_reason;
    try {
      tracer = std::make_shared<fs::Tracer>(trace_options);
    } catch (const std::exception& error) {
      throw CliError(args.trace_file, error.what());
    }
  }
  fs::Server server(std::move(built.snapshot), server_options);
  if (tracer) server.trace_to(tracer);
  signals.mounting();
  try {
    server.mount();
  } catch (const std::exception& error) {
    throw CliError(paths.mountpoint, error.what());
  }
  signals.serving(server);

  DaemonLog log(args.log_file, args.foreground || args.debug);
  std::unique_ptr<refresh::Refresher> refresher;
  if (!args.no_watch) {
    refresh::RefreshOptions refresh_options;
    refresh_options.log = [&log](const std::string& message) { log.write(message); };
    refresher = std::make_unique<refresh::Refresher>(
        paths.repo, refresh::rebuild_and_publish(builder, server), refresh_options);
    refresher->start();
  }
  reporter.ready(line);
  on_ready();
  const int rc = server.run();
  signals.finished();
  if (tracer) {
    const fs::TraceStats traced = tracer->stats();
    log.write("trace " + args.trace_file + ": " + std::to_string(traced.recorded) + " events, " +
              std::to_string(traced.dropped) + " dropped, " + std::to_string(traced.rotations) +
              " rotations");
  }
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
    const int log_fd = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (log_fd >= 0) err_fd = log_fd;
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
  } catch (const std::exception& error) {
    reporter.failed(error.what());
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

int run_mount(const MountArgs& given) {
  const CheckedMountPaths paths = check_mount_paths(given.repo, given.mountpoint);
  MountArgs args = given;
  args.log_file = absolute(args.log_file);
  args.cache.dir = absolute(args.cache.dir);
  args.trace_file = absolute(args.trace_file);
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
      "Append refreshes and warnings to FILE (the daemon's messages go nowhere else)");
  command->add_option("--trace", args->trace_file,
                      "Write JSON lines of lookups, opens, reads and listings to FILE "
                      "(docs/study.md); kernel caching is then reduced so every read is seen");
  command->add_option("--trace-max-size", args->trace_max_size,
                      "Rotate the trace to FILE.1 beyond this many bytes (default 256 MiB)");
  command->add_flag("--trace-keep-cache", args->trace_keep_cache,
                    "Trace without reducing kernel caching (cheaper; cached re-reads unseen)");
  command->add_flag("-v,--verbose", args->verbose,
                    "List every file served untagged or skipped, and why");
  return {command, [args] { return run_mount(*args); }};
}

}  // namespace anchorfs::cli
