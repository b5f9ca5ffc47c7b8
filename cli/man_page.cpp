// anchorfs(1) in roff, written from the command-line model (`anchorfs reference man`).
#include <fmt/format.h>

#include <string>

#include "cli/cli_error.h"
#include "cli/reference.h"

namespace anchorfs::cli {
namespace {

// Text made safe for roff: backslashes and dashes escaped, a line never starting with a
// control character.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string option_heading(const OptionModel& option) {
  std::string heading;
  for (const std::string& name : option.short_names) {
    heading += (heading.empty() ? "" : ", ") + std::string("\\fB\\-") + roff(name) + "\\fR";
  }
  for (const std::string& name : option.long_names) {
    heading += (heading.empty() ? "" : ", ") + std::string("\\fB\\-\\-") + roff(name) + "\\fR";
  }
  if (!option.value_name.empty()) heading += " \\fI" + roff(option.value_name) + "\\fR";
  return heading;
}

std::string synopsis(const std::string& path, const CommandModel& command) {
  std::string line = "\\fBanchorfs " + roff(path) + "\\fR";
  if (!command.options.empty()) line += " [\\fIOPTIONS\\fR]";
  if (!command.subcommands.empty()) line += " \\fICOMMAND\\fR";
  for (const PositionalModel& positional : command.positionals) {
    std::string name = "\\fI" + roff(positional.name) + "\\fR" + (positional.repeated ? "..." : "");
    line += " " + (positional.required ? name : "[" + name + "]");
  }
  return line;
}

void write_command(std::string& out, const std::string& path, const CommandModel& command) {
  out += ".SS " + synopsis(path, command) + "\n";
  if (command.names.size() > 1) {
    out += roff(command.description) + " (alias \\fB" + roff(command.names[1]) + "\\fR).\n";
  } else {
    out += roff(command.description) + ".\n";
  }
  for (const PositionalModel& positional : command.positionals) {
    out += ".TP\n\\fI" + roff(positional.name) + "\\fR\n" + roff(positional.description) + "\n";
  }
  for (const OptionModel& option : command.options) {
    out += ".TP\n" + option_heading(option) + "\n" + roff(option.description);
    if (!option.default_value.empty()) out += " (default: " + roff(option.default_value) + ")";
    out += "\n";
  }
}

}  // namespace

std::string man_page(const CommandModel& program, const std::string& version) {
  std::string out = fmt::format(".TH ANCHORFS 1 \"\" \"anchorfs {}\" \"User Commands\"\n",
                                roff(version));
  out += ".SH NAME\nanchorfs \\- " + roff(program.description.substr(
                                           program.description.find(": ") + 2)) + "\n";
  out += ".SH SYNOPSIS\n\\fBanchorfs\\fR [\\fB\\-\\-help\\fR] [\\fB\\-\\-version\\fR] "
         "\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n";
  out += ".SH DESCRIPTION\n"
         "anchorfs serves a repository as a FUSE filesystem in which every source file carries "
         "structural tags: comments above each function, class and file naming what it calls, "
         "what calls it, what it inherits and what it imports. The checkout is never changed "
         "(a \\fB\\-\\-writable\\fR mount stores edits without tags). Where FUSE is not "
         "available, \\fBanchorfs export\\fR writes the tagged tree as files and "
         "\\fBanchorfs import\\fR stores the edits made there without tags. Every command has "
         "\\fB\\-\\-help\\fR.\n";
  out += ".SH COMMANDS\n";
  for_each_command(program, [&out](const std::string& path, const CommandModel& command) {
    write_command(out, path, command);
  });
  out += fmt::format(
      ".SH EXIT STATUS\n.TP\n{}\nsuccess\n.TP\n{}\nruntime error: a path, permission, mount or "
      "I/O problem (the message says which; \\fBanchorfs doctor\\fR checks the FUSE setup)\n"
      ".TP\n{}\nusage error: unknown command or option, missing argument, invalid value\n",
      kExitOk, kExitRuntime, kExitUsage);
  out += ".SH ENVIRONMENT\n.TP\n\\fBANCHORFS_CACHE_MAX_SIZE\\fR\ndefault for "
         "\\fB\\-\\-cache\\-max\\-size\\fR\n.TP\n\\fBANCHORFS_REMOTE_CACHE\\fR\ndefault for "
         "\\fB\\-\\-remote\\-cache\\fR\n.TP\n\\fBXDG_CACHE_HOME\\fR\nthe cache lives in "
         "\\fI$XDG_CACHE_HOME/anchorfs\\fR (else \\fI~/.cache/anchorfs\\fR)\n";
  out += ".SH SEE ALSO\n\\fBfusermount3\\fR(1), \\fBmount.fuse3\\fR(8); the documentation in "
         "\\fI/usr/share/doc/anchorfs\\fR\n";
  return out;
}

}  // namespace anchorfs::cli
