// Resolution inputs: bounded, beneath the root, warned about once when too large.
#include "analysis/resolution_input.h"

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>

#include "sync/mutex.h"

namespace anchorfs::analysis {
namespace {

// Resolution runs on every refresh and the cache key reads the same inputs: warn once per
// (path, size) rather than every time.
sync::Mutex warned_mutex;
std::set<std::pair<std::string, uint64_t>> warned GUARDED_BY(warned_mutex);

bool first_warning(const std::string& path, uint64_t size) {
  const sync::MutexLock lock(warned_mutex);
  return warned.emplace(path, size).second;
}

}  // namespace

SourceBytes read_resolution_input(std::string_view root, std::string_view path) {
  SourceBytes input = read_source(std::string(root), std::string(path), kMaxResolutionInputBytes,
                                  kMaxResolutionInputBytes);
  if (!input.ok && input.too_large && first_warning(std::string(path), input.size)) {
    std::fprintf(stderr,
                 "anchorfs: warning: %.*s: %llu bytes, over the %zu MiB bound of resolution "
                 "inputs; ignored\n",
                 static_cast<int>(path.size()), path.data(),
                 static_cast<unsigned long long>(input.size), kMaxResolutionInputBytes >> 20);
  }
  return input;
}

}  // namespace anchorfs::analysis
