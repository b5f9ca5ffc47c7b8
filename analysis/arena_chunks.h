// The process-wide pool of 2 MiB chunks the parse arenas take their memory from.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace anchorfs::analysis::arena_chunks {

// One huge page: a chunk's pages are zeroed by the kernel once, on first touch, and then serve
// whichever thread's parse takes the chunk next. Pooling chunks rather than whole per-thread
// arenas is what lets a thread's small tree use pages another thread's large tree left behind
// while that thread goes on with smaller files (docs/benchmarks.md, session 16).
inline constexpr size_t kChunkBytes = size_t{2} << 20;

// Consecutive chunks held by one scope: [begin, end), end - begin a multiple of kChunkBytes.
struct Run {
  char* begin = nullptr;
  char* end = nullptr;
};

// Every chunk lies in [pool_begin, pool_end): a pointer outside is not arena memory. Set once the
// reservation is made, and pool_end grows as chunks are first committed; read without a lock by
// the allocator hooks.
extern constinit std::atomic<const char*> pool_begin;
extern constinit std::atomic<const char*> pool_end;

// The lowest free run of chunks holding `bytes` (at least one chunk), recorded as following
// `previous` (a run the caller holds, or null); lowest so that the chunks already touched are
// reused before fresh ones. A null run when the reservation is spent. Under ASan it comes
// poisoned.
Run take(size_t bytes, const char* previous);
// Gives back run `begin` (from take) and returns the run it was recorded as following.
const char* give_back(const char* begin);
// The end of the run that holds p (a byte of a run its caller holds).
char* run_end(const void* p);
// Returns the pages of every free chunk to the system; chunks in use keep theirs.
void release_free_pages();

}  // namespace anchorfs::analysis::arena_chunks
