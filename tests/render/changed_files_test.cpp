// files_to_render and the neighbourhood index against the whole graph's, on seeded graph edits.
#include "render/changed_files.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "graph_builder.h"
#include "render/graph_index.h"
#include "render/render_index.h"

namespace anchorfs::render::testing {
namespace {

// A repository as the edits see it: files of definitions, and edges between definitions (or
// files) by a stable id, so that an edit can rename, move or drop what an edge names.
struct Definition {
  int id = 0;
  std::string name;
  bool is_class = false;
  uint64_t anchor = 0;
};
struct File {
  int id = 0;
  std::string path;
  std::vector<Definition> definitions;
};
struct ModelEdge {
  int from = 0;
  int to = 0;
  Relation relation = Relation::Calls;
  friend bool operator==(const ModelEdge&, const ModelEdge&) = default;
};

class Model {
 public:
  explicit Model(uint32_t seed) : random_(seed) {
    for (int f = 0; f < 8; ++f) add_file();
    for (int e = 0; e < 40; ++e) add_edge();
  }

  static constexpr int kEditKinds = 11;

  // One edit; returns what it did (for failure messages).
  std::string edit() {
    switch (pick(kEditKinds)) {
      case 0: {
        File& file = files_[pick(files_.size())];
        file.definitions.push_back(definition());
        for (int k = 0; k < 2; ++k) connect(file.definitions.back().id);
        return "add a definition to " + file.path;
      }
      case 1: {
        File& file = files_[pick(files_.size())];
        if (file.definitions.empty()) return "nothing";
        const size_t d = pick(file.definitions.size());
        forget(file.definitions[d].id);
        file.definitions.erase(file.definitions.begin() + static_cast<long>(d));
        return "remove a definition from " + file.path;
      }
      case 2: {
        File& file = files_[pick(files_.size())];
        if (file.definitions.empty()) return "nothing";
        file.definitions[pick(file.definitions.size())].name = name();
        return "rename a definition in " + file.path;
      }
      case 3: {
        // Entities matched by name in another order: the old edges renumber out of order.
        File& file = files_[pick(files_.size())];
        if (file.definitions.size() < 2) return "nothing";
        std::swap(file.definitions.front(), file.definitions.back());
        return "reorder the definitions of " + file.path;
      }
      case 4:
        add_edge();
        return "add an edge";
      case 5:
        if (edges_.empty()) return "nothing";
        edges_.erase(edges_.begin() + static_cast<long>(pick(edges_.size())));
        return "remove an edge";
      case 6: {
        // The last edges at a file's definitions go.
        File& file = files_[pick(files_.size())];
        for (const Definition& d : file.definitions) forget(d.id);
        forget(file.id);
        return "remove every edge of " + file.path;
      }
      case 7: {
        if (files_.size() < 2) return "nothing";
        const size_t f = pick(files_.size());
        const std::string path = files_[f].path;
        for (const Definition& d : files_[f].definitions) forget(d.id);
        forget(files_[f].id);
        files_.erase(files_.begin() + static_cast<long>(f));
        return "delete " + path;
      }
      case 8:
        add_file();
        for (int k = 0; k < 3; ++k) connect(files_.back().definitions.empty()
                                                ? files_.back().id
                                                : files_.back().definitions.front().id);
        return "add " + files_.back().path;
      case 9: {
        // Callers enough to make a definition a hub (or a hub a bigger one).
        const int target = any_definition();
        if (target < 0) return "nothing";
        for (int k = 0; k < 3; ++k) {
          const int caller = any_definition();
          if (caller != target) add_unique({caller, target, Relation::Calls});
        }
        return "make a hub";
      }
      default: {
        File& file = files_[pick(files_.size())];
        if (file.definitions.empty()) return "nothing";
        file.definitions[pick(file.definitions.size())].anchor += 7;
        return "move a definition in " + file.path;
      }
    }
  }

  analysis::Graph graph() const {
    std::vector<const File*> by_path;
    for (const File& file : files_) by_path.push_back(&file);
    std::sort(by_path.begin(), by_path.end(),
              [](const File* a, const File* b) { return a->path < b->path; });
    GraphBuilder builder;
    std::map<int, EntityIndex> entity_of;
    for (const File* file : by_path) {
      entity_of[file->id] = builder.file(file->path);
      for (const Definition& d : file->definitions) {
        entity_of[d.id] = d.is_class ? builder.cls(d.name, Anchor{d.anchor, ""})
                                     : builder.function(d.name, Anchor{d.anchor, ""});
      }
    }
    for (const ModelEdge& edge : edges_) {
      builder.edge(entity_of.at(edge.from), entity_of.at(edge.to), edge.relation);
    }
    return builder.build();
  }

 private:
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random_); }
  std::string name() {
    static const char* const kNames[] = {"run", "parse", "emit", "Shape", "load", "area"};
    return kNames[pick(std::size(kNames))];
  }
  Definition definition() {
    return {next_id_++, name(), pick(4) == 0, 10 * (1 + pick(50))};
  }
  void add_file() {
    File file;
    file.id = next_id_++;
    file.path = fmt::format("{}m{}.py", pick(4) == 0 ? "tests/test_" : "pkg/", file.id);
    const size_t definitions = pick(5);
    for (size_t d = 0; d < definitions; ++d) file.definitions.push_back(definition());
    files_.push_back(std::move(file));
  }
  int any_definition() {
    std::vector<int> ids;
    for (const File& file : files_) {
      for (const Definition& d : file.definitions) ids.push_back(d.id);
    }
    return ids.empty() ? -1 : ids[pick(ids.size())];
  }
  int any_file() { return files_[pick(files_.size())].id; }
  void add_unique(ModelEdge edge) {
    if (edge.from < 0 || edge.to < 0 || edge.from == edge.to) return;
    if (std::find(edges_.begin(), edges_.end(), edge) == edges_.end()) edges_.push_back(edge);
  }
  void add_edge() {
    switch (pick(4)) {
      case 0:
        add_unique({any_file(), any_file(), Relation::Imports});
        break;
      case 1:
        add_unique({any_definition(), any_definition(), Relation::Inherits});
        break;
      default:
        add_unique({any_definition(), any_definition(), Relation::Calls});
    }
  }
  // An edge between `id` and some definition, either way.
  void connect(int id) {
    const int other = any_definition();
    add_unique(pick(2) == 0 ? ModelEdge{id, other, Relation::Calls}
                            : ModelEdge{other, id, Relation::Calls});
  }
  void forget(int id) {
    std::erase_if(edges_, [&](const ModelEdge& e) { return e.from == id || e.to == id; });
  }

  std::mt19937 random_;
  int next_id_ = 0;
  std::vector<File> files_;
  std::vector<ModelEdge> edges_;
};

std::map<std::string, TagPlan> plans_by_path(const analysis::Graph& graph,
                                             const BlockPolicy& policy) {
  const GraphIndex index(graph);
  BlockScratch scratch;
  std::map<std::string, TagPlan> plans;
  for (size_t f = 0; f < graph.files.size(); ++f) {
    plans[graph.entities[graph.files[f].entity].name] = render_file(index, f, policy, scratch);
  }
  return plans;
}

// Every file files_to_render leaves out renders as the file of its path did before the edits;
// every file it lists renders from the neighbourhood index as from the whole graph's.
void check(const BlockPolicy& policy, uint32_t seeds) {
  size_t listed = 0, left_out = 0;
  for (uint32_t seed = 1; seed <= seeds; ++seed) {
    Model model(seed);
    std::string history;
    analysis::Graph before = model.graph();
    for (int step = 0; step < 12; ++step) {
      history += model.edit() + "\n";
      if (step % 4 == 3) history += model.edit() + "\n";
      const analysis::Graph after = model.graph();
      const std::map<std::string, TagPlan> old_plans = plans_by_path(before, policy);
      const std::map<std::string, TagPlan> new_plans = plans_by_path(after, policy);
      GraphIndex index(after, GraphIndex::WithoutLinks{});
      const std::vector<size_t> files = files_to_render(before, after, index);
      index.add_neighbourhood(files);
      BlockScratch scratch;
      for (size_t f = 0, i = 0; f < after.files.size(); ++f) {
        const std::string& path = after.entities[after.files[f].entity].name;
        const std::string where = fmt::format("seed {} {} after:\n{}", seed, path, history);
        if (i < files.size() && files[i] == f) {
          ++i;
          ++listed;
          ASSERT_EQ(render_file(index, f, policy, scratch), new_plans.at(path)) << where;
        } else {
          ++left_out;
          ASSERT_TRUE(old_plans.contains(path)) << where;
          ASSERT_EQ(old_plans.at(path), new_plans.at(path)) << where;
        }
      }
      before = after;
    }
  }
  // Both sides seen often: the property is not met by listing every file or none.
  EXPECT_GT(listed, seeds * 12);
  EXPECT_GT(left_out, seeds * 12);
}

TEST(ChangedFilesTest, UnlistedFilesRenderAsBeforeAndListedOnesAsFromTheWholeGraph) {
  check(BlockPolicy{}, 150);
}

// One value per field and a hub filter at one caller: whether and where an entity shows turns on
// its degree, so a changed degree must list every file naming it.
TEST(ChangedFilesTest, TheSameUnderCapsAndAHubFilterThatTurnOnDegrees) {
  BlockPolicy policy;
  policy.max_links = 1;
  policy.hub_threshold = 1;
  check(policy, 150);
}

// The index promises each entity's links sorted and unique whatever order the graph's edges come
// in (the analysis sorts them; a hand-made graph may not): edges reversed and repeated give the
// same links, whole or for a neighbourhood.
TEST(ChangedFilesTest, AnIndexOverUnsortedRepeatedEdgesListsWhatTheSortedOnesDo) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const analysis::Graph sorted = Model(seed).graph();
    analysis::Graph shuffled = sorted;
    std::reverse(shuffled.edges.begin(), shuffled.edges.end());
    shuffled.edges.insert(shuffled.edges.end(), sorted.edges.begin(), sorted.edges.end());
    const GraphIndex expected(sorted);
    const GraphIndex whole(shuffled);
    GraphIndex neighbourhood(shuffled, GraphIndex::WithoutLinks{});
    std::vector<size_t> every_file(shuffled.files.size());
    for (size_t f = 0; f < every_file.size(); ++f) every_file[f] = f;
    neighbourhood.add_neighbourhood(every_file);
    const auto same = [](std::span<const Link> a, std::span<const Link> b) {
      return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Link& x, const Link& y) {
        return x.relation == y.relation && x.other == y.other;
      });
    };
    for (EntityIndex e = 0; e < sorted.entities.size(); ++e) {
      for (const Relation r : {Relation::Contains, Relation::Imports, Relation::Calls,
                               Relation::Inherits}) {
        ASSERT_TRUE(same(whole.out(e, r), expected.out(e, r))) << "seed " << seed;
        ASSERT_TRUE(same(whole.in(e, r), expected.in(e, r))) << "seed " << seed;
        ASSERT_TRUE(same(neighbourhood.out(e, r), expected.out(e, r))) << "seed " << seed;
        ASSERT_TRUE(same(neighbourhood.in(e, r), expected.in(e, r))) << "seed " << seed;
      }
    }
  }
}

}  // namespace
}  // namespace anchorfs::render::testing
