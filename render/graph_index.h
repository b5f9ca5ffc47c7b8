// Per-entity adjacency, ids and orderings precomputed once so rendering every file is linear.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analysis/graph.h"

namespace anchorfs::render {

inline constexpr size_t kNoFileInfo = SIZE_MAX;

// One end of an edge as seen from an entity: the relation and the entity at the other end.
struct Link {
  analysis::Relation relation = analysis::Relation::Calls;
  analysis::EntityIndex other = analysis::kNoEntity;
};

// Read-only once built; safe to share between threads then.
class GraphIndex {
 public:
  explicit GraphIndex(const analysis::Graph& graph);

  // Files, children and labels of every entity, but test flags, ids, ranks and links of none
  // until add_neighbourhood(): what a refresh that renders a few files needs (the whole graph's
  // ids, their sort, its adjacency and every file's test convention cost more than rendering
  // those files).
  struct WithoutLinks {};
  GraphIndex(const analysis::Graph& graph, WithoutLinks);
  // Test flags, ids, ranks and links of the entities rendering the files graph.files[f] (f in
  // `files`) reads:
  // their own, their parents and children, and the other ends of their edges (whose degrees tiers
  // and hub filters read), so that render_file of those files reads exactly what the full index
  // gives it. Ranks then order only these entities, in the same order as among all.
  void add_neighbourhood(std::span<const size_t> files);

  // Files, children, test flags, ids and ranks of every entity, but no labels and no links: what
  // reads only the graph's entities and files, which are final before its edges are resolved,
  // so a cold view's render can have it built beside the resolution (on one thread: no oneTBB,
  // whose workers would compete with the resolver's threads). add_edges() completes it.
  struct WithoutEdges {};
  GraphIndex(const analysis::Graph& graph, WithoutEdges);
  // Completes an index built WithoutEdges: labels and links from `graph`, which holds the same
  // entities and files as the graph it was built from (the same graph, possibly moved since).
  // False, changing nothing, when its entity or file count differs.
  bool add_edges(const analysis::Graph& graph);

  const analysis::Graph& graph() const { return *graph_; }
  size_t size() const { return ids_.size(); }

  // Edges leaving / entering `e` with `relation`, ordered by the other end's index.
  std::span<const Link> out(analysis::EntityIndex e, analysis::Relation relation) const;
  std::span<const Link> in(analysis::EntityIndex e, analysis::Relation relation) const;
  // Labels of `e`, ordered by (relation, value).
  std::span<const analysis::Label> labels(analysis::EntityIndex e) const;
  // Entities whose `parent` is `e`.
  std::span<const analysis::EntityIndex> children(analysis::EntityIndex e) const;
  // Entities of the file described by graph.files[file_info], in source order.
  std::span<const analysis::EntityIndex> entities_of(size_t file_info) const;

  // The escaped full id, and the escaped short form used inside the entity's own file
  // (the qualified name; a file's path for a file).
  const std::string& id(analysis::EntityIndex e) const { return ids_[e]; }
  const std::string& local_name(analysis::EntityIndex e) const { return local_names_[e]; }
  // Position of `e` when all entities (or a neighbourhood's) are sorted by id.
  uint32_t rank(analysis::EntityIndex e) const { return ranks_[e]; }
  // The File entity `e` belongs to (kNoEntity when the graph says nothing valid).
  analysis::EntityIndex file_of(analysis::EntityIndex e) const { return files_of_[e]; }
  // graph.files index describing the File entity `file`, or kNoFileInfo.
  size_t file_info(analysis::EntityIndex file) const { return file_infos_[file]; }
  // Whether `e` lives in test code (its front end's test-file convention).
  bool is_test(analysis::EntityIndex e) const { return test_[e]; }
  // 0 when `a` and `b` share a file; else 1 + the steps between their files' directories.
  uint32_t distance(analysis::EntityIndex a, analysis::EntityIndex b) const;
  size_t call_in_degree(analysis::EntityIndex e) const {
    return in(e, analysis::Relation::Calls).size();
  }

 private:
  struct Adjacency {
    std::vector<uint32_t> begin;  // size()+1 offsets into links
    std::vector<Link> links;      // per entity, ordered by (relation, other)
  };
  static std::span<const Link> select(const Adjacency& adjacency, analysis::EntityIndex e,
                                      analysis::Relation relation);
  // Files, parents, children, each file's entities and the directories (no labels).
  void index_entities();
  // Labels by entity, ordered (the dense view's; none in most graphs).
  void index_labels();
  // Test flags of the entities `named` takes (of all when it is empty).
  void index_tests(const std::vector<uint8_t>& named);
  // Ids of the entities `named` takes, ranks and links of those `selected` takes (all when
  // empty; `named` holds `selected` and their files); with `parallel`, on oneTBB's threads.
  void index_links(const std::vector<uint8_t>& selected, const std::vector<uint8_t>& named);
  // index_links' parts, run side by side: ids and ranks; one side's adjacency (out_ when
  // `forward`, else in_).
  void index_ids(const std::vector<uint8_t>& selected, const std::vector<uint8_t>& named,
                 bool parallel = true);
  void index_side(const std::vector<uint8_t>& selected, bool forward, Adjacency& adjacency) const;
  // The directories of graph.files' paths and each one's parent, so distance() walks ids instead
  // of comparing and counting through two paths for every link of every block.
  void index_directories();

  // A directory: its parent's index in directories_ (the top, index 0, is its own), its steps
  // below the top, and its path components as distance() counts them.
  struct Directory {
    uint32_t parent = 0;
    uint32_t level = 0;
    uint32_t components = 0;
  };

  const analysis::Graph* graph_;
  std::vector<std::string> ids_;
  std::vector<std::string> local_names_;
  std::vector<uint32_t> ranks_;
  std::vector<analysis::EntityIndex> files_of_;
  std::vector<size_t> file_infos_;
  std::vector<bool> test_;
  Adjacency out_;
  Adjacency in_;
  std::vector<uint32_t> label_begin_;
  std::vector<analysis::Label> labels_;
  std::vector<uint32_t> child_begin_;
  std::vector<analysis::EntityIndex> children_;
  std::vector<uint32_t> file_entity_begin_;
  std::vector<analysis::EntityIndex> file_entities_;
  std::vector<Directory> directories_;
  std::vector<uint32_t> file_directories_;  // by graph.files index
};

}  // namespace anchorfs::render
