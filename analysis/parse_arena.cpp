// The per-thread bump arena for one file's tree-sitter memory, and its allocator entry points.
#include "analysis/parse_arena.h"

#include <sanitizer/asan_interface.h>
#include <tree_sitter/api.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace anchorfs::analysis {

constinit thread_local arena_hooks::detail::Arena arena_hooks::detail::t_arena;

namespace {

using arena_hooks::block_bytes;
using arena_hooks::detail::Arena;
using arena_hooks::detail::t_arena;

// Continues the thread's arena in a fresh run of at least `bytes`, recorded as following the
// current one (the scope gives both back); false when the pool's reservation is spent.
[[gnu::noinline]] bool open_run(Arena& a, size_t bytes) {
  const arena_chunks::Run run = arena_chunks::take(bytes, a.run);
  if (run.begin == nullptr) return false;
  if (a.run != nullptr) a.used_before += static_cast<uint64_t>(a.bump - a.run);
  a.run = a.bump = run.begin;
  a.end = run.end;
  a.last = nullptr;
  return true;
}

// How many of the `n` bytes from p (an arena block of this thread that is not the last) a moved
// copy takes: all that lie below the bump, or the end of p's run when p is in an earlier run,
// i.e. the block's own bytes and maybe later blocks' (realloc leaves the bytes past the old
// length unspecified). Under ASan only up to the block's poisoned padding or the next freed
// range, which a copy must not read.
// gcc defines a macro under ASan, clang a feature.
#if defined(__SANITIZE_ADDRESS__)
#define ANCHORFS_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ANCHORFS_ARENA_ASAN 1
#endif
#endif

size_t bytes_to_move(const Arena& a, const char* p, size_t n) {
  const char* const limit = p >= a.run && p < a.end ? a.bump : arena_chunks::run_end(p);
  size_t bytes = std::min(n, static_cast<size_t>(limit - p));
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
  outer_in_scope_ = a.in_scope;
  // Outside every scope the thread holds no chunk: it takes one (the pool's lowest free, most
  // likely the one the thread's last file gave back). An inner scope goes on in the outer's run.
  if (!outer_in_scope_ && !open_run(a, arena_chunks::kChunkBytes)) {
    static constexpr char kMessage[] = "anchorfs: the parse arenas' reservation is spent\n";
    (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    std::abort();
  }
  mark_run_ = a.run;
  mark_bump_ = a.bump;
  mark_used_ = a.used_before;
  a.last = nullptr;  // an enclosing scope's last block is not this scope's to grow or give back
  a.in_scope = true;
  parser_ = ts_parser_new();
}

ParseArena::~ParseArena() {
  Arena& a = t_arena;
  // The runs this scope opened go back to the pool, newest first, poisoned.
  while (a.run != mark_run_) {
    ASAN_POISON_MEMORY_REGION(a.run, static_cast<size_t>(a.end - a.run));
    a.run = const_cast<char*>(arena_chunks::give_back(a.run));
    a.end = arena_chunks::run_end(a.run);
  }
  ASAN_POISON_MEMORY_REGION(mark_bump_, static_cast<size_t>(a.end - mark_bump_));
  a.bump = mark_bump_;
  a.used_before = mark_used_;
  a.last = nullptr;
  a.in_scope = outer_in_scope_;
  if (!outer_in_scope_) {
    // The outermost scope gives back its first run too: between files the thread holds nothing,
    // so a chunk a large tree touched serves whichever thread parses next, and a thread that
    // ends leaves nothing behind. Its pages stay until release_parse_arena_pages (trimming after
    // each large file made every following TypeScript bundle fault and zero 130-190 MB afresh,
    // a fifth of a cold mount's CPU in clear_page_erms; docs/benchmarks.md, session 13).
    arena_chunks::give_back(a.run);
    a = Arena{};
  }
}

void release_parse_arena_pages() {
  arena_chunks::release_free_pages();
}

namespace arena_hooks {

void* detail::allocate_in_new_run(size_t n) {
  if (!open_run(t_arena, block_bytes(n))) return nullptr;
  return allocate(n);
}

void* copy_to_heap(const void* p, size_t n) {
  const char* const data = static_cast<const char*>(p);
  void* copy = std::malloc(n);
  if (copy != nullptr) {
    std::memcpy(copy, data, std::min(n, static_cast<size_t>(arena_chunks::run_end(p) - data)));
  }
  return copy;
}

void* reallocate(void* p, size_t n) {
  if (p == nullptr) return allocate(n);
  Arena& a = t_arena;
  char* const data = static_cast<char*>(p);
  if (data == a.last) {
    // The last block grows (or shrinks) where it is, as far as its run reaches.
    const size_t have = static_cast<size_t>(a.bump - data);
    const size_t want = block_bytes(n);
    if (want <= have || want - have <= static_cast<size_t>(a.end - a.bump)) {
      ASAN_POISON_MEMORY_REGION(data, have);
      ASAN_UNPOISON_MEMORY_REGION(data, n);
      a.bump = data + want;
      return p;
    }
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
