// What every language's tests check the same way: tagged views that strip back to the original
// and parse to the original's syntax tree, and a graph's edges as comparable lines.
#pragma once

#include <tree_sitter/api.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/graph.h"
#include "render/view.h"
#include "tests/analysis/temp_repo.h"

namespace anchorfs::languages_test {

// The tagged text of every analysed file, by path.
std::map<std::string, std::string> tagged_files(const std::string& root,
                                                const analysis::Graph& graph,
                                                const render::ViewOptions& options);

// The syntax tree of `bytes` as one line of text (node types, and the text of every leaf),
// comment nodes (any type whose name contains "comment") left out.
std::string syntax_without_comments(const TSLanguage* language, std::string_view bytes);

// For every file of `language_name` in the graph, in each view and style: strip(tagged) is the
// original, and the tagged text parses to the original's tree once comments are ignored.
// Failures are reported with the file, view and style.
void expect_tags_change_no_program(const std::string& root, const analysis::Graph& graph,
                                   std::string_view language_name, const TSLanguage* language);

// The same for a front end with several grammars: `grammar_of(path)` names each file's.
void expect_tags_change_no_program(const std::string& root, const analysis::Graph& graph,
                                   std::string_view language_name,
                                   const std::function<const TSLanguage*(std::string_view)>& grammar_of);

// "FROM relation TO" for every Imports, Calls and Inherits edge, sorted, without duplicates.
std::vector<std::string> edge_lines(const analysis::Graph& graph);

}  // namespace anchorfs::languages_test
