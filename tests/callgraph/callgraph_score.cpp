// Edge scoring of PyCG-format call graphs for the call-graph test suite.
#include "tests/callgraph/callgraph_score.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace anchorfs::callgraph_test {

void Score::add(std::string_view label, const std::set<CallEdge>& expected_edges,
                const std::set<CallEdge>& actual_edges) {
  std::vector<CallEdge> common;
  std::set_intersection(expected_edges.begin(), expected_edges.end(), actual_edges.begin(),
                        actual_edges.end(), std::back_inserter(common));
  expected += expected_edges.size();
  actual += actual_edges.size();
  matched += common.size();
  const auto describe = [&](const CallEdge& edge) {
    return std::string(label) + ": " + edge.first + " -> " + edge.second;
  };
  for (const CallEdge& edge : expected_edges) {
    if (!actual_edges.contains(edge)) missing.push_back(describe(edge));
  }
  for (const CallEdge& edge : actual_edges) {
    if (!expected_edges.contains(edge)) spurious.push_back(describe(edge));
  }
}

void Score::merge(const Score& other) {
  expected += other.expected;
  actual += other.actual;
  matched += other.matched;
  missing.insert(missing.end(), other.missing.begin(), other.missing.end());
  spurious.insert(spurious.end(), other.spurious.begin(), other.spurious.end());
}

double Score::precision() const {
  return actual == 0 ? 1.0 : static_cast<double>(matched) / static_cast<double>(actual);
}

double Score::recall() const {
  return expected == 0 ? 1.0 : static_cast<double>(matched) / static_cast<double>(expected);
}

std::set<CallEdge> edges_of(const graph_export::PycgGraph& graph) {
  std::set<CallEdge> edges;
  for (const auto& [caller, callees] : graph) {
    for (const std::string& callee : callees) edges.emplace(caller, callee);
  }
  return edges;
}

graph_export::PycgGraph parse_pycg_json(std::string_view text) {
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_discarded()) throw std::runtime_error("not JSON");
  if (!document.is_object()) throw std::runtime_error("not a JSON object");
  graph_export::PycgGraph graph;
  for (const auto& [node, callees] : document.items()) {
    if (!callees.is_array()) throw std::runtime_error("callees of " + node + " not a list");
    std::vector<std::string>& targets = graph[node];
    for (const nlohmann::json& callee : callees) {
      if (!callee.is_string()) throw std::runtime_error("callee of " + node + " not a string");
      targets.push_back(callee.get<std::string>());
    }
  }
  return graph;
}

}  // namespace anchorfs::callgraph_test
