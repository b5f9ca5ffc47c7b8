// `anchorfs render REPO FILE`: the tagged view of one file on stdout (analyses REPO, no FUSE).
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "cli/cache_args.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/file_io.h"
#include "cli/mount_checks.h"
#include "cli/paths.h"
#include "cli/pipeline.h"
#include "cli/view_args.h"

namespace anchorfs::cli {
namespace {

struct RenderArgs {
  std::string repo;
  std::string file;
  unsigned threads = 0;
  CacheArgs cache;
  ViewArgs view;
};

// FILE as a repository-relative path: tried relative to REPO first, then to the working
// directory; the final component is never followed (a symlink stays a symlink).
std::string relative_to_repo(const std::string& repo, const std::string& file) {
  std::string candidate = file;
  struct stat st {};
  if (file.empty() || file[0] != '/') {
    // A relative name that exists nowhere is reported as missing from the repository.
    const std::string in_repo = repo + "/" + file;
    if (::lstat(in_repo.c_str(), &st) == 0 || ::lstat(file.c_str(), &st) != 0) candidate = in_repo;
  }
  const std::string absolute = canonical_keep_last(candidate);
  if (absolute == repo || !is_within(absolute, repo)) {
    throw CliError(file, "not a file inside the repository " + repo);
  }
  return absolute.substr(repo.size() + 1);
}

int run_render(const RenderArgs& args) {
  const std::string repo = check_repo(args.repo);
  const std::string path = relative_to_repo(repo, args.file);
  write_all(STDOUT_FILENO, render_one_file(repo, path, args.cache, args.view.options(), args.threads),
            "stdout");
  return kExitOk;
}

}  // namespace

Command add_render_command(CLI::App& app) {
  auto args = std::make_shared<RenderArgs>();
  CLI::App* command =
      app.add_subcommand("render", "Print the tagged view of one file of REPO (no mount needed)");
  command->add_option("REPO", args->repo, "Repository directory")->required();
  command->add_option("FILE", args->file, "File to render, relative to REPO (or a path into it)")
      ->required();
  add_view_args(*command, args->view);
  command->add_option("--threads", args->threads, "Analysis threads (0: all cores)");
  add_cache_args(*command, args->cache);
  return {command, [args] { return run_render(*args); }};
}

}  // namespace anchorfs::cli
