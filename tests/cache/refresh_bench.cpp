// Where a one-file refresh's CPU goes: refresh_bench REPO FILE [ROUNDS [KEEP_DIR [EDIT]]]. A
// benchmark tool.
//
// Copies REPO, builds its view once with a cache (as a mount does), then ROUNDS times appends two
// functions (one calling the other) to FILE (relative to REPO; Python or C syntax by its
// extension; EDIT `comment` appends a comment line instead, an edit no resolver sees; Python's
// `call-old` appends issue 29's realistic edit, `def f(x): return Rational(x, 2) + igcd(x, 4)`,
// and `call-old-passing` the same function passing itself to igcd, which no shortcut takes) and
// refreshes it the way a watching mount does: SnapshotBuilder::build() told the edited path, which
// keeps its memos and the last view from one build to the next, then keep_records() (the records
// written once the view is served; after the first build, also the priming a watching mount
// starts then: SnapshotBuilder::prime_in_background). Prints each step's process CPU. Under callgrind, dump after
// '*SnapshotBuilder::build*' for one count per refresh. With ANCHORFS_BENCH_PERF_CONTROL set to
// the control fifo of a `perf record -D -1 --control fifo:PATH`, only the refreshes' builds are
// sampled (natively, where callgrind on a large tree would take an hour for the first build).
// Under `valgrind --tool=callgrind --instr-atstart=no` only the refreshes' builds are
// instrumented, one dump each, so the first build runs at valgrind's uninstrumented speed.
#include <fmt/format.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "cache/lmdb_fact_cache.h"
#include "refresh/snapshot_builder.h"

namespace {

using namespace anchorfs;

double cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// Two functions, the first calling the second (or a comment line), in the syntax `path` is
// written in.
std::string probe(const std::string& path, int round, std::string_view edit) {
  const std::string name = fmt::format("anchorfs_probe_{}_{}", round, ::getpid());
  if (edit == "comment") return fmt::format("\n{} {}\n", path.ends_with(".py") ? "#" : "//", name);
  if (edit == "call-old" || edit == "call-old-passing") {
    return fmt::format("\n\ndef {0}(x):\n    return Rational(x, 2) + igcd({1}, 4)\n", name,
                       edit == "call-old" ? "x" : name);
  }
  if (path.ends_with(".py")) {
    return fmt::format("\n\ndef {0}():\n    return {0}_helper()\n\n\ndef {0}_helper():\n    return 1\n",
                       name);
  }
  return fmt::format("\n\nstatic int {0}_helper(void)\n{{\n\treturn 1;\n}}\n\n"
                     "int {0}(void)\n{{\n\treturn {0}_helper();\n}}\n",
                     name);
}

// Resident set size now, in MB (what the kept memos, tables and view cost between refreshes).
long resident_mb() {
  long pages = 0, resident = 0;
  std::ifstream("/proc/self/statm") >> pages >> resident;
  return resident * ::sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: refresh_bench REPO FILE [ROUNDS [KEEP_DIR "
                 "[append|comment|call-old|call-old-passing]]]\n");
    return 2;
  }
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  const std::string_view edit = argc > 5 ? std::string_view(argv[5]) : "append";
  // KEEP_DIR keeps the copy and its cache for the next run (under valgrind, the cold analysis is
  // then made once, natively): the edited file is restored at the end, and the probes are named
  // by process so that no run finds another's view in the cache.
  char scratch_template[] = "/tmp/anchorfs-refresh-bench-XXXXXX";
  const std::string scratch =
      argc > 4 ? std::string(argv[4]) : std::string(::mkdtemp(scratch_template));
  // The copy keeps REPO's basename: a Python root's name can make it the package (sympy's own
  // `from sympy... import`s resolve inside the tree only in a directory called sympy).
  std::filesystem::path source = std::filesystem::path(argv[1]).lexically_normal();
  if (!source.has_filename()) source = source.parent_path();  // REPO given with a trailing slash
  const std::string repo = scratch + "/" + source.filename().string();
  if (!std::filesystem::exists(repo)) {
    std::filesystem::create_directories(scratch);
    std::filesystem::copy(argv[1], repo, std::filesystem::copy_options::recursive);
  }
  cache::CacheOptions cache_options;
  cache_options.repo_root = std::filesystem::canonical(repo);
  cache_options.cache_dir = scratch + "/cache";
  auto cache = cache::LmdbFactCache::open(cache_options);
  refresh::BuildOptions options;
  options.repo = std::filesystem::canonical(repo);
  options.threads = 2;
  options.view.view = render::View::Topo;
  options.cache = cache.get();
  options.will_refresh = true;
  refresh::SnapshotBuilder builder(options);
  const char* full_scan = std::getenv("ANCHORFS_BENCH_FULL_SCAN");
  std::ofstream perf_control;
  if (const char* path = std::getenv("ANCHORFS_BENCH_PERF_CONTROL")) perf_control.open(path);
  const auto sample = [&](const char* command) {
    if (perf_control.is_open()) perf_control << command << '\n' << std::flush;
  };

  const std::string edited = repo + "/" + argv[2];
  std::string original;
  {
    std::ifstream in(edited, std::ios::binary);
    original.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::printf("process CPU seconds (%s, append %.*s to %s)\n", argv[1],
              static_cast<int>(edit.size()), edit.data(), argv[2]);
  std::printf("%-12s %8s %8s %7s  %s\n", "", "build", "records", "RSS MB", "summary");
  for (int i = -1; i < rounds; ++i) {
    if (i >= 0) std::ofstream(edited, std::ios::app) << probe(edited, i, edit);
    if (i >= 0) {
      sample("enable");
      CALLGRIND_START_INSTRUMENTATION;
    }
    const double start = cpu_seconds();
    // A watching mount's build is told what its events named: the edited file (with
    // ANCHORFS_BENCH_FULL_SCAN set, not: every build lists the whole tree, for an A/B).
    const std::vector<std::string> changed{argv[2]};
    const refresh::Built built =
        builder.build({}, i >= 0 && full_scan == nullptr ? &changed : nullptr);
    const double built_at = cpu_seconds();
    if (i >= 0) {
      CALLGRIND_STOP_INSTRUMENTATION;
      CALLGRIND_DUMP_STATS_AT(fmt::format("refresh {}", i).c_str());
      sample("disable");
    }
    builder.keep_records();
    if (i < 0) {
      // As a watching mount does once it serves: a view loaded whole from its record has its
      // analysis made again here, not inside refresh 0 (SnapshotBuilder::prime_in_background).
      builder.prime_in_background();
      builder.wait_primed();
    }
    const double kept_at = cpu_seconds();
    std::printf("%-12s %8.3f %8.3f %7ld  %zu/%zu plans rendered; %s\n",
                i < 0 ? "mount" : fmt::format("refresh {}", i).c_str(), built_at - start,
                kept_at - built_at, resident_mb(), built.rendered_files, built.analysed_files,
                refresh::describe(built).c_str());
    std::fflush(stdout);
  }
  std::ofstream(edited, std::ios::binary | std::ios::trunc) << original;
  cache.reset();
  if (argc <= 4) std::filesystem::remove_all(scratch);
  return 0;
}
