// A per-thread bump arena holding everything tree-sitter allocates for one file: parser, tree,
// cursors.
#pragma once

#include <sanitizer/asan_interface.h>

#include <cstddef>
#include <cstdint>

struct TSParser;

namespace anchorfs::analysis {

// While alive, what tree-sitter allocates on this thread comes from the thread's arena: a bump
// pointer in one reserved address range, blocks of whole 8-byte words with no header (a header
// per block was 7.9 % of sympy's trees, every node being one block). Freeing a block gives it
// back only when it is the most recent one (so a growing array's realloc grows in place);
// the tree is never deleted node by node (ts_tree_delete was ~5 % of a cold sympy mount's CPU)
// but dropped with the whole arena when the scope ends. The arena's pages stay mapped for the
// next file, so tree-sitter stops faulting fresh zeroed pages after the first files, until the
// thread ends or release_parse_arena_pages returns them.
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
  char* mark_;           // where this scope's memory begins: the arena's bump when it opened
  bool outer_in_scope_;  // whether an enclosing scope was open on this thread
};

// Returns this thread's arena pages to the system (outside a scope): after an analysis's parse,
// so that the thread that ran it keeps none while the mount serves. The parse's other threads
// end with the parse, and their arenas with them.
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
  char* reservation = nullptr;  // what mmap gave; base is its first 2 MiB boundary
  size_t reserved = 0;          // its length
  char* base = nullptr;         // [base, committed) is readable and writable
  char* committed = nullptr;
  char* bump = nullptr;        // where the next block begins
  char* last = nullptr;        // the most recent block, which ends at bump; null once given back
  char* high_water = nullptr;  // the most bump reached since the pages were last returned
  bool in_scope = false;
};
// Trivially destructible and constant-initialised, so it is read without a TLS guard.
extern constinit thread_local Arena t_arena;
// allocate() when the committed pages are too few: commits more first; null when the
// reservation is spent.
void* allocate_committing(size_t n);
}  // namespace detail

// The tree-sitter allocator hooks (parse_budget.cpp) route through these: allocation while this
// thread's arena is in scope, and any free or realloc of a block from this thread's arena.
inline bool in_scope() {
  return detail::t_arena.in_scope;
}
inline bool owns(const void* p) {
  const detail::Arena& a = detail::t_arena;
  return p >= a.base && p < a.committed;
}
inline void* allocate(size_t n) {
  detail::Arena& a = detail::t_arena;
  const size_t need = block_bytes(n);
  if (need > static_cast<size_t>(a.committed - a.bump)) return detail::allocate_committing(n);
  char* block = a.bump;
  if (block == nullptr) __builtin_unreachable();  // in a scope the arena is reserved
  a.bump += need;
  a.last = block;
  if (a.bump > a.high_water) a.high_water = a.bump;
  ASAN_UNPOISON_MEMORY_REGION(block, n);
  return block;
}
void* reallocate(void* p, size_t n);  // p owned by this thread's arena, or null
void release(void* p);                // p owned by this thread's arena
// A copy of arena block p (whose scope may have ended) in a heap block of n bytes: its bytes, as
// far as the arena's committed pages reach (a block's own length is not kept).
void* copy_to_heap(const void* p, size_t n);
inline uint64_t used() {  // bytes of this thread's arena in use
  return static_cast<uint64_t>(detail::t_arena.bump - detail::t_arena.base);
}
}  // namespace arena_hooks

}  // namespace anchorfs::analysis
