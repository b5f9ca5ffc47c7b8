// Entry points declared in setup.cfg and pyproject.toml (read minimally: names and targets).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace anchorfs::analysis::python {

// The files at the repository root the dense resolver reads entry points from
// (PythonFrontEnd::resolution_inputs: the graph cache key covers them).
inline constexpr std::string_view kSetupCfg = "setup.cfg";
inline constexpr std::string_view kPyprojectToml = "pyproject.toml";
inline constexpr std::string_view kEntryPointFiles[] = {kSetupCfg, kPyprojectToml};

struct EntryPoint {
  std::string group;   // "console_scripts", "gui_scripts", or a plugin group
  std::string name;    // the script or plugin name
  std::string module;  // "pkg.cli"
  std::string attr;    // "main", "App.run"; empty for a module target
};

// `[options.entry_points]` of a setup.cfg: `group =` lines followed by indented
// `name = module:attr` lines (or one on the group's own line).
std::vector<EntryPoint> parse_setup_cfg(std::string_view text);

// `[project.scripts]`, `[project.gui-scripts]`, `[project.entry-points.GROUP]`,
// `[tool.poetry.scripts]` and `[tool.poetry.plugins.GROUP]` tables of a pyproject.toml, with
// `name = "module:attr"` lines. Inline tables and multi-line values are not read.
std::vector<EntryPoint> parse_pyproject(std::string_view text);

}  // namespace anchorfs::analysis::python
