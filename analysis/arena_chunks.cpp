// The process-wide pool of 2 MiB chunks: one address reservation, chunks taken lowest first.
#include "analysis/arena_chunks.h"

#include <sanitizer/asan_interface.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "sync/mutex.h"

namespace anchorfs::analysis::arena_chunks {

constinit std::atomic<const char*> pool_begin{nullptr};
constinit std::atomic<const char*> pool_end{nullptr};

namespace {

// Address space the process reserves once (not memory: chunks are committed as the pool first
// reaches them), the largest of these it may map: under an address-space limit (`ulimit -v`,
// RLIMIT_AS) a smaller one. A parse is cancelled near kMaxParseBytes (384 MiB), so even the
// smallest holds two threads' largest trees.
constexpr size_t kReservations[] = {size_t{16} << 30, size_t{4} << 30, size_t{1} << 30};
constexpr size_t kCommitChunks = (size_t{32} << 20) / kChunkBytes;  // mprotect calls are few
constexpr uint32_t kNone = UINT32_MAX;

sync::Mutex g_mutex;
char* g_base GUARDED_BY(g_mutex) = nullptr;  // the first chunk: a 2 MiB boundary
size_t g_chunks GUARDED_BY(g_mutex) = 0;     // how many the reservation holds
size_t g_committed GUARDED_BY(g_mutex) = 0;  // chunks [0, g_committed) are readable and writable
// A bit per chunk (the last word's bits past g_chunks set, so never free). Plain arrays, never
// freed: no destructor at exit races a thread still parsing.
uint64_t* g_in_use GUARDED_BY(g_mutex) = nullptr;
uint64_t* g_touched GUARDED_BY(g_mutex) = nullptr;  // handed out since its pages were released
// Per chunk, written under the mutex when its run is taken and read after that by the run's
// holder alone (so without the mutex): the index one past the run, and (for a run's first chunk)
// the first chunk of the run it follows, or kNone.
uint32_t* g_run_end = nullptr;
uint32_t* g_previous = nullptr;

bool bit(const uint64_t* bits, size_t i) {
  return ((bits[i / 64] >> (i % 64)) & 1) != 0;
}
void set_bits(uint64_t* bits, size_t begin, size_t end, bool on) {
  for (size_t i = begin; i < end; ++i) {
    const uint64_t mask = uint64_t{1} << (i % 64);
    bits[i / 64] = on ? (bits[i / 64] | mask) : (bits[i / 64] & ~mask);
  }
}

void reserve() REQUIRES(g_mutex) {
  void* p = MAP_FAILED;
  size_t reserved = 0;
  for (const size_t bytes : kReservations) {
    p = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      reserved = bytes;
      break;
    }
  }
  if (p == MAP_FAILED) {
    static constexpr char kMessage[] =
        "anchorfs: cannot reserve 1 GiB of address space for parsing (ulimit -v too low?)\n";
    (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    std::abort();
  }
  // Huge pages, as jemalloc's thp:always gave tree-sitter before (cli/jemalloc_options.cpp):
  // fewer faults while a tree first grows, fewer TLB misses in every walk of it. Chunks start at
  // the reservation's first 2 MiB boundary, so that each is one huge page.
  char* aligned = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(p) + kChunkBytes - 1) &
                                          ~uintptr_t{kChunkBytes - 1});
  madvise(aligned, reserved - kChunkBytes, MADV_HUGEPAGE);
  g_chunks = (reserved - kChunkBytes) / kChunkBytes;
  const size_t words = (g_chunks + 63) / 64;
  g_in_use = new uint64_t[words]();
  g_touched = new uint64_t[words]();
  set_bits(g_in_use, g_chunks, words * 64, true);
  g_run_end = new uint32_t[g_chunks];
  g_previous = new uint32_t[g_chunks];
  g_base = aligned;
  pool_begin.store(aligned, std::memory_order_relaxed);
  pool_end.store(aligned, std::memory_order_relaxed);
}

std::optional<size_t> lowest_free_run(size_t count) REQUIRES(g_mutex) {
  if (count == 1) {
    for (size_t w = 0; w * 64 < g_chunks; ++w) {
      if (~g_in_use[w] != 0) return w * 64 + static_cast<size_t>(__builtin_ctzll(~g_in_use[w]));
    }
    return std::nullopt;
  }
  size_t length = 0;
  for (size_t i = 0; i < g_chunks; ++i) {
    length = bit(g_in_use, i) ? 0 : length + 1;
    if (length == count) return i + 1 - count;
  }
  return std::nullopt;
}

// Makes chunks [0, end) readable and writable; false when the system refuses.
bool commit(size_t end) REQUIRES(g_mutex) {
  const size_t target = std::min(g_chunks, std::max(end, g_committed + kCommitChunks));
  if (mprotect(g_base + g_committed * kChunkBytes, (target - g_committed) * kChunkBytes,
               PROT_READ | PROT_WRITE) != 0) {
    return false;
  }
  g_committed = target;
  pool_end.store(g_base + target * kChunkBytes, std::memory_order_release);
  return true;
}

}  // namespace

Run take(size_t bytes, const char* previous) {
  const size_t count = std::max<size_t>(1, (bytes + kChunkBytes - 1) / kChunkBytes);
  const sync::MutexLock lock(g_mutex);
  if (g_base == nullptr) reserve();
  const std::optional<size_t> first = lowest_free_run(count);
  if (!first || (*first + count > g_committed && !commit(*first + count))) return {};
  set_bits(g_in_use, *first, *first + count, true);
  set_bits(g_touched, *first, *first + count, true);
  for (size_t i = *first; i < *first + count; ++i) g_run_end[i] = static_cast<uint32_t>(*first + count);
  g_previous[*first] =
      previous == nullptr ? kNone : static_cast<uint32_t>((previous - g_base) / kChunkBytes);
  const Run run{g_base + *first * kChunkBytes, g_base + (*first + count) * kChunkBytes};
  ASAN_POISON_MEMORY_REGION(run.begin, run.end - run.begin);
  return run;
}

const char* give_back(const char* begin) {
  const sync::MutexLock lock(g_mutex);
  const auto first = static_cast<size_t>(begin - g_base) / kChunkBytes;
  set_bits(g_in_use, first, g_run_end[first], false);
  const uint32_t previous = g_previous[first];
  return previous == kNone ? nullptr : g_base + size_t{previous} * kChunkBytes;
}

char* run_end(const void* p) {
  // The holder's own run: its entries were written under the mutex the holder took.
  char* const base = const_cast<char*>(pool_begin.load(std::memory_order_relaxed));
  const auto chunk = static_cast<size_t>(static_cast<const char*>(p) - base) / kChunkBytes;
  return base + size_t{g_run_end[chunk]} * kChunkBytes;
}

void release_free_pages() {
  const sync::MutexLock lock(g_mutex);
  size_t i = 0;
  while (i < g_committed) {
    if (bit(g_in_use, i) || !bit(g_touched, i)) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < g_committed && !bit(g_in_use, end) && bit(g_touched, end)) ++end;
    madvise(g_base + i * kChunkBytes, (end - i) * kChunkBytes, MADV_DONTNEED);
    set_bits(g_touched, i, end, false);
    i = end;
  }
}

}  // namespace anchorfs::analysis::arena_chunks
