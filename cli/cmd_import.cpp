// `anchorfs import COPY REPO`: an edited export back into the checkout, without its tags.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/export_manifest.h"
#include "cli/mount_checks.h"
#include "cli/paths.h"
#include "cli/tree_import.h"

namespace anchorfs::cli {
namespace {

struct ImportArgs {
  std::string copy;
  std::string repo;
  std::string manifest;
  bool dry_run = false;
  bool verbose = false;
};

int run_import(const ImportArgs& args) {
  const std::string repo = check_repo(args.repo);
  const std::string copy = canonical(args.copy);
  if (is_within(copy, repo) || is_within(repo, copy)) {
    throw CliError(args.copy, "overlaps the repository " + repo);
  }
  const std::string manifest_path =
      args.manifest.empty() ? default_manifest_path(canonical_keep_last(args.copy)) : args.manifest;
  Manifest manifest = read_manifest(manifest_path);
  if (manifest.repo != repo) {
    throw CliError(args.copy, "was exported from " + manifest.repo + ", not " + repo);
  }
  ImportReport report;
  try {
    report = import_tree(manifest, copy, repo, args.dry_run);
  } catch (const std::invalid_argument& error) {
    throw CliError(manifest_path, std::string("a tag plan that does not fit its file (") +
                                      error.what() + ")");
  }
  if (args.verbose || args.dry_run) {
    for (const std::string& change : report.changes) std::cout << change << "\n";
    for (const std::string& skipped : report.skipped) std::cerr << "anchorfs: skipped " << skipped << "\n";
  }
  for (const std::string& refused : report.refused) std::cerr << "anchorfs: " << refused << "\n";
  if (args.dry_run) {
    std::cerr << fmt::format("anchorfs: {} changes to import from {} into {} (dry run: nothing written); {} refused\n",
                             report.changes.size(), args.copy, repo,
                             report.refused.size());
    return report.refused.empty() ? kExitOk : kExitRuntime;
  }
  write_manifest(manifest, manifest_path);
  std::cerr << fmt::format(
      "anchorfs: imported {} into {}: {} written, {} created, {} deleted, {} directories made, "
      "{} mode or time changes{}\n",
      args.copy, repo, report.written, report.created, report.deleted, report.directories,
      report.modes, report.refused.empty() ? "" : fmt::format("; {} refused", report.refused.size()));
  return report.refused.empty() ? kExitOk : kExitRuntime;
}

}  // namespace

Command add_import_command(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* command = app.add_subcommand(
      "import", "Store the edits made in COPY (an `anchorfs export` of REPO) in REPO, without tags");
  command->add_option("COPY", args->copy, "The exported directory, edited")->required();
  command->add_option("REPO", args->repo, "The repository it was exported from")->required();
  command->add_option("--manifest", args->manifest,
                      "The export's manifest (default: COPY.anchorfs-export, beside COPY)")
      ->type_name("FILE");
  command->add_flag("-n,--dry-run", args->dry_run, "List what would change; write nothing");
  command->add_flag("-v,--verbose", args->verbose, "List every change made");
  return {command, [args] { return run_import(*args); }};
}

}  // namespace anchorfs::cli
