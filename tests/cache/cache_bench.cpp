// Measures cold vs warm snapshot builds and one-file refresh latency on a copy of a repository:
// cache_bench REPO [THREADS]. A tool for the benchmark script, not a test.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analysis/source_files.h"
#include "cache/lmdb_fact_cache.h"
#include "refresh/refresher.h"
#include "refresh/snapshot_builder.h"

namespace {

using namespace anchorfs;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Timed {
  double open_seconds = 0;
  refresh::Built built;
};

// A fresh cache object and builder, as a new mount process would have.
Timed mount_once(const std::string& repo, const std::string& cache_dir, unsigned threads) {
  Timed timed;
  const auto start = Clock::now();
  cache::CacheOptions options;
  options.repo_root = repo;
  options.cache_dir = cache_dir;
  auto cache = cache::LmdbFactCache::open(options);
  timed.open_seconds = since(start);
  refresh::BuildOptions build;
  build.repo = repo;
  build.threads = threads;
  build.cache = cache.get();
  refresh::SnapshotBuilder builder(build);
  timed.built = builder.build();
  timed.built.seconds = since(start);
  return timed;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cache_bench REPO [THREADS]\n");
    return 2;
  }
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 0;
  char scratch_template[] = "/tmp/anchorfs-cache-bench-XXXXXX";
  const std::string scratch = ::mkdtemp(scratch_template);
  const std::string repo = scratch + "/repo";
  const std::string cache_dir = scratch + "/cache";
  std::filesystem::copy(argv[1], repo, std::filesystem::copy_options::recursive);

  const Timed cold = mount_once(repo, cache_dir, threads);
  const Timed warm = mount_once(repo, cache_dir, threads);
  std::printf("%-30s %9s %9s %9s %9s %8s %8s\n", "", "total s", "open s", "parse s", "resolve s",
              "parsed", "cached");
  for (const auto& [name, run] :
       {std::pair{"cold build (empty cache)", &cold}, std::pair{"warm build (remount)", &warm}}) {
    std::printf("%-30s %9.3f %9.3f %9.3f %9.3f %8zu %8zu\n", name, run->built.seconds,
                run->open_seconds, run->built.stats.parse_seconds, run->built.stats.resolve_seconds,
                run->built.stats.parsed, run->built.stats.from_cache);
  }

  // One-file edit while "mounted": the watcher sees it, the burst settles, the builder rebuilds.
  cache::CacheOptions options;
  options.repo_root = repo;
  options.cache_dir = cache_dir;
  auto cache = cache::LmdbFactCache::open(options);
  refresh::BuildOptions build;
  build.repo = repo;
  build.threads = threads;
  build.cache = cache.get();
  refresh::SnapshotBuilder builder(build);
  builder.build();
  double rebuild_seconds = 0;
  refresh::RefreshOptions refresh_options;
  refresh_options.log = [](const std::string& line) { std::printf("  log: %s\n", line.c_str()); };
  refresh::Refresher refresher(
      repo,
      [&]() -> std::optional<std::string> {
        const auto built = builder.build();
        if (!built.changed) {
          return std::nullopt;
        }
        rebuild_seconds = built.seconds;
        std::printf("  rebuild: parse %.3f s, resolve %.3f s\n", built.stats.parse_seconds,
                    built.stats.resolve_seconds);
        return refresh::describe(built);
      },
      refresh_options);
  refresher.start();
  const auto sources = analysis::select_sources(analysis::scan_tree(repo));
  const std::string edited = repo + "/" + sources[sources.size() / 2].path;
  std::ofstream(edited, std::ios::app) << "\n\ndef anchorfs_bench_added():\n    return None\n";
  const auto edit = Clock::now();
  refresher.wait_for_refreshes(1, std::chrono::seconds(60));
  std::printf("%-30s %9.3f (rebuild %.3f s; debounce %lld ms)\n", "one-file edit -> new snapshot",
              since(edit), rebuild_seconds, static_cast<long long>(refresh_options.quiet.count()));
  refresher.stop();
  std::printf("store: %llu entries, %.1f MB\n",
              static_cast<unsigned long long>(cache->info().entries),
              static_cast<double>(cache->info().bytes_on_disk) / 1e6);
  cache.reset();
  std::filesystem::remove_all(scratch);
  return 0;
}
