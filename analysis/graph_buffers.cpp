// GraphBuffers: a freed graph's vectors, emptied, for the next analysis to fill.
#include "analysis/graph_buffers.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <utility>

namespace anchorfs::analysis {

namespace {

// Empties `from` into `into` unless `into` holds more already.
template <typename T>
void keep_larger(std::vector<T>&& from, std::vector<T>& into) {
  from.clear();
  if (from.capacity() > into.capacity()) into = std::move(from);
}

// At least `count` elements of room, every page of it written once.
template <typename T>
void touch_room(std::vector<T>& items, size_t count) {
  reserve_with_headroom(items, count);
  items.resize(items.capacity());
  items.clear();
}

// MADV_FREE over the whole pages of `items`' unused capacity (all of it: callers empty them).
template <typename T>
void free_capacity_pages(std::vector<T>& items) {
  items.clear();
  static const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<uintptr_t>(items.data());
  const uintptr_t end = begin + items.capacity() * sizeof(T);
  const uintptr_t first = (begin + page - 1) & ~(page - 1);
  const uintptr_t last = end & ~(page - 1);
  // A failure (a kernel without MADV_FREE) only leaves the pages as they were.
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_FREE);
}

}  // namespace

size_t with_headroom(size_t count) {
  return count + count / 64 + 1024;
}

void GraphBuffers::keep(Graph&& graph) {
  keep_larger(std::move(graph.entities), entities);
  keep_larger(std::move(graph.files), files);
  keep_larger(std::move(graph.edges), edges);
}

void GraphBuffers::make_room_like(const Graph& graph) {
  touch_room(entities, graph.entities.size());
  touch_room(files, graph.files.size());
  touch_room(edges, graph.edges.size());
  touch_room(sorted, graph.edges.size());
  let_kernel_reclaim();
}

void GraphBuffers::let_kernel_reclaim() {
  free_capacity_pages(entities);
  free_capacity_pages(files);
  free_capacity_pages(edges);
  free_capacity_pages(sorted);
}

}  // namespace anchorfs::analysis
