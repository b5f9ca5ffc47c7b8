// `anchorfs cache stats|clear`: what the fact cache holds, and removing it.
#include <fmt/format.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "cache/cache_location.h"
#include "cache/store_info.h"
#include "cli/cache_args.h"
#include "cli/cli_error.h"
#include "cli/command.h"
#include "cli/file_io.h"

namespace anchorfs::cli {
namespace {

struct CacheCommandArgs {
  CacheArgs cache;
  std::string repo;  // clear: only this repository's store
};

std::string human_bytes(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 20))
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
  if (bytes >= 1024) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  return fmt::format("{} B", bytes);
}

int run_cache_stats(const CacheCommandArgs& args) {
  const std::string root = cache_root(args.cache);
  const auto stores = cache::list_stores(root);
  std::string out =
      fmt::format("cache {}: {} store{}\n", root, stores.size(), stores.size() == 1 ? "" : "s");
  uint64_t total = 0;
  for (const cache::StoreInfo& store : stores) {
    total += store.bytes_on_disk;
    out += fmt::format(
        "  {}\n    {} entries, {} graph{}, {}, analyser {}{}\n    store {}\n", store.repo_path,
        store.entries, store.graph_entries, store.graph_entries == 1 ? "" : "s",
        human_bytes(store.bytes_on_disk), store.analyser_version,
        store.healthy ? "" : ", damaged (rebuilt on next use): " + store.problem, store.location);
  }
  if (!stores.empty()) out += fmt::format("total {}\n", human_bytes(total));
  write_all(STDOUT_FILENO, out, "stdout");
  return kExitOk;
}

int run_cache_clear(const CacheCommandArgs& args) {
  const std::string root = cache_root(args.cache);
  std::string out;
  if (!args.repo.empty()) {
    // The repository may be gone already; its store is named by the path it had.
    const std::string repo = cache::resolve_path(args.repo);
    out = cache::clear_store(root, repo) ? "removed the cache of " + repo + "\n"
                                         : "no cache for " + repo + "\n";
  } else {
    const size_t removed = cache::clear_all_stores(root);
    out = fmt::format("removed {} store{} from {}\n", removed, removed == 1 ? "" : "s", root);
  }
  write_all(STDOUT_FILENO, out, "stdout");
  return kExitOk;
}

}  // namespace

Command add_cache_command(CLI::App& app) {
  auto args = std::make_shared<CacheCommandArgs>();
  CLI::App* command = app.add_subcommand("cache", "Inspect or clear the per-file fact cache");
  command->require_subcommand(1);
  CLI::App* stats =
      command->add_subcommand("stats", "List every repository's store: entries, size, health");
  stats->add_option("--cache-dir", args->cache.dir, "Cache root to inspect");
  CLI::App* clear = command->add_subcommand("clear", "Remove the stores (of REPO only, if given)");
  clear->add_option("REPO", args->repo, "Only this repository's store");
  clear->add_option("--cache-dir", args->cache.dir, "Cache root to clear");
  return {command, [args, stats] {
            return stats->parsed() ? run_cache_stats(*args) : run_cache_clear(*args);
          }};
}

}  // namespace anchorfs::cli
