// Generated reference documents: the man page and the shell completion scripts, each written
// from the CommandModel of the app that parses the command line.
#pragma once

#include <string>

#include "cli/cli_model.h"

namespace anchorfs::cli {

std::string man_page(const CommandModel& program, const std::string& version);
std::string bash_completion(const CommandModel& program);
std::string zsh_completion(const CommandModel& program);
std::string fish_completion(const CommandModel& program);

// Calls `visit(path, command)` for every command below `program`, parents first; `path` is the
// names from the program down, space-separated ("cache stats").
template <typename Visit>
void for_each_command(const CommandModel& program, Visit&& visit, const std::string& prefix = "") {
  for (const CommandModel& command : program.subcommands) {
    const std::string path = prefix.empty() ? command.names[0] : prefix + " " + command.names[0];
    visit(path, command);
    for_each_command(command, visit, path);
  }
}

}  // namespace anchorfs::cli
