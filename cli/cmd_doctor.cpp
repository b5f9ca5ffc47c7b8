// `anchorfs doctor [MOUNTPOINT]`: checks what mounting needs and prints each problem's fix.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/doctor_checks.h"
#include "cli/mountinfo.h"
#include "cli/paths.h"

namespace anchorfs::cli {
namespace {

// The repository to size inotify against: --repo, else what an anchorfs mount at MOUNTPOINT
// serves.
std::string repository_of(const DoctorRequest& request) {
  if (!request.repo.empty()) return canonical(request.repo);
  if (request.mountpoint.empty()) return "";
  try {
    const auto mounted = find_mount(canonical(request.mountpoint));
    if (mounted && mounted->fstype == kAnchorfsFsType) return mounted->source;
  } catch (const CliError&) {
    // A missing or dead mountpoint: the mountpoint check reports it.
  }
  return "";
}

int run_doctor(const DoctorRequest& request) {
  const std::string repo = repository_of(request);
  const std::vector<Finding> findings{
      check_fuse_device(),
      check_fusermount(),
      check_allow_other(request.fuse_options),
      check_mountpoint(request.mountpoint),
      check_inotify(repo),
      check_cache(request.cache, repo),
      check_remote_cache(request.cache),
  };
  size_t failed = 0;
  for (const Finding& finding : findings) {
    std::cout << fmt::format("{:<5} {}: {}\n", finding.ok ? "ok" : "FAIL", finding.subject,
                             finding.detail);
    if (!finding.ok) {
      ++failed;
      std::cout << fmt::format("      fix: {}\n", finding.fix);
    }
  }
  if (failed == 0) {
    std::cout << fmt::format("anchorfs doctor: all {} checks passed\n", findings.size());
    return kExitOk;
  }
  std::cout << fmt::format("anchorfs doctor: {} of {} checks failed\n", failed, findings.size());
  return kExitRuntime;
}

}  // namespace

Command add_doctor_command(CLI::App& app) {
  auto request = std::make_shared<DoctorRequest>();
  CLI::App* command = app.add_subcommand(
      "doctor", "Check /dev/fuse, fusermount3, inotify, the cache and MOUNTPOINT; print fixes");
  command->add_option("MOUNTPOINT", request->mountpoint,
                      "A mountpoint to check (a dead or stale mount, emptiness)");
  command->add_option("--repo", request->repo,
                      "Repository whose directories live refresh would watch (default: the one "
                      "an anchorfs mount at MOUNTPOINT serves)")
      ->type_name("DIR");
  command
      ->add_option("-o", request->fuse_options,
                   "FUSE mount options the mount will get (allow_other is checked)")
      ->delimiter(',')
      ->allow_extra_args(false);
  add_cache_args(*command, request->cache);
  return {command, [request] { return run_doctor(*request); }};
}

}  // namespace anchorfs::cli
