// The command line as data (commands, options, value choices), read from the CLI11 app that
// parses it, so the man page and the shell completions come from the same source as --help.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace anchorfs::cli {

struct OptionModel {
  std::vector<std::string> short_names;  // without the dash: "f"
  std::vector<std::string> long_names;   // without the dashes: "foreground"
  std::string value_name;                // empty for a flag; "V", "FILE", ...
  std::string description;
  std::string default_value;              // as --help shows it; empty when none is shown
  std::vector<std::string> choices;       // the accepted values, when the option checks them
  bool takes_path = false;                // its value is a file or directory name
};

struct PositionalModel {
  std::string name;  // "REPO"
  std::string description;
  bool required = false;
  bool repeated = false;
};

struct CommandModel {
  std::vector<std::string> names;  // the name, then its aliases
  std::string description;
  std::vector<OptionModel> options;  // --help excluded (every command has it)
  std::vector<PositionalModel> positionals;
  std::vector<CommandModel> subcommands;  // nested commands (`cache stats`)
};

// The whole command line of `app`: the top-level options of the program and every command.
// Commands in no group (hidden from --help, like git-filter) are left out.
CommandModel describe(const CLI::App& app);

}  // namespace anchorfs::cli
