// Developer tool: analyses a repository and prints timings, counts and (optionally) its edges.
//   anchorfs_dump_graph ROOT [--threads N] [--edges] [--entities] [--no-dense] [--repeat N]
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "analysis/analyze.h"

int main(int argc, char** argv) {
  using namespace anchorfs::analysis;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s ROOT [--threads N] [--edges] [--entities] [--no-dense] [--repeat N]\n",
                 argv[0]);
    return 2;
  }
  AnalysisOptions options;
  bool print_edges = false, print_entities = false;
  int repeat = 1;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      options.threads = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--edges") == 0) {
      print_edges = true;
    } else if (std::strcmp(argv[i], "--entities") == 0) {
      print_entities = true;
    } else if (std::strcmp(argv[i], "--no-dense") == 0) {
      options.dense = false;
    } else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    }
  }
  try {
    const SourceTree tree = scan_tree(argv[1]);
    Analysis a;
    for (int r = 0; r < repeat; ++r) a = analyze(tree, options);
    const Graph& g = a.graph;
    size_t counts[4] = {0, 0, 0, 0};
    for (const Edge& e : g.edges) {
      if (static_cast<size_t>(e.relation) < 4) ++counts[static_cast<size_t>(e.relation)];
    }
    size_t untaggable = 0;
    for (const FileInfo& f : g.files) untaggable += f.taggable ? 0 : 1;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf(
        "files %zu (untaggable %zu, skipped %zu) lines %zu entities %zu\n"
        "edges contains %zu imports %zu calls %zu inherits %zu\n"
        "parse %.3f s resolve %.3f s max-rss %ld MB\n",
        g.files.size(), untaggable, a.skipped.size(), a.stats.lines, g.entities.size(), counts[0],
        counts[1], counts[2], counts[3], a.stats.parse_seconds, a.stats.resolve_seconds,
        usage.ru_maxrss / 1024);
    if (print_entities) {
      for (EntityIndex e = 0; e < g.entities.size(); ++e) {
        const Entity& en = g.entities[e];
        std::printf("entity %s line %u anchor %s\n", g.id(e).c_str(), en.line,
                    en.anchor ? std::to_string(en.anchor->offset).c_str() : "-");
      }
    }
    if (print_edges) {
      for (const Edge& e : g.edges) {
        std::printf("%s %s -> %s\n", relation_name(e.relation).data(), g.id(e.from).c_str(),
                    g.id(e.to).c_str());
      }
    }
    for (const SkippedFile& s : a.skipped) {
      std::fprintf(stderr, "skipped %s: %s\n", s.path.c_str(), s.reason.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
