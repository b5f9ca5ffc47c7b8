// How a subcommand plugs into the executable: each command file registers itself on the app.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace anchorfs::cli {

// A registered subcommand and what to run when it was the one parsed. `run` returns the exit
// code or throws CliError.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_mount_command(CLI::App& app);
Command add_unmount_command(CLI::App& app);
Command add_render_command(CLI::App& app);
Command add_strip_command(CLI::App& app);
Command add_stats_command(CLI::App& app);
Command add_graph_command(CLI::App& app);
Command add_cache_command(CLI::App& app);
Command add_export_command(CLI::App& app);
Command add_import_command(CLI::App& app);
Command add_git_filter_command(CLI::App& app);
Command add_map_command(CLI::App& app);
Command add_trace_command(CLI::App& app);
Command add_doctor_command(CLI::App& app);
Command add_reference_command(CLI::App& app);

}  // namespace anchorfs::cli
