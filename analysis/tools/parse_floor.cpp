// Developer tool: the floor under extraction — tree-sitter parsing alone of every source file the
// analysis would read, each with its front end's grammar, on one thread (no extraction, no
// resolution).
//   anchorfs_parse_floor ROOT
#include <tree_sitter/api.h>

#include <cstdio>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/language.h"
#include "analysis/parse_budget.h"
#include "analysis/source_files.h"

namespace {

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace anchorfs::analysis;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s ROOT\n", argv[0]);
    return 2;
  }
  try {
    const SourceTree tree = scan_tree(argv[1]);
    std::vector<std::pair<const TSLanguage*, std::string>> sources;
    size_t bytes = 0;
    for (const SourceFile& file : select_sources(tree)) {
      SourceBytes source = read_source(tree.root, file.path, AnalysisOptions{}.max_file_bytes);
      if (!source.ok || nests_too_deep_to_parse(source.bytes)) continue;
      bytes += source.bytes.size();
      sources.emplace_back(front_ends()[file.front_end]->grammar(file.path),
                           std::move(source.bytes));
    }
    TSParser* parser = ts_parser_new();
    const double start = thread_cpu_seconds();
    for (const auto& [language, source] : sources) {
      ts_parser_set_language(parser, language);
      TSTree* parsed = ts_parser_parse_string(parser, nullptr, source.data(),
                                              static_cast<uint32_t>(source.size()));
      ts_tree_delete(parsed);
    }
    const double seconds = thread_cpu_seconds() - start;
    ts_parser_delete(parser);
    std::printf("files %zu bytes %zu parse-only cpu %.3f s (one thread)\n", sources.size(), bytes,
                seconds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
