// The PyCG call-graph format: dotted names of modules, classes and functions, callees per node.
#include <set>

#include "analysis/export/json_text.h"
#include "analysis/export/writers.h"

namespace anchorfs::graph_export {
namespace {

using analysis::EntityIndex;
using analysis::EntityKind;
using analysis::Graph;

constexpr std::string_view kPythonSuffix = ".py";
constexpr std::string_view kPackageInit = "__init__";

// The pycg node name of every entity (nullopt: outside the package or not Python).
std::vector<std::optional<std::string>> node_names(const Graph& graph,
                                                   const ExportOptions& options) {
  std::vector<std::optional<std::string>> names(graph.entities.size());
  for (EntityIndex e = 0; e < graph.entities.size(); ++e) {
    const analysis::Entity& entity = graph.entities[e];
    if (entity.kind == EntityKind::File) names[e] = pycg_module_name(entity.name, options);
  }
  for (EntityIndex e = 0; e < graph.entities.size(); ++e) {
    const analysis::Entity& entity = graph.entities[e];
    if (entity.kind == EntityKind::File || entity.file >= graph.entities.size()) continue;
    if (const auto& module = names[entity.file]) names[e] = *module + "." + entity.name;
  }
  return names;
}

}  // namespace

std::optional<std::string> pycg_module_name(std::string_view path, const ExportOptions& options) {
  if (path.size() <= kPythonSuffix.size() || !path.ends_with(kPythonSuffix)) return std::nullopt;
  if (!options.package.empty()) {
    std::string_view package = options.package;
    while (package.ends_with('/')) package.remove_suffix(1);
    if (!package.empty()) {
      if (path.size() <= package.size() || !path.starts_with(package) ||
          path[package.size()] != '/') {
        return std::nullopt;
      }
      path.remove_prefix(package.size() + 1);
    }
  }
  path.remove_suffix(kPythonSuffix.size());
  if (path == kPackageInit) {
    path = {};
  } else if (path.ends_with(kPackageInit) && path[path.size() - kPackageInit.size() - 1] == '/') {
    path.remove_suffix(kPackageInit.size() + 1);
  }
  std::string name = options.name_prefix;
  if (!name.empty() && !path.empty()) name += '.';
  for (char c : path) name += c == '/' ? '.' : c;
  // A package root's own __init__.py with no prefix to name it: keep PyCG's plain file name.
  if (name.empty()) name = kPackageInit;
  return name;
}

PycgGraph pycg_call_graph(const Graph& graph, const ExportOptions& options) {
  const std::vector<std::optional<std::string>> names = node_names(graph, options);
  std::map<std::string, std::set<std::string>> callees;
  for (EntityIndex e = 0; e < graph.entities.size(); ++e) {
    if (names[e]) callees[*names[e]];
  }
  for (const analysis::Edge& edge : graph.edges) {
    if (edge.relation != analysis::Relation::Calls) continue;
    if (edge.from >= names.size() || edge.to >= names.size()) continue;
    if (!names[edge.from] || !names[edge.to]) continue;
    // PyCG never lists a class as a callee: instantiation is an edge to the __init__ the MRO
    // finds, which the analysis records as an edge of its own.
    if (graph.entities[edge.to].kind == EntityKind::Class) continue;
    callees[*names[edge.from]].insert(*names[edge.to]);
  }
  PycgGraph result;
  for (auto& [name, targets] : callees) {
    result.emplace(name, std::vector<std::string>(targets.begin(), targets.end()));
  }
  return result;
}

void write_pycg(std::ostream& out, const Graph& graph, const ExportOptions& options) {
  const PycgGraph call_graph = pycg_call_graph(graph, options);
  out << '{';
  bool first_node = true;
  for (const auto& [name, targets] : call_graph) {
    out << (first_node ? "\n  " : ",\n  ");
    first_node = false;
    write_json_string(out, name);
    out << ": [";
    bool first_target = true;
    for (const std::string& target : targets) {
      if (!first_target) out << ", ";
      first_target = false;
      write_json_string(out, target);
    }
    out << ']';
  }
  out << (first_node ? "}\n" : "\n}\n");
}

}  // namespace anchorfs::graph_export
