// `anchorfs reference man|bash|zsh|fish`: the man page or a shell's completion script, written
// from the app that parses the command line (the build installs them; hidden from --help).
#include <iostream>
#include <memory>
#include <string>

#include "cli/cli_error.h"
#include "cli/cli_model.h"
#include "cli/command.h"
#include "cli/reference.h"

namespace anchorfs::cli {

Command add_reference_command(CLI::App& app) {
  auto format = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "reference", "Print the man page or a shell completion script (for packagers)");
  command->group("");
  command->add_option("FORMAT", *format, "man, bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"man", "bash", "zsh", "fish"}));
  return {command, [&app, format] {
            const CommandModel program = describe(app);
            if (*format == "man") std::cout << man_page(program, ANCHORFS_VERSION);
            if (*format == "bash") std::cout << bash_completion(program);
            if (*format == "zsh") std::cout << zsh_completion(program);
            if (*format == "fish") std::cout << fish_completion(program);
            return kExitOk;
          }};
}

}  // namespace anchorfs::cli
