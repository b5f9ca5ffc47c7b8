// Building the per-entity adjacency with counting sorts (linear) and the id ranking (n log n).
#include "render/graph_index.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <numeric>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "analysis/language.h"
#include "render/sanitize.h"

namespace anchorfs::render {

using analysis::EntityIndex;
using analysis::EntityKind;
using analysis::Relation;

namespace {

constexpr size_t kRelations = static_cast<size_t>(Relation::Registers) + 1;

bool valid_relation(Relation relation) {
  return static_cast<size_t>(relation) < kRelations;
}

// Counting sort of (key, value) pairs into CSR form; keeps the input order within a key.
template <typename T, typename KeyOf>
void bucket(size_t keys, const std::vector<T>& items, KeyOf key_of, std::vector<uint32_t>& begin,
            std::vector<T>& sorted) {
  begin.assign(keys + 1, 0);
  for (const T& item : items) ++begin[key_of(item) + 1];
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  sorted.resize(items.size());
  std::vector<uint32_t> next(begin.begin(), begin.end() - 1);
  for (const T& item : items) sorted[next[key_of(item)]++] = item;
}

}  // namespace

GraphIndex::GraphIndex(const analysis::Graph& graph) : GraphIndex(graph, WithoutLinks{}) {
  index_tests({});
  index_links({}, {});
}

GraphIndex::GraphIndex(const analysis::Graph& graph, WithoutLinks) : graph_(&graph) {
  index_entities();
  index_labels();
}

GraphIndex::GraphIndex(const analysis::Graph& graph, WithoutEdges) : graph_(&graph) {
  index_entities();
  index_tests({});
  index_ids({}, {}, /*parallel=*/false);
}

bool GraphIndex::add_edges(const analysis::Graph& graph) {
  if (graph.entities.size() != files_of_.size() ||
      graph.files.size() + 1 != file_entity_begin_.size()) {
    return false;
  }
  graph_ = &graph;
  index_labels();
  tbb::parallel_invoke([&] { index_side({}, /*forward=*/true, out_); },
                       [&] { index_side({}, /*forward=*/false, in_); });
  return true;
}

void GraphIndex::index_entities() {
  const analysis::Graph& graph = *graph_;
  const size_t n = graph.entities.size();

  // One pass over the entities (about 100 bytes each: 90 MB on the kernel) for what the rest
  // reads of them: files and parents.
  files_of_.assign(n, analysis::kNoEntity);
  std::vector<EntityIndex> parents(n, analysis::kNoEntity);
  size_t with_parent = 0;
  for (size_t e = 0; e < n; ++e) {
    const analysis::Entity& entity = graph.entities[e];
    if (entity.kind == EntityKind::File) {
      files_of_[e] = static_cast<EntityIndex>(e);
    } else if (entity.file < n && graph.entities[entity.file].kind == EntityKind::File) {
      files_of_[e] = entity.file;
    }
    if (entity.parent < n && entity.parent != e) {
      parents[e] = entity.parent;
      ++with_parent;
    }
  }
  file_infos_.assign(n, kNoFileInfo);
  for (size_t f = 0; f < graph.files.size(); ++f) {
    EntityIndex file = graph.files[f].entity;
    // A File entity listed twice keeps its first entry; the second gets no entities.
    if (file < n && graph.entities[file].kind == EntityKind::File &&
        file_infos_[file] == kNoFileInfo) {
      file_infos_[file] = f;
    }
  }

  // Children by parent, in entity order (a counting sort over the parents gathered above).
  child_begin_.assign(n + 1, 0);
  for (size_t e = 0; e < n; ++e) {
    if (parents[e] != analysis::kNoEntity) ++child_begin_[parents[e] + 1];
  }
  std::partial_sum(child_begin_.begin(), child_begin_.end(), child_begin_.begin());
  children_.resize(with_parent);
  {
    std::vector<uint32_t> next(child_begin_.begin(), child_begin_.end() - 1);
    for (size_t e = 0; e < n; ++e) {
      if (parents[e] != analysis::kNoEntity) {
        children_[next[parents[e]]++] = static_cast<EntityIndex>(e);
      }
    }
  }
  std::vector<EntityIndex> in_files;
  in_files.reserve(n);
  for (size_t e = 0; e < n; ++e) {
    if (files_of_[e] != analysis::kNoEntity && file_infos_[files_of_[e]] != kNoFileInfo) {
      in_files.push_back(static_cast<EntityIndex>(e));
    }
  }
  bucket(
      graph.files.size(), in_files, [&](EntityIndex e) { return file_infos_[files_of_[e]]; },
      file_entity_begin_, file_entities_);
  index_directories();
}

void GraphIndex::index_labels() {
  const analysis::Graph& graph = *graph_;
  const size_t n = graph.entities.size();
  // Labels are the dense view's: most graphs have none, and then no table of them is made.
  if (!graph.labels.empty()) {
    std::vector<analysis::Label> labels;
    labels.reserve(graph.labels.size());
    for (const analysis::Label& label : graph.labels) {
      if (label.entity < n && valid_relation(label.relation)) labels.push_back(label);
    }
    bucket(
        n, labels, [](const analysis::Label& l) { return l.entity; }, label_begin_, labels_);
    auto label_order = [](const analysis::Label& a, const analysis::Label& b) {
      return std::tie(a.relation, a.value) < std::tie(b.relation, b.value);
    };
    for (size_t e = 0; e < n; ++e) {
      auto first = labels_.begin() + label_begin_[e];
      auto last = labels_.begin() + label_begin_[e + 1];
      if (!std::is_sorted(first, last, label_order)) std::sort(first, last, label_order);
    }
  }
}

// Test code, by the convention of each file's front end, asked once per file `named` takes (every
// file when it is empty): on the kernel, asking for all 55 k files was a third of a refresh's
// index without links.
void GraphIndex::index_tests(const std::vector<uint8_t>& named) {
  const analysis::Graph& graph = *graph_;
  const size_t n = graph.entities.size();
  std::vector<bool> test_file(n, false);
  for (const analysis::FileInfo& info : graph.files) {
    if (info.entity >= n || (!named.empty() && named[info.entity] == 0)) continue;
    const analysis::LanguageFrontEnd* front_end = analysis::front_end_named(info.language);
    if (front_end != nullptr) {
      test_file[info.entity] = front_end->is_test_path(graph.entities[info.entity].name);
    }
  }
  test_.assign(n, false);
  for (size_t e = 0; e < n; ++e) {
    if ((named.empty() || named[e] != 0) && files_of_[e] != analysis::kNoEntity) {
      test_[e] = test_file[files_of_[e]];
    }
  }
}

void GraphIndex::index_links(const std::vector<uint8_t>& selected,
                             const std::vector<uint8_t>& named) {
  // The ids and their ranking, and each side's adjacency, read the graph only and each writes
  // its own members: side by side (on a cold mount this was a serial step before rendering,
  // while the other core idled).
  tbb::parallel_invoke([&] { index_ids(selected, named); },
                       [&] { index_side(selected, /*forward=*/true, out_); },
                       [&] { index_side(selected, /*forward=*/false, in_); });
}

void GraphIndex::index_ids(const std::vector<uint8_t>& selected,
                           const std::vector<uint8_t>& named, bool parallel) {
  const analysis::Graph& graph = *graph_;
  const size_t n = graph.entities.size();
  ids_.resize(n);
  local_names_.resize(n);
  // Each entity writes only its own two strings: built side by side (the sort below waits for
  // them anyway, and on a large graph they were a serial step between resolution and rendering).
  const auto name_range = [&](const tbb::blocked_range<size_t>& range) {
    for (size_t e = range.begin(); e < range.end(); ++e) {
      if (!named.empty() && named[e] == 0) continue;
      const analysis::Entity& entity = graph.entities[e];
      EntityIndex file = files_of_[e];
      if (entity.kind == EntityKind::File || file == analysis::kNoEntity) {
        ids_[e] = escaped(entity.name);
        local_names_[e] = ids_[e];
      } else {
        local_names_[e] = escaped(entity.name);
        ids_[e] = escaped(graph.entities[file].name) + ":" + local_names_[e];
      }
    }
  };
  if (parallel) {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1024), name_range);
  } else {
    name_range(tbb::blocked_range<size_t>(0, n, 1024));
  }
  std::vector<EntityIndex> order;
  if (selected.empty()) {
    order.resize(n);
    std::iota(order.begin(), order.end(), EntityIndex{0});
  } else {
    for (size_t e = 0; e < n; ++e) {
      if (selected[e] != 0) order.push_back(static_cast<EntityIndex>(e));
    }
  }
  // A total order: either sort gives the same ranks.
  const auto by_id = [&](EntityIndex a, EntityIndex b) {
    int c = ids_[a].compare(ids_[b]);
    return c != 0 ? c < 0 : a < b;
  };
  if (parallel) {
    tbb::parallel_sort(order.begin(), order.end(), by_id);
  } else {
    std::sort(order.begin(), order.end(), by_id);
  }
  ranks_.assign(n, 0);
  for (size_t r = 0; r < order.size(); ++r) ranks_[order[r]] = static_cast<uint32_t>(r);
}

void GraphIndex::index_side(const std::vector<uint8_t>& selected, bool forward,
                            Adjacency& adjacency) const {
  const analysis::Graph& graph = *graph_;
  const size_t n = graph.entities.size();
  // The edges this side lists: between entities, of a known relation, and (for a neighbourhood)
  // leaving (forward) or entering (backward) a selected entity. A pass over every edge of a large
  // graph for a few thousand entities: a byte per entity and the rare hit out of line keep it to
  // a few instructions an edge.
  const auto listed = [&](const analysis::Edge& edge) {
    if (edge.from >= n || edge.to >= n) return false;
    if (!selected.empty() && selected[forward ? edge.from : edge.to] == 0) return false;
    return valid_relation(edge.relation);
  };
  // Edges are sorted by (relation, from, to): a counting sort by `from` keeps (relation, to)
  // order within each entity's links, by `to` (relation, from) order. Straight from the edges
  // into the links, no keyed copy of them.
  std::vector<uint32_t>& begin = adjacency.begin;
  begin.assign(n + 1, 0);
  for (const analysis::Edge& edge : graph.edges) {
    if (listed(edge)) ++begin[(forward ? edge.from : edge.to) + 1];
  }
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  std::vector<Link>& links = adjacency.links;
  links.resize(begin[n]);
  {
    std::vector<uint32_t> next(begin.begin(), begin.end() - 1);
    for (const analysis::Edge& edge : graph.edges) {
      if (!listed(edge)) continue;
      links[next[forward ? edge.from : edge.to]++] = {edge.relation,
                                                      forward ? edge.to : edge.from};
    }
  }
  // The analysis promises sorted, duplicate-free edges; re-establish it cheaply if not.
  const auto by_relation_other = [](const Link& a, const Link& b) {
    return std::tie(a.relation, a.other) < std::tie(b.relation, b.other);
  };
  const auto same = [](const Link& a, const Link& b) {
    return a.relation == b.relation && a.other == b.other;
  };
  bool duplicates = false;
  for (size_t e = 0; e < n; ++e) {
    const auto first = links.begin() + begin[e];
    const auto last = links.begin() + begin[e + 1];
    if (!std::is_sorted(first, last, by_relation_other)) std::sort(first, last, by_relation_other);
    duplicates = duplicates || std::adjacent_find(first, last, same) != last;
  }
  if (!duplicates) return;
  // Each entity's run without its repeats, moved down over those dropped before it.
  size_t kept = 0;
  for (size_t e = 0; e < n; ++e) {
    const size_t first = begin[e];
    const size_t last = begin[e + 1];
    begin[e] = static_cast<uint32_t>(kept);
    for (size_t i = first; i < last; ++i) {
      if (i > first && same(links[i], links[i - 1])) continue;
      links[kept++] = links[i];
    }
  }
  begin[n] = static_cast<uint32_t>(kept);
  links.resize(kept);
}

void GraphIndex::add_neighbourhood(std::span<const size_t> files) {
  const analysis::Graph& graph = *graph_;
  const size_t n = graph.entities.size();
  // Bytes, not bits: the pass over every edge below reads two per edge.
  std::vector<uint8_t> own(n, 0);
  std::vector<uint8_t> selected(n, 0);
  for (const size_t f : files) {
    for (const EntityIndex e : entities_of(f)) {
      own[e] = selected[e] = 1;
      if (graph.entities[e].parent < n) selected[graph.entities[e].parent] = 1;
      for (const EntityIndex child : children(e)) selected[child] = 1;
    }
  }
  for (const analysis::Edge& edge : graph.edges) {
    if (edge.from >= n || edge.to >= n || (own[edge.from] | own[edge.to]) == 0 ||
        !valid_relation(edge.relation)) {
      continue;
    }
    if (own[edge.from] != 0) selected[edge.to] = 1;
    if (own[edge.to] != 0) selected[edge.from] = 1;
  }
  // A taken entity's id, and its file's (a block names the file of a value in another one).
  std::vector<uint8_t> named = selected;
  for (size_t e = 0; e < n; ++e) {
    if (selected[e] != 0 && files_of_[e] != analysis::kNoEntity) named[files_of_[e]] = 1;
  }
  index_tests(named);
  index_links(selected, named);
}

namespace {

// The directory part of a repository-relative path ("" at the top).
std::string_view directory_of(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

uint32_t components(std::string_view directory) {
  if (directory.empty()) return 0;
  return static_cast<uint32_t>(std::count(directory.begin(), directory.end(), '/')) + 1;
}

// 1 + the steps between two directories' paths through the deepest directory both lie in.
uint32_t path_distance(std::string_view da, std::string_view db) {
  // Leading directory components the two share.
  size_t same = 0;
  while (same < da.size() && same < db.size() && da[same] == db[same]) ++same;
  auto boundary = [](std::string_view d, size_t at) { return at == d.size() || d[at] == '/'; };
  if (!boundary(da, same) || !boundary(db, same)) {
    size_t slash = same == 0 ? std::string_view::npos : da.rfind('/', same - 1);
    same = slash == std::string_view::npos ? 0 : slash;
  }
  const uint32_t common = components(da.substr(0, same));
  return components(da) + components(db) - 2 * common + 1;
}

}  // namespace

void GraphIndex::index_directories() {
  const analysis::Graph& graph = *graph_;
  // A directory's ancestors are its prefixes that end before a '/' (and the top): the deepest
  // one two directories share is the deepest common prefix that path_distance finds.
  directories_.assign(1, Directory{});
  std::unordered_map<std::string_view, uint32_t> by_path{{std::string_view(), 0}};
  std::vector<std::string_view> unknown;  // a directory, then its ancestors not indexed yet
  auto directory = [&](std::string_view path) {
    for (std::string_view d = path; !by_path.contains(d); d = directory_of(d)) unknown.push_back(d);
    for (; !unknown.empty(); unknown.pop_back()) {
      const uint32_t parent = by_path.at(directory_of(unknown.back()));
      by_path.emplace(unknown.back(), static_cast<uint32_t>(directories_.size()));
      directories_.push_back(
          {parent, directories_[parent].level + 1, components(unknown.back())});
    }
    return by_path.at(path);
  };
  file_directories_.assign(graph.files.size(), 0);
  for (size_t f = 0; f < graph.files.size(); ++f) {
    const EntityIndex file = graph.files[f].entity;
    if (file < graph.entities.size() && file_infos_[file] == f) {
      file_directories_[f] = directory(directory_of(graph.entities[file].name));
    }
  }
}

uint32_t GraphIndex::distance(EntityIndex a, EntityIndex b) const {
  EntityIndex fa = files_of_[a];
  EntityIndex fb = files_of_[b];
  if (fa == fb) return 0;
  if (fa == analysis::kNoEntity || fb == analysis::kNoEntity) return UINT32_MAX;
  const size_t ia = file_infos_[fa];
  const size_t ib = file_infos_[fb];
  if (ia == kNoFileInfo || ib == kNoFileInfo) {  // a File entity graph.files does not describe
    return path_distance(directory_of(graph_->entities[fa].name),
                         directory_of(graph_->entities[fb].name));
  }
  uint32_t da = file_directories_[ia];
  uint32_t db = file_directories_[ib];
  const uint32_t steps = directories_[da].components + directories_[db].components + 1;
  while (directories_[da].level > directories_[db].level) da = directories_[da].parent;
  while (directories_[db].level > directories_[da].level) db = directories_[db].parent;
  while (da != db) {
    da = directories_[da].parent;
    db = directories_[db].parent;
  }
  return steps - 2 * directories_[da].components;
}

std::span<const Link> GraphIndex::select(const Adjacency& adjacency, EntityIndex e,
                                         Relation relation) {
  const Link* first = adjacency.links.data() + adjacency.begin[e];
  const Link* last = adjacency.links.data() + adjacency.begin[e + 1];
  auto lower =
      std::partition_point(first, last, [&](const Link& l) { return l.relation < relation; });
  auto upper =
      std::partition_point(lower, last, [&](const Link& l) { return l.relation == relation; });
  return {lower, upper};
}

std::span<const Link> GraphIndex::out(EntityIndex e, Relation relation) const {
  return select(out_, e, relation);
}

std::span<const Link> GraphIndex::in(EntityIndex e, Relation relation) const {
  return select(in_, e, relation);
}

std::span<const analysis::Label> GraphIndex::labels(EntityIndex e) const {
  if (labels_.empty()) return {};  // no label table is made for a graph without labels
  return {labels_.data() + label_begin_[e], labels_.data() + label_begin_[e + 1]};
}

std::span<const EntityIndex> GraphIndex::children(EntityIndex e) const {
  return {children_.data() + child_begin_[e], children_.data() + child_begin_[e + 1]};
}

std::span<const EntityIndex> GraphIndex::entities_of(size_t file_info) const {
  return {file_entities_.data() + file_entity_begin_[file_info],
          file_entities_.data() + file_entity_begin_[file_info + 1]};
}

}  // namespace anchorfs::render
