// The anchorfs executable: parses the command line and runs one subcommand.
#include <CLI/CLI.hpp>
#include <iostream>
#include <vector>

#include "cli/cli_error.h"
#include "cli/command.h"

int main(int argc, char** argv) {
  using namespace anchorfs::cli;
  CLI::App app{"anchorfs: a view of a repository whose source files carry structural tag comments",
               "anchorfs"};
  app.set_version_flag("--version", "anchorfs " ANCHORFS_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  const std::vector<Command> commands{
      add_mount_command(app),  add_unmount_command(app), add_render_command(app),
      add_strip_command(app),  add_stats_command(app),   add_graph_command(app),
      add_export_command(app), add_import_command(app),  add_cache_command(app),
      add_trace_command(app),  add_map_command(app),     add_doctor_command(app),
      add_git_filter_command(app), add_reference_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    std::cerr << "anchorfs: " << error.what() << "\n"
              << "Run 'anchorfs --help' or 'anchorfs COMMAND --help' for usage.\n";
    return kExitUsage;
  }
  try {
    for (const Command& command : commands) {
      if (command.app->parsed()) return command.run();
    }
  } catch (const CliError& error) {
    std::cerr << "anchorfs: " << error.what() << "\n";
    if (!error.hint().empty()) std::cerr << "anchorfs: " << error.hint() << "\n";
    return error.exit_code();
  } catch (const std::exception& error) {
    std::cerr << "anchorfs: internal error: " << error.what() << "\n";
    return kExitRuntime;
  }
  return kExitUsage;
}
