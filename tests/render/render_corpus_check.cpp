// Checks rendering on a real repository: render_corpus_check REPO [OUT_DIR].
// Per view: strip(apply(x)) == x for every analysed file, and where the tag bytes go (share of
// source bytes per field). With OUT_DIR, writes OUT_DIR/<view>/<path> tagged copies for
// `tests/support/python_ast_check.py REPO OUT_DIR/<view>` (python `ast.dump` equality). Not a
// unit test: it needs a corpus.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "analysis/analyze.h"
#include "render/stats.h"
#include "render/tag_plan.h"
#include "render/view.h"

using namespace anchorfs;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Field name of one tag line ("CALLS"), "delimiter" or the name-line kind ("function").
std::string field_of(std::string_view line) {
  size_t hash = line.find("# ");
  std::string_view rest = line.substr(hash + 2);
  if (rest.starts_with("===")) return "delimiter";
  return std::string(rest.substr(0, rest.find(':')));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: render_corpus_check REPO [OUT_DIR]\n");
    return 2;
  }
  const std::string root = argv[1];
  const std::string out = argc > 2 ? argv[2] : "";
  analysis::SourceTree tree = analysis::scan_tree(root);
  analysis::Analysis analysed = analysis::analyze(tree, {});
  const analysis::Graph& graph = analysed.graph;
  const uint64_t source = render::source_bytes(tree, graph);
  std::printf("%zu files, %zu entities, %zu edges, %llu source bytes\n", graph.files.size(),
              graph.entities.size(), graph.edges.size(), static_cast<unsigned long long>(source));
  int failures = 0;
  for (render::View view : {render::View::Topo, render::View::Inv, render::View::Dense}) {
    render::ViewOptions options;
    options.view = view;
    auto start = std::chrono::steady_clock::now();
    std::vector<render::TagPlan> plans =
        render::render_plans(graph, render::choose_view(graph, options));
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::map<std::string, uint64_t> by_field;
    uint64_t total = 0;
    size_t skipped = 0;
    for (size_t f = 0; f < plans.size(); ++f) {
      const std::string& path = graph.entities[graph.files[f].entity].name;
      std::string original = read_file(root + "/" + path);
      if (render::has_tag_delimiter(original)) {
        ++skipped;
        continue;
      }
      std::string tagged = render::apply(original, plans[f]);
      if (render::strip(tagged) != original) {
        ++failures;
        std::printf("strip(apply(x)) != x: %s (%s)\n", path.c_str(),
                    std::string(render::view_name(view)).c_str());
      }
      for (const render::Insertion& insertion : plans[f].insertions) {
        total += insertion.text.size();
        std::string_view text = insertion.text;
        for (size_t pos = 0; pos < text.size();) {
          size_t end = text.find_first_of("\r\n", pos);
          end = end == std::string_view::npos ? text.size() : end + 1;
          if (end < text.size() && text[end - 1] == '\r' && text[end] == '\n') ++end;
          by_field[field_of(text.substr(pos, end - pos))] += end - pos;
          pos = end;
        }
      }
      if (!out.empty()) {
        auto dest = std::filesystem::path(out) / std::string(render::view_name(view)) / path;
        std::filesystem::create_directories(dest.parent_path());
        std::ofstream(dest, std::ios::binary) << tagged;
      }
    }
    double denominator = source > 0 ? static_cast<double>(source) / 100 : 1;
    std::printf(
        "%-5s render %.1f ms, tags %.1f%% of source:", std::string(render::view_name(view)).c_str(),
        ms, static_cast<double>(total) / denominator);
    for (const auto& [field, bytes] : by_field) {
      std::printf(" %s %.1f%%", field.c_str(), static_cast<double>(bytes) / denominator);
    }
    std::printf(
        "%s\n",
        skipped > 0
            ? (" (" + std::to_string(skipped) + " files with delimiter lines skipped)").c_str()
            : "");
  }
  return failures == 0 ? 0 : 1;
}
