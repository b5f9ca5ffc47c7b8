// Developer tool: the differential check of the C front end's plain-directive files (facts read
// without a syntax tree, cfamily/directives_only.h) against their parse, in both dialects, and
// the largest syntax tree such a file takes per item (the bound plain_tree_fits_budget uses).
//   anchorfs_plain_directives_check ROOT...
#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "analysis/cfamily/directives_only.h"
#include "analysis/cfamily/extract.h"
#include "analysis/cfamily/grammar.h"
#include "analysis/parse_arena.h"
#include "analysis/parse_budget.h"

namespace {

namespace fs = std::filesystem;
using anchorfs::analysis::ParseArena;
using anchorfs::analysis::ParseBudget;
using anchorfs::analysis::cfamily::Dialect;

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

bool claimed(const fs::path& path) {
  static const std::vector<std::string> kExtensions = {
      ".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tcc", ".inl"};
  return std::find(kExtensions.begin(), kExtensions.end(), path.extension().string()) !=
         kExtensions.end();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace anchorfs::analysis::cfamily;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s ROOT...\n", argv[0]);
    return 2;
  }
  std::vector<std::pair<std::string, std::string>> plain;  // path, bytes
  size_t files = 0;
  size_t plain_bytes = 0;
  for (int a = 1; a < argc; ++a) {
    for (const auto& entry : fs::recursive_directory_iterator(
             argv[a], fs::directory_options::skip_permission_denied)) {
      if (!entry.is_regular_file() || !claimed(entry.path())) continue;
      if (entry.file_size() > (size_t{16} << 20)) continue;  // the analysis's file limit
      ++files;
      std::ifstream in(entry.path(), std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!plain_directive_items(bytes)) continue;
      plain_bytes += bytes.size();
      plain.emplace_back(entry.path().string(), std::move(bytes));
    }
  }
  size_t differences = 0;
  double parse_seconds = 0;
  double lexical_seconds = 0;
  for (const auto& [path, bytes] : plain) {
    for (const Dialect dialect : {Dialect::C, Dialect::Cpp}) {
      double start = thread_cpu_seconds();
      const auto parsed = extract_facts_by_parse(bytes, dialect);
      parse_seconds += thread_cpu_seconds() - start;
      start = thread_cpu_seconds();
      const auto lexical = plain_directive_facts(bytes, dialect);
      (void)plain_directive_items(bytes);
      lexical_seconds += thread_cpu_seconds() - start;
      if (!(parsed == lexical)) {
        ++differences;
        std::printf("DIFFERENT (%s): %s\n", dialect == Dialect::Cpp ? "c++" : "c", path.c_str());
      }
    }
  }
  // The trees' peaks, as the parse budget counts them.
  double worst_per_item = 0;
  int64_t worst_fixed = 0;
  std::string worst_path;
  for (const auto& [path, bytes] : plain) {
    const uint64_t items = *plain_directive_items(bytes);
    for (const Dialect dialect : {Dialect::C, Dialect::Cpp}) {
      int64_t peak = 0;
      {
        // As a file's parse runs: in the thread's arena, whose bytes the budget counts.
        const ParseArena arena;
        ts_parser_set_language(arena.parser(), grammar_of(dialect));
        const ParseBudget unbounded(arena.parser(), UINT64_MAX);
        (void)ts_parser_parse_string(arena.parser(), nullptr, bytes.data(),
                                     static_cast<uint32_t>(bytes.size()));
        peak = static_cast<int64_t>(unbounded.peak_bytes());
      }
      // Small files show the parser's fixed cost; large ones the cost per item.
      if (items < 1000) worst_fixed = std::max(worst_fixed, peak);
      if (items >= 1000 && static_cast<double>(peak) / static_cast<double>(items) > worst_per_item) {
        worst_per_item = static_cast<double>(peak) / static_cast<double>(items);
        worst_path = path;
      }
    }
  }
  std::printf(
      "files %zu, plain-directive files %zu (%zu bytes), differences %zu (both dialects)\n"
      "parse path %.3f s, lexical path %.3f s (CPU, both dialects)\n"
      "largest tree of a file under 1,000 items %lld bytes; most tree bytes per item over 1,000 items %.1f (%s)\n",
      files, plain.size(), plain_bytes, differences, parse_seconds, lexical_seconds,
      static_cast<long long>(worst_fixed), worst_per_item, worst_path.c_str());
  return differences == 0 ? 0 : 1;
}
