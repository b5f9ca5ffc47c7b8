// A per-thread bump arena holding everything tree-sitter allocates for one file: parser, tree,
// cursors.
#pragma once

#include <sanitizer/asan_interface.h>

#include <cstddef>
#include <cstdint>

#include "analysis/arena_chunks.h"

struct TSParser;

namespace anchorfs::analysis {

// While alive, what tree-sitter allocates on this thread comes from the thread's arena: a bump
// pointer through runs of 2 MiB chunks taken from a process-wide pool (analysis/arena_chunks.h),
// blocks of whole 8-byte words with no header (a header per block was 7.9 % of sympy's trees,
// every node being one block). Freeing a block gives it back only when it is the most recent one
// (so a growing array's realloc grows in place); the tree is never deleted node by node
// (ts_tree_delete was ~5 % of a cold sympy mount's CPU) but dropped with the scope's chunks when
// it ends. The chunks go back to the pool with their pages, so the next file's parse on any
// thread reuses them instead of faulting fresh zeroed pages, until release_parse_arena_pages
// returns the pages of the chunks no scope holds.
//
// The scope makes its own parser in the arena: a parser kept across files would hold pooled
// subtrees and stack nodes from the arena past its reset. Nothing made in the scope may be used
// after it (under ASan the reset memory is poisoned). Scopes on one thread nest like a stack: an
// inner one (a parse begun while another file's tree is alive, e.g. a task stolen while waiting)
// gives back only what it allocated, so the outer file's tree stays intact.
class ParseArena {
 public:
  ParseArena();
  ~ParseArena();
  ParseArena(const ParseArena&) = delete;
  ParseArena& operator=(const ParseArena&) = delete;

  TSParser* parser() const { return parser_; }

 private:
  TSParser* parser_;
  // Where this scope's memory begins: the thread's run, bump and used bytes when it opened.
  char* mark_run_;
  char* mark_bump_;
  uint64_t mark_used_;
  bool outer_in_scope_;  // whether an enclosing scope was open on this thread
};

// Returns the pages of the pooled chunks no scope holds to the system: after an analysis's
// parse, so that the process keeps none while the mount serves.
void release_parse_arena_pages();

namespace arena_hooks {

// The arena bytes a request of n takes: whole words, and one for an empty request, so that no two
// live blocks share an address.
constexpr size_t block_bytes(size_t n) {
  return n == 0 ? 8 : (n + 7) & ~size_t{7};
}

namespace detail {
// One thread's arena. Here rather than in parse_arena.cpp so that the hooks' checks and the bump
// inline into the allocator hooks: as calls they were 1.3 % of a TypeScript bundle's analysis
// (four per tree-sitter allocation).
struct Arena {
  char* run = nullptr;   // the run of chunks blocks come from; null outside every scope
  char* end = nullptr;   // its end
  char* bump = nullptr;  // where the next block begins
  char* last = nullptr;  // the most recent block, which ends at bump; null once given back
  uint64_t used_before = 0;  // bytes of the blocks in the thread's earlier runs, still held
  bool in_scope = false;
};
// Trivially destructible and constant-initialised, so it is read without a TLS guard.
extern constinit thread_local Arena t_arena;
// allocate() when the current run is too short: continues in a new run first; null when the
// reservation is spent.
void* allocate_in_new_run(size_t n);
}  // namespace detail

// The tree-sitter allocator hooks (parse_budget.cpp) route through these: allocation while this
// thread's arena is in scope, and any free or realloc of a block from this thread's arena.
inline bool in_scope() {
  return detail::t_arena.in_scope;
}
// Any thread's: a block of a scope on another thread is never resized or freed here, but a heap
// block must never be taken for arena memory.
inline bool owns(const void* p) {
  return p >= arena_chunks::pool_begin.load(std::memory_order_relaxed) &&
         p < arena_chunks::pool_end.load(std::memory_order_relaxed);
}
inline void* allocate(size_t n) {
  detail::Arena& a = detail::t_arena;
  const size_t need = block_bytes(n);
  if (need > static_cast<size_t>(a.end - a.bump)) return detail::allocate_in_new_run(n);
  char* block = a.bump;
  if (block == nullptr) __builtin_unreachable();  // in a scope the arena holds a run
  a.bump += need;
  a.last = block;
  ASAN_UNPOISON_MEMORY_REGION(block, n);
  return block;
}
void* reallocate(void* p, size_t n);  // p owned by this thread's arena, or null
void release(void* p);                // p owned by this thread's arena
// A copy of arena block p (whose scope may have ended) in a heap block of n bytes: its bytes, as
// far as its run reaches (a block's own length is not kept).
void* copy_to_heap(const void* p, size_t n);
inline uint64_t used() {  // bytes of this thread's arena in use
  const detail::Arena& a = detail::t_arena;
  return a.used_before + static_cast<uint64_t>(a.bump - a.run);
}
}  // namespace arena_hooks

}  // namespace anchorfs::analysis
