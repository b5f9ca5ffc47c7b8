// `anchorfs unmount MOUNTPOINT [--lazy]`: unmounts an anchorfs mount, live or left by a dead
// daemon.
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <memory>
#include <string>

#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/daemon_presence.h"
#include "cli/file_io.h"
#include "cli/mountinfo.h"
#include "cli/paths.h"

namespace anchorfs::cli {
namespace {

struct UnmountArgs {
  std::string mountpoint;
  bool lazy = false;
};

const char* const kBusy = "busy: close programs using it (cd out of it) or use --lazy";

// Runs fusermount3 -u [-z] and returns its exit status and stderr.
int run_fusermount(const std::string& mountpoint, bool lazy, std::string& errors) {
  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw CliError("pipe", errno_text(errno));
  const pid_t child = ::fork();
  if (child < 0) throw CliError("fork", errno_text(errno));
  if (child == 0) {
    ::dup2(err_pipe[1], STDERR_FILENO);
    if (lazy) {
      ::execlp("fusermount3", "fusermount3", "-u", "-z", "--", mountpoint.c_str(), nullptr);
    } else {
      ::execlp("fusermount3", "fusermount3", "-u", "--", mountpoint.c_str(), nullptr);
    }
    ::_exit(127);
  }
  ::close(err_pipe[1]);
  errors = read_all(err_pipe[0], "fusermount3");
  ::close(err_pipe[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void unmount_as_root(const std::string& mountpoint, bool lazy) {
  if (::umount2(mountpoint.c_str(), lazy ? MNT_DETACH : 0) == 0) return;
  const int error = errno;
  if (error == EBUSY) throw CliError(mountpoint, kBusy);
  throw CliError(mountpoint, errno_text(error));
}

void unmount_as_user(const std::string& mountpoint, bool lazy) {
  std::string errors;
  const int status = run_fusermount(mountpoint, lazy, errors);
  if (status == 0) return;
  while (!errors.empty() && (errors.back() == '\n' || errors.back() == ' ')) errors.pop_back();
  if (errors.find("busy") != std::string::npos) throw CliError(mountpoint, kBusy);
  if (status == 127) throw CliError("fusermount3", "not found: install the fuse3 package");
  throw CliError(mountpoint, errors.empty() ? "fusermount3 failed" : errors);
}

int run_unmount(const UnmountArgs& args) {
  // A dead mount fails even stat(): then the last component is taken as named.
  std::string mountpoint;
  try {
    mountpoint = canonical(args.mountpoint);
  } catch (const CliError&) {
    mountpoint = canonical_keep_last(args.mountpoint);
  }
  const auto mounted = find_mount(mountpoint);
  if (!mounted) throw CliError(args.mountpoint, "not a mount point");
  if (mounted->fstype != kAnchorfsFsType) {
    throw CliError(args.mountpoint, "not an anchorfs mount (it is " + mounted->fstype + ")");
  }
  if (::geteuid() == 0) {
    unmount_as_root(mountpoint, args.lazy);
  } else {
    unmount_as_user(mountpoint, args.lazy);
  }
  // Return once the daemon is gone, with every descriptor it held: a mount whose repository is
  // another mount's view must have let go of it before that one can be unmounted in turn.
  if (!args.lazy) wait_for_daemon_exit(mounted->device, std::chrono::seconds(30));
  return kExitOk;
}

}  // namespace

Command add_unmount_command(CLI::App& app) {
  auto args = std::make_shared<UnmountArgs>();
  CLI::App* command = app.add_subcommand(
      "unmount", "Unmount an anchorfs mount (also one left behind by a killed daemon)");
  command->alias("umount");
  command->add_option("MOUNTPOINT", args->mountpoint, "Where anchorfs is mounted")->required();
  command->add_flag("-z,--lazy", args->lazy,
                    "Detach now even if busy; the mount goes away when the last user leaves");
  return {command, [args] { return run_unmount(*args); }};
}

}  // namespace anchorfs::cli
