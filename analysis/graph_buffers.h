// The large vectors of a graph no longer needed, kept with their capacity for the next analysis.
#pragma once

#include <cstddef>
#include <vector>

#include "analysis/graph.h"

namespace anchorfs::analysis {

// A caller that analyses one tree again and again (the refresher) frees a graph as large as the
// one it builds next. Freed, those blocks (on the kernel ~0.1 GB of entities, ~50 MB of edges)
// go back to the kernel at once (jemalloc returns blocks of 8 MiB and more without delay), and
// the next analysis's fresh ones are pages the kernel faults in and zeroes again: a third of a
// kernel refresh's CPU. Kept here instead, emptied, the next analysis writes into the same pages
// (AnalysisOptions::buffers). Between analyses their pages are the kernel's to take back should
// it need memory (let_kernel_reclaim): held, they cost no memory the system could use.
struct GraphBuffers {
  std::vector<Entity> entities;
  std::vector<FileInfo> files;
  std::vector<Edge> edges;
  std::vector<Edge> sorted;  // sort_edges' second buffer

  // Takes `graph`'s vectors, emptied (their elements destroyed, their capacity kept); of two
  // buffers for one vector, the larger is kept.
  void keep(Graph&& graph);
  // Makes room in `sorted`, `entities`, `files` and `edges` as large as `graph`'s (with the
  // headroom an analysis reserves) and touches every page once, then lets the kernel reclaim
  // them: a refresher primed from the cache (a warm mount) gets its first refresh's buffers made
  // beforehand, off its latency.
  void make_room_like(const Graph& graph);
  // madvise(MADV_FREE) over every whole page of the four buffers' capacity (they hold no
  // element: keep() emptied them, an analysis's sort left `sorted` with none it needs). The
  // kernel may then drop those pages under memory pressure (a later write gets a zeroed page, as
  // a fresh buffer would); until it does, the next analysis writes into them without a fault.
  // They stay counted in the process's RSS until taken (/proc/PID/smaps_rollup: LazyFree).
  void let_kernel_reclaim();
};

// The capacity an analysis reserves for `count` elements: a little more, so that the next
// analysis of an edited tree (a few more definitions, a few more edges) still fits the buffers it
// is handed instead of allocating all of them afresh.
size_t with_headroom(size_t count);

// vector::reserve(with_headroom(count)) when it holds less than `count`.
template <typename T>
void reserve_with_headroom(std::vector<T>& items, size_t count) {
  if (items.capacity() < count) items.reserve(with_headroom(count));
}

}  // namespace anchorfs::analysis
