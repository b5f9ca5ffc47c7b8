// `anchorfs trace report`: sessions, steps and metrics of one or more traced runs, and their
// run-to-run stability, as Markdown or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "trace/navigation.h"
#include "trace/stability.h"

namespace anchorfs::trace {

struct RunReport {
  std::string trace;  // the path given
  std::string root;
  std::string view;
  std::string style;
  std::vector<std::pair<std::string, std::string>> options;  // the mount's, from the header
  uint64_t events = 0;
  uint64_t dropped = 0;
  bool complete = false;
  std::vector<Session> sessions;
  size_t primary = 0;  // the session with the most steps (first on ties): the agent's
};

RunReport report_run(const Run& run, const NavigationOptions& options = {});

// Stability over the runs' primary sessions (their visited files in order).
Stability report_stability(const std::vector<RunReport>& runs);

std::string format_markdown(const std::vector<RunReport>& runs);
nlohmann::json format_json(const std::vector<RunReport>& runs);

}  // namespace anchorfs::trace
