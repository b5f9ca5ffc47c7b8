// TestRef: which test functions and test files exercise which production entities and files.
#include <algorithm>
#include <span>
#include <unordered_map>

#include "analysis/python/dense_parts.h"

namespace anchorfs::analysis::python {
namespace {

constexpr int kMaxClassDepth = 8;

std::string_view simple_name(std::string_view qualified) {
  const size_t dot = qualified.rfind('.');
  return dot == std::string_view::npos ? qualified : qualified.substr(dot + 1);
}

class TestReferences {
 public:
  TestReferences(const ResolverInput& input, const Graph& graph) : input_(input), graph_(graph) {
    test_file_.assign(graph.entities.size(), false);
    for (uint32_t fi = 0; fi < input.files.size(); ++fi) {
      file_index_[input.files[fi].entity] = fi;
      if (is_test_path(input.files[fi].path)) test_file_[input.files[fi].entity] = true;
    }
  }

  void run(std::vector<Edge>& out) {
    std::vector<EntityIndex> owner(graph_.entities.size(), kNoEntity);
    for (EntityIndex e = 0; e < graph_.entities.size(); ++e) {
      const Entity& entity = graph_.entities[e];
      if (entity.kind != EntityKind::Function || !in_test_file(e)) continue;
      const EntityIndex parent = entity.parent;
      const EntityKind parent_kind = graph_.entities[parent].kind;
      if (parent_kind == EntityKind::Function && owner[parent] != kNoEntity) {
        owner[e] = owner[parent];  // nested in a test function
      } else if (simple_name(entity.name).starts_with("test") ||
                 (parent_kind == EntityKind::Class && is_test_class(parent, 0))) {
        owner[e] = e;
      }
    }
    for (const Edge& edge : graph_.edges) {
      if (edge.relation == Relation::Calls && owner[edge.from] != kNoEntity &&
          !in_test_file(edge.to)) {
        out.push_back({owner[edge.from], edge.to, Relation::TestRef});
        out.push_back(
            {graph_.entities[edge.from].file, graph_.entities[edge.to].file, Relation::TestRef});
      } else if (edge.relation == Relation::Imports && in_test_file(edge.from) &&
                 !in_test_file(edge.to)) {
        out.push_back({edge.from, edge.to, Relation::TestRef});
      }
    }
  }

 private:
  bool in_test_file(EntityIndex e) const { return test_file_[graph_.entities[e].file]; }

  // Test* classes, and classes deriving (syntactically or through resolved bases) from a
  // *TestCase or another test class.
  bool is_test_class(EntityIndex cls, int depth) {
    if (const auto it = test_class_.find(cls); it != test_class_.end()) return it->second;
    test_class_[cls] = false;
    bool yes = simple_name(graph_.entities[cls].name).starts_with("Test") ||
               simple_name(graph_.entities[cls].name).ends_with("TestCase");
    const auto fi = file_index_.find(graph_.entities[cls].file);
    if (!yes && fi != file_index_.end()) {
      const FileFacts& f = *input_.files[fi->second].facts;
      const Scope& scope = f.scopes[cls - input_.files[fi->second].entity];
      for (uint32_t i = 0; i < scope.bases_count && !yes; ++i) {
        const Expr& base = f.exprs[f.lists[scope.bases_begin + i]];
        if (base.kind == ExprKind::Name || base.kind == ExprKind::Attribute) {
          yes = std::string_view(f.strings[base.str]).ends_with("TestCase");
        }
      }
    }
    if (!yes && depth < kMaxClassDepth) {
      for (const Edge& edge : inherits_from(cls)) {
        if (is_test_class(edge.to, depth + 1)) {
          yes = true;
          break;
        }
      }
    }
    test_class_[cls] = yes;
    return yes;
  }

  std::span<const Edge> inherits_from(EntityIndex cls) const {
    auto before = [](const Edge& e, EntityIndex c) {
      return e.relation != Relation::Inherits ? e.relation < Relation::Inherits : e.from < c;
    };
    auto after = [](EntityIndex c, const Edge& e) {
      return e.relation != Relation::Inherits ? Relation::Inherits < e.relation : c < e.from;
    };
    const auto first = std::lower_bound(graph_.edges.begin(), graph_.edges.end(), cls, before);
    const auto last = std::upper_bound(first, graph_.edges.end(), cls, after);
    return {first, last};
  }

  const ResolverInput& input_;
  const Graph& graph_;
  std::vector<bool> test_file_;  // by File entity
  std::unordered_map<EntityIndex, uint32_t> file_index_;
  std::unordered_map<EntityIndex, bool> test_class_;
};

}  // namespace

bool is_test_path(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (base.starts_with("test_") || base.ends_with("_test.py") || base == "tests.py" ||
      base == "conftest.py") {
    return true;
  }
  return path.starts_with("tests/") || path.find("/tests/") != std::string_view::npos;
}

void add_test_references(const ResolverInput& input, const Graph& graph, std::vector<Edge>& out) {
  TestReferences(input, graph).run(out);
}

}  // namespace anchorfs::analysis::python
