// Report formatting: one Markdown section (or JSON object) per run and session.
#include "trace/report.h"

#include <fmt/format.h>

#include <algorithm>

namespace anchorfs::trace {

using nlohmann::json;

namespace {

std::vector<std::string> trajectory(const Session& session) {
  std::vector<std::string> files;
  for (const Visit& visit : session.visits) files.push_back(visit.path);
  return files;
}

std::string joined(const std::vector<std::string>& items, size_t limit) {
  std::string text;
  for (size_t i = 0; i < items.size() && i < limit; ++i) {
    if (i > 0) text += ", ";
    text += items[i];
  }
  if (items.size() > limit) text += fmt::format(", … (+{})", items.size() - limit);
  return text;
}

std::string ranges_text(const Visit& visit) {
  std::string text;
  for (const auto& [begin, end] : visit.ranges) {
    if (!text.empty()) text += " ";
    text += fmt::format("{}-{}", begin, end);
  }
  return text;
}

json metrics_json(const SessionMetrics& m) {
  return json{{"visits", m.visits},           {"searches", m.searches},
              {"rounds", m.rounds},           {"hops", m.hops},
              {"structural", m.structural},   {"lexical", m.lexical},
              {"exploratory", m.exploratory}, {"lfr", m.lfr}};
}

}  // namespace

RunReport report_run(const Run& run, const NavigationOptions& options) {
  RunReport report;
  report.trace = run.name;
  report.root = run.root;
  report.view = run.view;
  report.style = run.style;
  report.options = run.options;
  report.events = run.events.size();
  report.dropped = run.dropped;
  report.complete = run.complete;
  report.sessions = sessions(run, options);
  for (size_t i = 1; i < report.sessions.size(); ++i) {
    if (report.sessions[i].steps.size() > report.sessions[report.primary].steps.size()) {
      report.primary = i;
    }
  }
  return report;
}

Stability report_stability(const std::vector<RunReport>& runs) {
  std::vector<std::vector<std::string>> trajectories;
  for (const RunReport& run : runs) {
    trajectories.push_back(run.sessions.empty() ? std::vector<std::string>{}
                                                : trajectory(run.sessions[run.primary]));
  }
  return stability(trajectories);
}

std::string format_markdown(const std::vector<RunReport>& runs) {
  std::string out = "# anchorfs trace report\n";
  for (const RunReport& run : runs) {
    std::string options;
    for (const auto& [name, value] : run.options) {
      options += fmt::format("{}{}={}", options.empty() ? "" : " ", name, value);
    }
    out += fmt::format("\n## {}\n\nroot `{}`, view `{}`, style `{}`{}: {} events, {} dropped{}\n",
                       run.trace, run.root, run.view, run.style,
                       options.empty() ? "" : fmt::format(" (mount: `{}`)", options), run.events,
                       run.dropped,
                       run.complete ? "" : " (trace not closed: mount still running or killed)");
    for (size_t s = 0; s < run.sessions.size(); ++s) {
      const Session& session = run.sessions[s];
      out += fmt::format("\n### session {} ({}){}\n\n", session.sid, session.leader,
                         s == run.primary ? ", primary" : "");
      out += "| step | t | kind | process | path | covers | hop | via |\n";
      out += "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
      const double t0 = session.steps.empty()         ? 0
                        : session.steps.front().first ? session.searches.front().t
                                                      : session.visits.front().t;
      for (size_t k = 0; k < session.steps.size(); ++k) {
        const auto [is_search, index] = session.steps[k];
        if (is_search) {
          const Search& search = session.searches[index];
          out += fmt::format("| {} | {:.3f} | search | {} {} | `{}` ({} files) | | | |\n", k + 1,
                             search.t - t0, search.comm, search.pid, search.cmdline, search.files);
          continue;
        }
        const Visit& visit = session.visits[index];
        std::string hop = visit.hop ? std::string(hop_name(*visit.hop)) : "start";
        if (visit.after_search) hop += ", after search";
        if (visit.found_by_search) hop += ", found by search";
        if (visit.revisit) hop += ", revisit";
        out += fmt::format("| {} | {:.3f} | visit | {} {} | {} [{}] | {} | {} | {} |\n", k + 1,
                           visit.t - t0, visit.comm, visit.pid, visit.path, ranges_text(visit),
                           joined(visit.entities, 6), hop, visit.via);
      }
      const size_t unavailable = static_cast<size_t>(std::count_if(
          session.visits.begin(), session.visits.end(),
          [](const Visit& visit) { return visit.text_unavailable; }));
      if (unavailable > 0) {
        out += fmt::format(
            "\n{} of {} visits gave no lexical evidence: their files changed or are gone under "
            "the root (lexical hops may show as exploratory)\n",
            unavailable, session.visits.size());
      }
      const SessionMetrics& m = session.metrics;
      out += "\n| Visits | Searches | Rounds | Hops | Struct | Lex | Expl | LFR |\n";
      out += "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {:.3f} |\n", m.visits, m.searches,
                         m.rounds, m.hops, m.structural, m.lexical, m.exploratory, m.lfr);
    }
  }
  if (runs.size() > 1) {
    const Stability st = report_stability(runs);
    out += fmt::format(
        "\n## stability over {} runs (primary sessions)\n\n"
        "| files visited (mean ± std) | visited-set variance | Jaccard distance | edit distance |\n"
        "| --- | --- | --- | --- |\n"
        "| {:.2f} ± {:.2f} | {:.4f} | {:.4f} | {:.4f} |\n",
        st.runs, st.visited_mean, st.visited_std, st.visited_variance, st.jaccard_distance,
        st.edit_distance);
  }
  return out;
}

json format_json(const std::vector<RunReport>& runs) {
  json out{{"runs", json::array()}};
  for (const RunReport& run : runs) {
    json sessions = json::array();
    for (const Session& session : run.sessions) {
      json steps = json::array();
      for (const auto& [is_search, index] : session.steps) {
        if (is_search) {
          const Search& search = session.searches[index];
          steps.push_back(json{{"kind", "search"},
                               {"t", search.t},
                               {"pid", search.pid},
                               {"comm", search.comm},
                               {"cmdline", search.cmdline},
                               {"files", search.files}});
          continue;
        }
        const Visit& visit = session.visits[index];
        json ranges = json::array();
        for (const auto& [begin, end] : visit.ranges) ranges.push_back(json{begin, end});
        steps.push_back(json{{"kind", "visit"},
                             {"t", visit.t},
                             {"pid", visit.pid},
                             {"comm", visit.comm},
                             {"path", visit.path},
                             {"ranges", ranges},
                             {"entities", visit.entities},
                             {"tags", visit.tags},
                             {"hop", visit.hop ? json(hop_name(*visit.hop)) : json(nullptr)},
                             {"via", visit.via},
                             {"after_search", visit.after_search},
                             {"found_by_search", visit.found_by_search},
                             {"revisit", visit.revisit},
                             {"text_unavailable", visit.text_unavailable}});
      }
      sessions.push_back(json{{"sid", session.sid},
                              {"leader", session.leader},
                              {"steps", std::move(steps)},
                              {"metrics", metrics_json(session.metrics)}});
    }
    json options = json::object();
    for (const auto& [name, value] : run.options) options[name] = value;
    out["runs"].push_back(json{{"trace", run.trace},
                               {"root", run.root},
                               {"view", run.view},
                               {"style", run.style},
                               {"options", std::move(options)},
                               {"events", run.events},
                               {"dropped", run.dropped},
                               {"complete", run.complete},
                               {"primary", run.primary},
                               {"sessions", std::move(sessions)}});
  }
  const Stability st = report_stability(runs);
  out["stability"] = json{{"runs", st.runs},
                          {"visited_mean", st.visited_mean},
                          {"visited_std", st.visited_std},
                          {"visited_variance", st.visited_variance},
                          {"jaccard_distance", st.jaccard_distance},
                          {"edit_distance", st.edit_distance}};
  return out;
}

}  // namespace anchorfs::trace
