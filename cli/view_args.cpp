// Registration and conversion of the view options.
#include "cli/view_args.h"

#include "cli/cli_error.h"

namespace anchorfs::cli {

void add_view_args(CLI::App& command, ViewArgs& args) {
  args.view_option =
      command.add_option("--view", args.view, "Tag view: none, topo, inv, dense or auto")
          ->check(CLI::IsMember({"none", "topo", "inv", "dense", "auto"}))
          ->capture_default_str();
  args.style_option =
      command.add_option("--style", args.style, "Tag style: paper (delimited blocks) or lean")
          ->check(CLI::IsMember({"paper", "lean"}))
          ->capture_default_str();
  command
      .add_option("--max-links", args.max_links,
                  "Values shown per tag field before \"... (+K more)\"")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  args.hub_threshold_option =
      command.add_option("--hub-threshold", args.hub_threshold,
                         "Leave out CALLS links to entities with more than D callers");
  args.tag_budget_option =
      command.add_option("--tag-budget", args.tag_budget,
                         "Keep tag bytes within PCT % of source bytes (lower caps, fewer hub "
                         "links, then fewer blocks)")
          ->check(CLI::Range(0.0, 1000.0));
}

render::ViewOptions ViewArgs::options() const {
  render::ViewOptions result;
  const auto parsed = render::parse_view(view);
  if (!parsed) throw CliError("--view", "unknown view '" + view + "'", kExitUsage);
  result.view = *parsed;
  const auto parsed_style = render::parse_style(style);
  if (!parsed_style) throw CliError("--style", "unknown style '" + style + "'", kExitUsage);
  result.style = *parsed_style;
  result.max_links = max_links;
  if (tag_budget_option != nullptr && tag_budget_option->count() > 0) result.tag_budget = tag_budget;
  if (hub_threshold_option != nullptr && hub_threshold_option->count() > 0) {
    result.hub_threshold = hub_threshold;
  }
  return result;
}

}  // namespace anchorfs::cli
