// A per-thread bump arena holding everything tree-sitter allocates for one file: parser, tree,
// cursors.
#pragma once

#include <cstddef>
#include <cstdint>

struct TSParser;

namespace anchorfs::analysis {

// While alive, what tree-sitter allocates on this thread comes from the thread's arena: a bump
// pointer in one reserved address range, 8-byte blocks behind an 8-byte size header. Freeing a
// block gives it back only when it is the last one (so a growing array's realloc grows in place);
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
// The tree-sitter allocator hooks (parse_budget.cpp) route through these: allocation while this
// thread's arena is in scope, and any free or realloc of a block from this thread's arena.
bool in_scope();
bool owns(const void* p);
void* allocate(size_t n);
void* reallocate(void* p, size_t n);  // p owned by this thread's arena, or null
void release(void* p);                // p owned by this thread's arena
uint64_t size_of(const void* p);      // the block's requested size
uint64_t used();                      // bytes of this thread's arena in use
}  // namespace arena_hooks

}  // namespace anchorfs::analysis
