// `anchorfs map [REPO|MOUNT] PATH:LINE [--to view|checkout]`: line numbers across the tags.
#include <sys/stat.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>

#include "cli/cache_args.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/file_io.h"
#include "cli/line_map.h"
#include "cli/mount_checks.h"
#include "cli/mountinfo.h"
#include "cli/paths.h"
#include "cli/pipeline.h"
#include "cli/view_args.h"

namespace anchorfs::cli {
namespace {

struct MapArgs {
  std::vector<std::string> positionals;  // [DIR] PATH:LINE
  std::string to = "checkout";
  unsigned threads = 0;
  CacheArgs cache;
  ViewArgs view;
};

struct Location {
  std::string path;
  size_t line = 0;
};

Location parse_location(const std::string& text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    throw CliError(text, "expected PATH:LINE");
  }
  size_t line = 0;
  for (char c : text.substr(colon + 1)) {
    if (c < '0' || c > '9' || line > 100'000'000) throw CliError(text, "LINE must be a number");
    line = line * 10 + static_cast<size_t>(c - '0');
  }
  if (line == 0) throw CliError(text, "lines count from 1");
  return {text.substr(0, colon), line};
}

// The anchorfs mount `dir` is in (itself or a directory above it), if any.
std::optional<std::string> enclosing_mount(const std::string& dir) {
  for (std::string at = dir;;) {
    if (std::optional<MountEntry> mount = find_mount(at)) {
      if (mount->fstype == kAnchorfsFsType) return at;
    }
    if (at == "/") return std::nullopt;
    const size_t slash = at.rfind('/');
    at = slash == 0 ? "/" : at.substr(0, slash);
  }
}

// The view's bytes of `path` under `dir`: read from the mount when `dir` is in one, otherwise
// rendered from the repository `dir` with the view options given.
std::string view_bytes(const std::string& dir, const std::string& path, const MapArgs& args) {
  if (enclosing_mount(dir)) return read_regular_file(dir + "/" + path);
  return render_one_file(check_repo(dir), path, args.cache, args.view.options(), args.threads);
}

int run_map(const MapArgs& args) {
  if (args.positionals.empty() || args.positionals.size() > 2) {
    throw CliError("map", "expected [REPO|MOUNT] PATH:LINE", kExitUsage);
  }
  const std::string dir = canonical(args.positionals.size() == 2 ? args.positionals[0] : ".");
  const Location location = parse_location(args.positionals.back());
  const LineMap map(view_bytes(dir, location.path, args));
  if (args.to == "view") {
    const std::optional<size_t> line = map.to_view(location.line);
    if (!line)
      throw CliError(location.path, "the checkout has no line " + std::to_string(location.line));
    std::cout << location.path << ":" << *line << "\n";
    return kExitOk;
  }
  const std::optional<LineMap::Mapped> mapped = map.to_checkout(location.line);
  if (!mapped)
    throw CliError(location.path, "the view has no line " + std::to_string(location.line));
  if (mapped->tag_line) {
    std::cerr << "anchorfs: map: view line " << location.line << " of " << location.path
              << " is a tag line; giving the line it describes\n";
  }
  std::cout << location.path << ":" << mapped->line << "\n";
  return kExitOk;
}

}  // namespace

Command add_map_command(CLI::App& app) {
  auto args = std::make_shared<MapArgs>();
  CLI::App* command =
      app.add_subcommand("map", "Translate a line number between the tagged view and the checkout");
  command
      ->add_option("ARGS", args->positionals,
                   "[REPO|MOUNT] PATH:LINE (REPO|MOUNT defaults to the current directory; PATH "
                   "is relative to it)")
      ->required()
      ->expected(1, 2);
  command->add_option("--to", args->to, "Numbering to translate into (default: checkout)")
      ->check(CLI::IsMember({"view", "checkout"}));
  add_view_args(*command, args->view);
  command->add_option("--threads", args->threads, "Analysis threads (0: all cores)");
  add_cache_args(*command, args->cache);
  return {command, [args] { return run_map(*args); }};
}

}  // namespace anchorfs::cli
