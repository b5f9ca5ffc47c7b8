// Edges resolved per file on any thread, joined in file order so they do not depend on threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/graph.h"

namespace anchorfs::analysis {

// Appends every file's edges to `edges` in file order, freeing each file's slot as it goes;
// `joined(f, edges.size())` runs after file f's.
template <typename Joined>
void join_file_edges(std::vector<std::vector<Edge>>& by_file, std::vector<Edge>& edges,
                     Joined&& joined) {
  size_t total = edges.size();
  for (const std::vector<Edge>& file : by_file) total += file.size();
  edges.reserve(total);
  for (uint32_t f = 0; f < by_file.size(); ++f) {
    edges.insert(edges.end(), by_file[f].begin(), by_file[f].end());
    std::vector<Edge>().swap(by_file[f]);
    joined(f, edges.size());
  }
}

inline void join_file_edges(std::vector<std::vector<Edge>>& by_file, std::vector<Edge>& edges) {
  join_file_edges(by_file, edges, [](uint32_t, size_t) {});
}

}  // namespace anchorfs::analysis
