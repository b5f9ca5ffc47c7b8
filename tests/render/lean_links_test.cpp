// Lean carries paper's links: both styles' blocks are read back, as an agent would read them, into
// (entity, field, target) triples on repositories full of colliding file and definition names.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "graph_builder.h"
#include "render/view.h"

namespace anchorfs::render::testing {
namespace {

std::vector<std::string> split(std::string_view text, std::string_view separator) {
  std::vector<std::string> parts;
  size_t begin = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with(separator)) {
      parts.emplace_back(text.substr(begin, i - begin));
      begin = i + separator.size();
      i = begin - 1;
    }
  }
  parts.emplace_back(text.substr(begin));
  return parts;
}

// What a reader knows: every file's path and every entity's id.
struct Repository {
  std::set<std::string> files;
  std::set<std::string> ids;

  explicit Repository(const analysis::Graph& graph) {
    for (const analysis::Entity& entity : graph.entities) {
      if (entity.kind == EntityKind::File) {
        files.insert(entity.name);
        ids.insert(entity.name);
      }
    }
    for (const analysis::Entity& entity : graph.entities) {
      if (entity.kind == EntityKind::File) continue;
      ids.insert(graph.entities[entity.file].name + ":" + entity.name);
    }
  }
};

// Per (entity id, field): the targets read back (ids, or "label:" + text for what names no
// entity) and the "(+K more)" count.
using Links = std::map<std::pair<std::string, std::string>, std::pair<std::set<std::string>, int>>;

struct Line {
  std::string field;
  std::string values;
};

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  for (const std::string& line : split(text, "\n")) {
    if (!line.empty()) lines.push_back(line.substr(line.find('#') + 2));
  }
  return lines;
}

// Splits a field's values on `separator` (paper ", ", lean "; "); `read` gives the targets of
// one value (a lean group may hold several).
void add_values(Links& links, const std::string& entity, const Line& line,
                std::string_view separator,
                const std::function<std::vector<std::string>(const std::string&)>& read) {
  auto& [targets, more] = links[{entity, line.field}];
  for (const std::string& value : split(line.values, separator)) {
    if (value.starts_with("\xE2\x80\xA6 (+")) {
      more = std::stoi(value.substr(6));
      continue;
    }
    for (const std::string& target : read(value)) {
      EXPECT_TRUE(targets.insert(target).second) << entity << " " << line.field << " " << value;
    }
  }
}

Line field_line(const std::string& line) {
  size_t colon = line.find(": ");
  return {line.substr(0, colon), line.substr(colon + 2)};
}

// Paper: `kind: ID` names the entity; same-file values omit the path.
Links read_paper(const Repository& repo, const std::string& path, const TagPlan& plan) {
  Links links;
  for (const Insertion& insertion : plan.insertions) {
    std::string entity;
    for (const std::string& line : lines_of(insertion.text)) {
      if (line.starts_with("===")) continue;
      if (line.starts_with("function: ") || line.starts_with("class: ") ||
          line.starts_with("file: ")) {
        entity = line.substr(line.find(": ") + 2);
        continue;
      }
      add_values(links, entity, field_line(line), ", ", [&](const std::string& value) {
        for (const std::string& id : {value, path + ":" + value}) {
          if (repo.ids.count(id)) return std::vector<std::string>{id};
        }
        return std::vector<std::string>{"label:" + value};
      });
    }
  }
  return links;
}

// Lean: the header opens a block of the entity anchored there; values grouped by file: `PATH:
// names`, the block's own file's `names`, a file's `PATH`, or a label. A path written in full
// earlier in the block may come back as `*/` and a trailing part of it.
Links read_lean(const Repository& repo, const std::string& path, const TagPlan& plan,
                const std::map<std::pair<uint64_t, std::string>, std::string>& anchored) {
  Links links;
  for (const Insertion& insertion : plan.insertions) {
    std::string entity;
    std::vector<std::string> written;  // paths written in full in this block
    auto read_path = [&](const std::string& text) {
      if (!text.starts_with("*/")) {
        if (repo.files.count(text)) written.push_back(text);
        return text;
      }
      const std::string part = text.substr(1);  // "/" + the trailing part
      std::vector<std::string> ending;
      for (const std::string& full : written) {
        if (full.ends_with(part)) ending.push_back(full);
      }
      EXPECT_EQ(ending.size(), 1u) << entity << ": " << text;
      return ending.size() == 1 ? ending.front() : text;
    };
    for (const std::string& line : lines_of(insertion.text)) {
      if (line.starts_with("@")) {
        std::string kind = line.substr(1, line.find(' ') - 1);
        entity = anchored.at({insertion.offset, kind});
        written.clear();
        continue;
      }
      add_values(links, entity, field_line(line), "; ", [&](const std::string& group) {
        size_t colon = group.find(": ");
        if (colon == std::string::npos && (repo.files.count(group) || group.starts_with("*/"))) {
          return std::vector<std::string>{read_path(group)};
        }
        const std::string file = colon == std::string::npos ? path : read_path(group.substr(0, colon));
        const std::string names = colon == std::string::npos ? group : group.substr(colon + 2);
        std::vector<std::string> targets;
        for (const std::string& name : split(names, ", ")) {
          const std::string id = file + ":" + name;
          targets.push_back(repo.ids.count(id) ? id : "label:" + group);
        }
        return targets;
      });
    }
  }
  return links;
}

bool shown_by_the_code(const std::string& entity, const std::string& field) {
  const bool file = entity.find(':') == std::string::npos;
  return field == "PARENT" || field == "CHILDREN" || (file && field == "IMPORTS");
}

// A repository whose file names and definition names share every suffix they can.
analysis::Graph colliding_repository(uint64_t seed) {
  const std::vector<std::string> paths = {
      "numbers.py",         "core/numbers.py",      "a/core/numbers.py", "__init__.py",
      "core/__init__.py",   "polys/__init__.py",    "polys/rings.py",    "utils.py",
      "polys/tests/test_rings.py", "core/tests/test_numbers.py", "b/utils.py", "only.py"};
  uint64_t state = seed;
  auto next = [&](uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  GraphBuilder b;
  std::vector<EntityIndex> files, classes, all;
  for (const std::string& path : paths) {
    EntityIndex file = b.file(path);
    files.push_back(file);
    all.push_back(file);
    uint64_t offset = 0;
    auto at = [&](std::string indent) { return Anchor{offset += 10, std::move(indent)}; };
    EntityIndex a = b.cls("A", at(""));
    EntityIndex ab = b.cls("A.B", at("    "), a);
    EntityIndex poly = b.cls("Poly", at(""));
    EntityIndex pure = b.cls("PurePoly", at(""));
    EntityIndex outer = b.function("outer", at(""));
    classes.insert(classes.end(), {a, ab, poly, pure});
    all.insert(all.end(),
               {a, ab, poly, pure, outer, b.function("A.B.run", at("        "), ab),
                b.function("A.run", at("    "), a), b.function("Poly.degree", at("    "), poly),
                b.function("PurePoly.degree", at("    "), pure),
                b.function("outer.inner", at("    "), outer), b.function("helper", at(""))});
    // Top-level twins of the nested names, in some files only.
    for (std::string twin : {"run", "degree", "inner", "B"}) {
      if (next(2) == 0) all.push_back(b.function(twin, at("")));
    }
  }
  for (int i = 0; i < 400; ++i) {
    EntityIndex from = all[next(all.size())], to = all[next(all.size())];
    if (from != to) b.calls(from, to);
  }
  const Relation dense[] = {Relation::DataDep, Relation::TestRef, Relation::Registers};
  for (int i = 0; i < 60; ++i) {
    b.edge(files[next(files.size())], files[next(files.size())], Relation::Imports);
    b.edge(classes[next(classes.size())], classes[next(classes.size())], Relation::Inherits);
    b.edge(all[next(all.size())], all[next(all.size())], dense[next(3)]);
  }
  b.label(all[1], Relation::ConstRef, "core/numbers.py:LIMIT");
  b.label(all[2], Relation::ConfigUsage, "settings.DEBUG");
  b.label(all[3], Relation::Registers, "app.route");
  return b.build();
}

TEST(LeanLinks, EveryPaperLinkReadsBackFromLeanInEveryViewAndCap) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    analysis::Graph graph = colliding_repository(seed);
    Repository repo(graph);
    for (View view : {View::Topo, View::Inv, View::Dense}) {
      for (size_t cap : {size_t{0}, size_t{3}}) {
        ViewOptions options;
        options.view = view;
        options.max_links = cap;
        std::vector<TagPlan> paper = render_plans(graph, choose_view(graph, options));
        options.style = Style::Lean;
        std::vector<TagPlan> lean = render_plans(graph, choose_view(graph, options));
        size_t compared = 0;
        for (size_t f = 0; f < graph.files.size(); ++f) {
          const std::string& path = graph.entities[graph.files[f].entity].name;
          std::map<std::pair<uint64_t, std::string>, std::string> anchored;
          for (const analysis::Entity& entity : graph.entities) {
            if (entity.file != graph.files[f].entity || !entity.anchor) continue;
            const bool file = entity.kind == EntityKind::File;
            anchored[{entity.anchor->offset, file                                ? "file"
                                             : entity.kind == EntityKind::Class ? "class"
                                                                                : "function"}] =
                file ? path : path + ":" + entity.name;
          }
          Links expected;
          for (auto& [key, value] : read_paper(repo, path, paper[f])) {
            if (!shown_by_the_code(key.first, key.second)) expected[key] = value;
          }
          Links got = read_lean(repo, path, lean[f], anchored);
          EXPECT_EQ(got, expected) << path << " view " << view_name(view) << " cap " << cap
                                   << " seed " << seed;
          compared += expected.size();
        }
        EXPECT_GT(compared, 100u);
      }
    }
  }
}

}  // namespace
}  // namespace anchorfs::render::testing
