// The per-thread bump arena for one file's tree-sitter memory, and its allocator entry points.
#include "analysis/parse_arena.h"

#include <sanitizer/asan_interface.h>
#include <sys/mman.h>
#include <tree_sitter/api.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace anchorfs::analysis {

// Unmapper frees the reservation when the thread ends.
constinit thread_local arena_hooks::detail::Arena arena_hooks::detail::t_arena;

namespace {

// Address space a thread reserves once (not memory: pages are committed as the arena first
// reaches them), the largest of these the process may map: under an address-space limit
// (`ulimit -v`, RLIMIT_AS) a smaller one. A parse is cancelled near kMaxParseBytes (384 MiB), well
// within the smallest.
constexpr size_t kReservations[] = {size_t{16} << 30, size_t{4} << 30, size_t{1} << 30};
constexpr size_t kCommitStep = size_t{32} << 20;
constexpr size_t kHugePage = size_t{2} << 20;

using arena_hooks::detail::Arena;
using arena_hooks::block_bytes;
using arena_hooks::detail::t_arena;

struct Unmapper {
  ~Unmapper() {
    if (t_arena.reservation != nullptr) {
      // The next mapping at these addresses must not inherit the poison.
      ASAN_UNPOISON_MEMORY_REGION(t_arena.base, t_arena.committed - t_arena.base);
      munmap(t_arena.reservation, t_arena.reserved);
    }
    t_arena = Arena{};
  }
};

void reserve(Arena& a) {
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
  // fewer faults while the arena first grows, fewer TLB misses in every walk of a tree. The
  // arena starts at the reservation's first 2 MiB boundary, so that its huge pages line up.
  char* aligned = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(p) + kHugePage - 1) &
                                          ~uintptr_t{kHugePage - 1});
  madvise(aligned, reserved - kHugePage, MADV_HUGEPAGE);
  thread_local Unmapper unmapper;
  (void)unmapper;
  a.reservation = static_cast<char*>(p);
  a.reserved = reserved;
  a.base = a.committed = a.bump = a.high_water = aligned;
}

// Makes [bump, bump + need) writable; false when the reservation is spent.
[[gnu::noinline]] bool commit(Arena& a, size_t need) {
  const size_t usable = a.reserved - kHugePage;
  const size_t used = static_cast<size_t>(a.bump - a.base);
  if (need > usable - used) return false;
  size_t target = static_cast<size_t>(a.committed - a.base);
  while (target < used + need) target += kCommitStep;
  if (target > usable) target = usable;
  const size_t grow = target - static_cast<size_t>(a.committed - a.base);
  if (mprotect(a.committed, grow, PROT_READ | PROT_WRITE) != 0) return false;
  ASAN_POISON_MEMORY_REGION(a.committed, grow);
  a.committed += grow;
  return true;
}

// How many of the `n` bytes from p (an arena block that is not the last) a moved copy takes: all
// that lie below the bump, i.e. the block's own bytes and maybe later blocks' (realloc leaves the
// bytes past the old length unspecified). Under ASan only up to the block's poisoned padding or
// the next freed range, which a copy must not read.
// gcc defines a macro under ASan, clang a feature.
#if defined(__SANITIZE_ADDRESS__)
#define ANCHORFS_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ANCHORFS_ARENA_ASAN 1
#endif
#endif

size_t bytes_to_move(const Arena& a, const char* p, size_t n) {
  size_t bytes = std::min(n, static_cast<size_t>(a.bump - p));
#ifdef ANCHORFS_ARENA_ASAN
  if (const void* poisoned = __asan_region_is_poisoned(const_cast<char*>(p), bytes)) {
    bytes = static_cast<size_t>(static_cast<const char*>(poisoned) - p);
  }
#endif
  return bytes;
}

}  // namespace

ParseArena::ParseArena() {
  Arena& a = t_arena;
  if (a.base == nullptr) reserve(a);
  mark_ = a.bump;
  a.last = nullptr;  // an enclosing scope's last block is not this scope's to grow or give back
  outer_in_scope_ = a.in_scope;
  a.in_scope = true;
  parser_ = ts_parser_new();
}

ParseArena::~ParseArena() {
  Arena& a = t_arena;
  ASAN_POISON_MEMORY_REGION(mark_, static_cast<size_t>(a.high_water - mark_));
  a.bump = mark_;
  a.last = nullptr;
  a.in_scope = outer_in_scope_;
  // Every page stays for the next file, a large file's too: the parse's threads end with it and
  // the calling thread returns its pages then (release_parse_arena_pages). Trimming to 64 MiB
  // after each large file made every following bundle fault and zero its pages afresh
  // (TypeScript's 6-11.5 MB bundles: 130-190 MB of tree each, a fifth of a cold mount's CPU in
  // clear_page_erms; docs/benchmarks.md, session 13).
}

void release_parse_arena_pages() {
  Arena& a = t_arena;
  if (a.base == nullptr || a.in_scope || a.high_water == a.base) return;
  madvise(a.base, static_cast<size_t>(a.high_water - a.base), MADV_DONTNEED);
  a.high_water = a.base;
}

namespace arena_hooks {

void* detail::allocate_committing(size_t n) {
  if (!commit(t_arena, block_bytes(n))) return nullptr;
  return allocate(n);
}

void* copy_to_heap(const void* p, size_t n) {
  const Arena& a = t_arena;
  const char* const data = static_cast<const char*>(p);
  void* copy = std::malloc(n);
  if (copy != nullptr) std::memcpy(copy, data, std::min(n, static_cast<size_t>(a.committed - data)));
  return copy;
}

void* reallocate(void* p, size_t n) {
  if (p == nullptr) return allocate(n);
  Arena& a = t_arena;
  char* const data = static_cast<char*>(p);
  if (data == a.last) {
    // The last block grows (or shrinks) where it is.
    const size_t have = static_cast<size_t>(a.bump - data);
    const size_t want = block_bytes(n);
    if (want <= have || want - have <= static_cast<size_t>(a.committed - a.bump) ||
        commit(a, want - have)) {
      ASAN_POISON_MEMORY_REGION(data, have);
      ASAN_UNPOISON_MEMORY_REGION(data, n);
      a.bump = data + want;
      if (a.bump > a.high_water) a.high_water = a.bump;
      return p;
    }
    return nullptr;
  }
  const size_t bytes = bytes_to_move(a, data, n);
  void* moved = allocate(n);
  if (moved != nullptr) std::memcpy(moved, p, bytes);
  return moved;
}

void release(void* p) {
  Arena& a = t_arena;
  if (!a.in_scope) return;  // the arena was reset under it already
  char* const data = static_cast<char*>(p);
  if (data == a.last) {
    // Only the one most recent block is known: a free of the block below it stays (tree-sitter
    // frees few blocks during a parse, 0.9 % of sympy's trees' bytes).
    ASAN_POISON_MEMORY_REGION(data, static_cast<size_t>(a.bump - data));
    a.bump = data;
    a.last = nullptr;
  }
}

}  // namespace arena_hooks
}  // namespace anchorfs::analysis
