// `anchorfs cache stats|trim|clear`: what the shared cache holds, shrinking it, removing it.
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
  std::string to;  // trim: the size to shrink to ("" = 80 % of the cap)
};

std::string human_bytes(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30))
    return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1 << 30));
  if (bytes >= (uint64_t{1} << 20))
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
  if (bytes >= 1024) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  return fmt::format("{} B", bytes);
}

std::string rate(uint64_t hits, uint64_t remote_hits, uint64_t misses) {
  const uint64_t total = hits + remote_hits + misses;
  if (total == 0) return "no lookups yet";
  return fmt::format("{:.1f}% hit ({} local, {} remote, {} missed)",
                     100.0 * static_cast<double>(hits + remote_hits) / static_cast<double>(total),
                     hits, remote_hits, misses);
}

int run_cache_stats(const CacheCommandArgs& args) {
  const std::string root = cache_root(args.cache);
  const CacheSettings settings = cache_settings(args.cache);
  const auto store = cache::inspect_store(root);
  std::string out = fmt::format("cache {}\n", root);
  out += fmt::format("  cap        {}\n", human_bytes(settings.max_bytes));
  out += fmt::format("  remote     {}\n",
                     settings.remote ? settings.remote->display() : std::string("none"));
  if (!store) {
    out += "  store      none yet\n";
  } else {
    out += fmt::format(
        "  store      {}{}\n", store->location,
        store->healthy ? "" : " (damaged, set aside on next use: " + store->problem + ")");
    out += fmt::format("  size       {} in use ({} of records), {} on disk\n",
                       human_bytes(store->used_bytes), human_bytes(store->accounted_bytes),
                       human_bytes(store->bytes_on_disk));
    out += fmt::format("  entries    {} file facts, {} graphs\n", store->entries,
                       store->graph_entries);
    const cache::HitCounts& c = store->counts;
    out += fmt::format("  facts      {}\n", rate(c.fact_hits, c.fact_remote_hits, c.fact_misses));
    out +=
        fmt::format("  graphs     {}\n", rate(c.graph_hits, c.graph_remote_hits, c.graph_misses));
  }
  if (const auto legacy = cache::legacy_store_dirs(root); !legacy.empty()) {
    out += fmt::format(
        "  legacy     {} per-repository stores of an older anchorfs, {} "
        "(never read; `anchorfs cache trim` removes them)\n",
        legacy.size(), human_bytes(cache::legacy_store_bytes(root)));
  }
  write_all(STDOUT_FILENO, out, "stdout");
  return kExitOk;
}

int run_cache_trim(const CacheCommandArgs& args) {
  const std::string root = cache_root(args.cache);
  const CacheSettings settings = cache_settings(args.cache);
  std::optional<uint64_t> target;
  if (!args.to.empty()) {
    target = parse_size(args.to);
    if (!target) throw CliError("--to", "'" + args.to + "' is not a size (e.g. 500M)");
  }
  size_t legacy = 0;
  for (const std::string& dir : cache::legacy_store_dirs(root)) {
    legacy += cache::clear_legacy_store(dir) ? 1 : 0;
  }
  std::string out;
  if (legacy > 0) out += fmt::format("removed {} legacy per-repository stores\n", legacy);
  if (cache::inspect_store(root)) {
    cache::CacheOptions options;
    options.cache_dir = root;
    options.max_bytes = settings.max_bytes;
    options.warn = warn_on_stderr;
    const auto store = cache::LmdbFactCache::open(options);
    if (store) {
      const size_t removed = store->trim(target);
      const cache::StoreInfo info = store->info();
      out += fmt::format("evicted {} least recently used entries; {} in use (cap {})\n", removed,
                         human_bytes(info.used_bytes), human_bytes(settings.max_bytes));
    }
  }
  if (out.empty()) out = "nothing to trim\n";
  write_all(STDOUT_FILENO, out, "stdout");
  return kExitOk;
}

int run_cache_clear(const CacheCommandArgs& args) {
  const std::string root = cache_root(args.cache);
  const size_t removed = cache::clear_all_stores(root);
  write_all(STDOUT_FILENO,
            fmt::format("removed {} store{} from {}\n", removed, removed == 1 ? "" : "s", root),
            "stdout");
  return kExitOk;
}

}  // namespace

Command add_cache_command(CLI::App& app) {
  auto args = std::make_shared<CacheCommandArgs>();
  CLI::App* command =
      app.add_subcommand("cache", "Inspect, trim or clear the shared analysis cache");
  command->require_subcommand(1);
  CLI::App* stats = command->add_subcommand(
      "stats", "Show the cache: size, cap, entries, hit rates, remote tier");
  add_cache_location_args(*stats, args->cache);
  stats->add_option("--remote-cache", args->cache.remote, "Remote tier to report");
  CLI::App* trim = command->add_subcommand(
      "trim", "Evict least recently used entries down to 80% of the cap (or --to SIZE)");
  add_cache_location_args(*trim, args->cache);
  trim->add_option("--to", args->to, "Size to shrink the cache's records to, e.g. 500M");
  CLI::App* clear = command->add_subcommand("clear", "Remove the whole cache");
  clear->add_option("--cache-dir", args->cache.dir, "Cache root to clear")->type_name("DIR");
  return {command, [args, stats, trim] {
            if (stats->parsed()) return run_cache_stats(*args);
            if (trim->parsed()) return run_cache_trim(*args);
            return run_cache_clear(*args);
          }};
}

}  // namespace anchorfs::cli
