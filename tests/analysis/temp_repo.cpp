// Temporary repositories for analysis tests.
#include "tests/analysis/temp_repo.h"

#include <tree_sitter/api.h>

#include "analysis/python/extract.h"
#include "tests/support/files.h"

namespace anchorfs::analysis::test {

python::FileFacts extract_python(std::string_view source) {
  return python::extract_facts(source);
}

TempRepo::TempRepo() = default;
TempRepo::~TempRepo() = default;

void TempRepo::write(const std::string& path, std::string_view content) const {
  test_support::write_file(root() + "/" + path, std::string(content));
}

Analysis TempRepo::analyze(unsigned threads, FactCache* cache) const {
  AnalysisOptions options;
  options.threads = threads;
  options.cache = cache;
  return analysis::analyze(scan_tree(root()), options);
}

std::vector<std::string> edges_of(const Graph& graph, Relation relation) {
  std::vector<std::string> out;
  for (const Edge& e : graph.edges) {
    if (e.relation == relation) out.push_back(graph.id(e.from) + " -> " + graph.id(e.to));
  }
  return out;
}

bool has_edge(const Graph& graph, Relation relation, std::string_view from, std::string_view to) {
  for (const Edge& e : graph.edges) {
    if (e.relation == relation && graph.id(e.from) == from && graph.id(e.to) == to) return true;
  }
  return false;
}

EntityIndex find_entity(const Graph& graph, std::string_view id) {
  for (EntityIndex e = 0; e < graph.entities.size(); ++e) {
    if (graph.id(e) == id) return e;
  }
  return kNoEntity;
}

}  // namespace anchorfs::analysis::test
