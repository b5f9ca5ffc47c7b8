// A throwaway repository directory for analysis tests, and helpers to extract and query facts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/python/facts.h"
#include "tests/support/temp_dir.h"

namespace anchorfs::analysis::test {

class TempRepo {
 public:
  TempRepo();
  ~TempRepo();
  TempRepo(const TempRepo&) = delete;
  TempRepo& operator=(const TempRepo&) = delete;

  // Writes `content` at repository-relative `path`, creating directories.
  void write(const std::string& path, std::string_view content) const;
  const std::string& root() const { return dir_.path(); }
  Analysis analyze(unsigned threads = 2, FactCache* cache = nullptr) const;

 private:
  test_support::TempDir dir_{"anchorfs-analysis"};
};

// The Python facts of `source`, extracted with a fresh parser.
python::FileFacts extract_python(std::string_view source);

// "relation from -> to" lines of a graph, by id, for one relation.
std::vector<std::string> edges_of(const Graph& graph, Relation relation);
bool has_edge(const Graph& graph, Relation relation, std::string_view from, std::string_view to);
// The entity with this id, or kNoEntity.
EntityIndex find_entity(const Graph& graph, std::string_view id);

}  // namespace anchorfs::analysis::test
