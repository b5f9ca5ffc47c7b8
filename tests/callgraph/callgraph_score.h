// Edge-level precision and recall of a PyCG-format call graph against an expected one.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/export/graph_export.h"

namespace anchorfs::callgraph_test {

using CallEdge = std::pair<std::string, std::string>;  // (caller, callee)

struct Score {
  size_t expected = 0;
  size_t actual = 0;
  size_t matched = 0;
  std::vector<std::string> missing;  // "case: caller -> callee"
  std::vector<std::string> spurious;

  void add(std::string_view label, const std::set<CallEdge>& expected_edges,
           const std::set<CallEdge>& actual_edges);
  void merge(const Score& other);
  // 1 when there is nothing to measure (no edges produced / none expected).
  double precision() const;
  double recall() const;
};

std::set<CallEdge> edges_of(const graph_export::PycgGraph& graph);

// Parses PyCG's JSON format; throws std::runtime_error with the reason if it is not one.
graph_export::PycgGraph parse_pycg_json(std::string_view text);

}  // namespace anchorfs::callgraph_test
