// The resolver's debug trace: the one place that reads ANCHORFS_DEBUG_ROUNDS.
#include "analysis/python/resolve_trace.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace anchorfs::analysis::python {
namespace {

double thread_cpu_seconds() {
  timespec cpu{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
  return static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) * 1e-9;
}

unsigned long resident_mb() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * 4096 / (1024 * 1024) : 0;
}

}  // namespace

bool resolve_trace_enabled() {
  static const bool enabled = std::getenv("ANCHORFS_DEBUG_ROUNDS") != nullptr;
  return enabled;
}

void resolve_trace(const char* format, ...) {
  if (!resolve_trace_enabled()) return;
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, " cpu %.2f rss %lu MB\n", thread_cpu_seconds(), resident_mb());
}

}  // namespace anchorfs::analysis::python
