// Writers for `anchorfs graph`: a resolved Graph as PyCG JSON, anchorfs JSON, or Graphviz dot.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/graph.h"

namespace anchorfs::graph_export {

enum class GraphFormat { Json, Pycg, Dot };

// "json", "pycg" or "dot"; nullopt for anything else.
std::optional<GraphFormat> parse_graph_format(std::string_view name);

struct ExportOptions {
  // pycg: the repository-relative directory module names are relative to, as PyCG's --package
  // ("" is the analysed root). Files outside it are left out of the pycg graph.
  std::string package;
  // pycg: a dotted prefix put before every module name ("" for none), for when the analysed root
  // is itself a package directory whose name should appear in the names.
  std::string name_prefix;
  // dot: draw only entities of this file, or of the files below this directory ("" for all);
  // entities outside it that they call, import or inherit are drawn as plain boxes.
  std::string scope;
};

// PyCG's call graph: dotted node name -> sorted, unique callee names. Every module, class and
// function (lambdas included) of the package is a key, even with no callees.
using PycgGraph = std::map<std::string, std::vector<std::string>>;

// The PyCG dotted module name of a repository-relative Python file path ("a/b.py" -> "a.b",
// "a/__init__.py" -> "a"), or nullopt when the file is outside `options.package` or not a
// Python source file.
std::optional<std::string> pycg_module_name(std::string_view path, const ExportOptions& options);

PycgGraph pycg_call_graph(const analysis::Graph& graph, const ExportOptions& options);

// Writes the graph in the chosen format; the output is deterministic (same graph, same bytes).
void write_graph(std::ostream& out, const analysis::Graph& graph, GraphFormat format,
                 const ExportOptions& options);

}  // namespace anchorfs::graph_export
