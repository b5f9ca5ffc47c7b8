// `anchorfs strip [FILE...]`: prints files (or stdin) with every tag block removed.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/file_io.h"
#include "render/tag_plan.h"

namespace anchorfs::cli {

Command add_strip_command(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* command =
      app.add_subcommand("strip", "Print FILE(s), or stdin, with every anchorfs tag block removed");
  command->add_option("FILE", *files, "Tagged files to strip; '-' or none reads stdin");
  return {command, [files] {
            int exit_code = kExitOk;
            std::vector<std::string> inputs = *files;
            if (inputs.empty()) inputs.push_back("-");
            for (const std::string& input : inputs) {
              // Like cat: report a bad file, go on with the others, fail at the end.
              try {
                const std::string bytes =
                    input == "-" ? read_all(STDIN_FILENO, "stdin") : read_regular_file(input);
                write_all(STDOUT_FILENO, render::strip(bytes), "stdout");
              } catch (const CliError& error) {
                std::cerr << "anchorfs: strip: " << error.what() << "\n";
                exit_code = kExitRuntime;
              }
            }
            return exit_code;
          }};
}

}  // namespace anchorfs::cli
