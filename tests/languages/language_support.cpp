// Shared checks for language front ends: strip round trip, syntax equivalence, edge lines.
#include "tests/languages/language_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "render/tag_plan.h"
#include "tests/support/files.h"

namespace anchorfs::languages_test {
namespace {

using test_support::read_file;

void dump(TSNode node, std::string_view bytes, std::string& out) {
  const std::string_view type = ts_node_type(node);
  if (type.find("comment") != std::string_view::npos) return;
  out += '(';
  out += type;
  const uint32_t children = ts_node_child_count(node);
  if (children == 0) {
    const uint32_t begin = ts_node_start_byte(node);
    const uint32_t end = ts_node_end_byte(node);
    out += ' ';
    out += bytes.substr(begin, end - begin);
  }
  for (uint32_t i = 0; i < children; ++i) dump(ts_node_child(node, i), bytes, out);
  out += ')';
}

}  // namespace

std::map<std::string, std::string> tagged_files(const std::string& root,
                                                const analysis::Graph& graph,
                                                const render::ViewOptions& options) {
  const std::vector<render::TagPlan> plans =
      render::render_plans(graph, render::choose_view(graph, options));
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < graph.files.size(); ++i) {
    const std::string path = graph.id(graph.files[i].entity);
    out[path] = render::apply(read_file(root + "/" + path), plans[i]);
  }
  return out;
}

std::string syntax_without_comments(const TSLanguage* language, std::string_view bytes) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, language);
  TSTree* tree =
      ts_parser_parse_string(parser, nullptr, bytes.data(), static_cast<uint32_t>(bytes.size()));
  std::string out;
  dump(ts_tree_root_node(tree), bytes, out);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return out;
}

void expect_tags_change_no_program(const std::string& root, const analysis::Graph& graph,
                                   std::string_view language_name,
                                   const std::function<const TSLanguage*(std::string_view)>& grammar_of) {
  for (render::View view : {render::View::Topo, render::View::Inv, render::View::Dense}) {
    for (render::Style style : {render::Style::Paper, render::Style::Lean}) {
      render::ViewOptions options;
      options.view = view;
      options.style = style;
      const std::map<std::string, std::string> tagged = tagged_files(root, graph, options);
      for (size_t i = 0; i < graph.files.size(); ++i) {
        if (graph.files[i].language != language_name) continue;
        const std::string path = graph.id(graph.files[i].entity);
        const std::string original = read_file(root + "/" + path);
        const std::string& text = tagged.at(path);
        const TSLanguage* language = grammar_of(path);
        SCOPED_TRACE(path + " in " + std::string(render::view_name(view)) + "/" +
                     std::string(render::style_name(style)));
        EXPECT_EQ(render::strip(text), original);
        EXPECT_EQ(syntax_without_comments(language, text),
                  syntax_without_comments(language, original))
            << text;
      }
    }
  }
}

void expect_tags_change_no_program(const std::string& root, const analysis::Graph& graph,
                                   std::string_view language_name, const TSLanguage* language) {
  expect_tags_change_no_program(root, graph, language_name,
                                [language](std::string_view) { return language; });
}

std::vector<std::string> edge_lines(const analysis::Graph& graph) {
  std::vector<std::string> lines;
  for (const analysis::Edge& e : graph.edges) {
    if (e.relation != analysis::Relation::Imports && e.relation != analysis::Relation::Calls &&
        e.relation != analysis::Relation::Inherits) {
      continue;
    }
    lines.push_back(graph.id(e.from) + " " + std::string(analysis::relation_name(e.relation)) +
                    " " + graph.id(e.to));
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

}  // namespace anchorfs::languages_test
