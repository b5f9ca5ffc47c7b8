// Builds analysis::Graph fixtures by hand for render tests (files in order, entities after them).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "analysis/graph.h"

namespace anchorfs::render::testing {

using analysis::Anchor;
using analysis::EntityIndex;
using analysis::EntityKind;
using analysis::Relation;

class GraphBuilder {
 public:
  // Adds a file; its entities must be added before the next file.
  EntityIndex file(std::string path, std::optional<Anchor> anchor = Anchor{0, ""},
                   std::string newline = "\n", bool taggable = true) {
    EntityIndex e =
        push({EntityKind::File, kSelf, analysis::kNoEntity, std::move(path), 1, std::move(anchor)});
    graph_.entities[e].file = e;
    current_file_ = e;
    analysis::FileInfo info;
    info.entity = e;
    info.language = "python";
    info.newline = std::move(newline);
    info.taggable = taggable;
    graph_.files.push_back(std::move(info));
    return e;
  }

  EntityIndex cls(std::string name, std::optional<Anchor> anchor = Anchor{},
                  EntityIndex parent = analysis::kNoEntity) {
    return definition(EntityKind::Class, std::move(name), std::move(anchor), parent);
  }

  EntityIndex function(std::string name, std::optional<Anchor> anchor = Anchor{},
                       EntityIndex parent = analysis::kNoEntity) {
    return definition(EntityKind::Function, std::move(name), std::move(anchor), parent);
  }

  GraphBuilder& edge(EntityIndex from, EntityIndex to, Relation relation) {
    graph_.edges.push_back({from, to, relation});
    return *this;
  }
  GraphBuilder& calls(EntityIndex from, EntityIndex to) { return edge(from, to, Relation::Calls); }
  GraphBuilder& label(EntityIndex entity, Relation relation, std::string value) {
    graph_.labels.push_back({entity, relation, std::move(value)});
    return *this;
  }

  analysis::Graph build() const {
    analysis::Graph graph = graph_;
    std::sort(graph.edges.begin(), graph.edges.end(), [](const auto& a, const auto& b) {
      return std::tie(a.relation, a.from, a.to) < std::tie(b.relation, b.from, b.to);
    });
    graph.edges.erase(std::unique(graph.edges.begin(), graph.edges.end()), graph.edges.end());
    std::sort(graph.labels.begin(), graph.labels.end(), [](const auto& a, const auto& b) {
      return std::tie(a.entity, a.relation, a.value) < std::tie(b.entity, b.relation, b.value);
    });
    graph.labels.erase(std::unique(graph.labels.begin(), graph.labels.end()), graph.labels.end());
    return graph;
  }

 private:
  static constexpr EntityIndex kSelf = analysis::kNoEntity;

  EntityIndex definition(EntityKind kind, std::string name, std::optional<Anchor> anchor,
                         EntityIndex parent) {
    // Containment mirrors the parent links, as the analysis emits it.
    EntityIndex owner = parent == analysis::kNoEntity ? current_file_ : parent;
    EntityIndex e = push({kind, current_file_, owner, std::move(name), 1, std::move(anchor)});
    graph_.edges.push_back({owner, e, Relation::Contains});
    return e;
  }

  EntityIndex push(analysis::Entity entity) {
    graph_.entities.push_back(std::move(entity));
    return static_cast<EntityIndex>(graph_.entities.size() - 1);
  }

  analysis::Graph graph_;
  EntityIndex current_file_ = analysis::kNoEntity;
};

// Anchor at the start of the first line containing `needle` (after a UTF-8 BOM on the first
// line, as the analysis places it), with that line's indentation.
inline Anchor anchor_at(std::string_view text, std::string_view needle) {
  size_t hit = text.find(needle);
  if (hit == std::string_view::npos) return Anchor{0, ""};
  size_t start = text.find_last_of("\r\n", hit);
  start = start == std::string_view::npos ? (text.starts_with("\xEF\xBB\xBF") ? 3 : 0) : start + 1;
  size_t end = text.find_first_not_of(" \t", start);
  return Anchor{start, std::string(text.substr(start, end - start))};
}

}  // namespace anchorfs::render::testing
