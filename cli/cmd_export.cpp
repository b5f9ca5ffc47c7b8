// `anchorfs export REPO OUTDIR`: writes the tagged tree to a directory, for machines without FUSE.
#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "cli/cache_args.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/mount_checks.h"
#include "cli/paths.h"
#include "cli/pipeline.h"
#include "cli/tree_export.h"
#include "cli/view_args.h"
#include "fs/snapshot.h"

namespace anchorfs::cli {
namespace {

struct ExportArgs {
  std::string repo;
  std::string outdir;
  std::string manifest;
  bool force = false;
  bool verbose = false;
  unsigned threads = 0;
  CacheArgs cache;
  ViewArgs view;
};

bool is_empty_directory(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) throw CliError(path, errno_text(errno));
  bool empty = true;
  while (const dirent* d = ::readdir(dir)) {
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) empty = false;
  }
  ::closedir(dir);
  return empty;
}

// OUTDIR checked (and created when missing); returns its canonical path.
std::string prepare_outdir(const std::string& repo, const ExportArgs& args) {
  const std::string outdir = canonical_keep_last(args.outdir);
  if (is_within(outdir, repo)) {
    throw CliError(args.outdir, "inside the repository " + repo + " (anchorfs never writes there)");
  }
  if (is_within(repo, outdir)) {
    throw CliError(args.outdir, "contains the repository " + repo);
  }
  struct stat st {};
  if (::lstat(outdir.c_str(), &st) != 0) {
    if (errno != ENOENT || ::mkdir(outdir.c_str(), 0755) != 0) {
      throw CliError(args.outdir, errno_text(errno));
    }
    return outdir;
  }
  if (!S_ISDIR(st.st_mode)) throw CliError(args.outdir, "not a directory");
  if (!args.force && !is_empty_directory(outdir)) {
    throw CliError(args.outdir, "not empty (use --force to write into it)");
  }
  return outdir;
}

int run_export(const ExportArgs& args) {
  const std::string repo = check_repo(args.repo);
  const std::string outdir = prepare_outdir(repo, args);
  const std::string manifest =
      canonical_keep_last(args.manifest.empty() ? default_manifest_path(outdir) : args.manifest);
  if (is_within(manifest, outdir) || is_within(manifest, repo)) {
    throw CliError(manifest, "inside " + std::string(is_within(manifest, outdir) ? outdir : repo) +
                                 " (the manifest is kept beside the copy)");
  }
  const auto store = open_cache(repo, args.cache, warn_on_stderr);
  refresh::PipelineOptions options;
  options.view = args.view.options();
  options.threads = args.threads;
  options.cache = store.get();
  Prepared prepared = prepare(repo, options);
  const std::string& line = prepared.summary;
  std::shared_ptr<const fs::Snapshot> snapshot;
  try {
    snapshot = fs::make_snapshot_from(std::move(prepared.tree), prepared.result.plans);
  } catch (const std::exception& error) {
    throw CliError("internal error building the snapshot", error.what());
  }
  ExportReport report = export_tree(*snapshot, outdir, args.force);
  report.manifest.repo = repo;
  write_manifest(report.manifest, manifest);
  if (args.verbose) {
    for (const std::string& skipped : report.skipped)
      std::cerr << "anchorfs: skipped " << skipped << "\n";
  }
  std::cerr << fmt::format(
      "anchorfs: exported {} to {}: {} files ({} tagged), {} directories, {} symlinks{}; {}\n",
      repo, outdir, report.files, report.tagged, report.directories, report.symlinks,
      report.skipped.empty() ? "" : fmt::format(", {} skipped", report.skipped.size()), line);
  return kExitOk;
}

}  // namespace

Command add_export_command(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* command = app.add_subcommand(
      "export", "Write the tagged tree of REPO into OUTDIR (the bytes a mount would serve)");
  command->add_option("REPO", args->repo, "Repository directory")->required();
  command->add_option("OUTDIR", args->outdir, "Directory to write (created if missing)")
      ->required();
  command->add_flag("--force", args->force,
                    "Write into a non-empty OUTDIR, replacing what is there");
  command->add_option("--manifest", args->manifest,
                      "Where to record what was exported, for `anchorfs import` (default: "
                      "OUTDIR.anchorfs-export, beside OUTDIR)")
      ->type_name("FILE");
  add_view_args(*command, args->view);
  command->add_option("--threads", args->threads, "Analysis threads (0: all cores)");
  add_cache_args(*command, args->cache);
  command->add_flag("-v,--verbose", args->verbose, "List every entry skipped, and why");
  return {command, [args] { return run_export(*args); }};
}

}  // namespace anchorfs::cli
