// A counting allocator for tree-sitter, and the per-parse budget that cancels a parse over it.
#include "analysis/parse_budget.h"

#include <malloc.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "analysis/parse_arena.h"

namespace anchorfs::analysis {
namespace {

// Bytes tree-sitter allocated minus those it freed on this thread while a budget was armed. Only
// a budget reads it, and only as a difference from its value when armed, so outside a budget
// nothing is counted: the size lookup (malloc_usable_size, a radix-tree walk in jemalloc) was
// 1.6 % of a Go cold mount's CPU samples, and most of its calls came from freeing trees and
// cursors after the parse.
thread_local int64_t t_live = 0;
thread_local int64_t t_limit = std::numeric_limits<int64_t>::max();
thread_local size_t* t_cancel = nullptr;
thread_local int64_t t_peak = 0;  // the most t_live held while a budget is armed

bool counting() { return t_cancel != nullptr; }

void account(int64_t delta) {
  t_live += delta;
  if (t_live > t_peak) t_peak = t_live;
  if (t_live > t_limit) *t_cancel = 1;
}

int64_t usable(void* p) {
  return static_cast<int64_t>(malloc_usable_size(p));
}

// In a ParseArena's scope the budget counts the arena's bytes: what the file's tree-sitter memory
// takes, blocks freed under the last one included (the arena does not reuse them).
int64_t arena_used() {
  return static_cast<int64_t>(arena_hooks::used());
}

void* counted_malloc(size_t n) {
  if (arena_hooks::in_scope()) {
    void* p = arena_hooks::allocate(n);
    if (p == nullptr) std::abort();
    if (counting()) account(static_cast<int64_t>(arena_hooks::block_bytes(n)));
    return p;
  }
  void* p = std::malloc(n);
  if (p != nullptr && counting()) account(usable(p));
  return p;
}

void* counted_calloc(size_t count, size_t n) {
  if (arena_hooks::in_scope()) {
    // Arena pages are reused from file to file: not zero.
    void* p = counted_malloc(count * n);
    std::memset(p, 0, count * n);
    return p;
  }
  void* p = std::calloc(count, n);
  if (p != nullptr && counting()) account(usable(p));
  return p;
}

void* counted_realloc(void* old, size_t n) {
  if (arena_hooks::in_scope() && (old == nullptr || arena_hooks::owns(old))) {
    const int64_t before = arena_used();
    void* p = arena_hooks::reallocate(old, n);
    if (p == nullptr) std::abort();
    if (counting()) account(arena_used() - before);
    return p;
  }
  if (old != nullptr && arena_hooks::owns(old)) {
    // A block from an arena no longer in scope (none is resized so): copied out to the heap.
    return arena_hooks::copy_to_heap(old, n);
  }
  if (!counting()) return std::realloc(old, n);
  const int64_t before = old == nullptr ? 0 : usable(old);
  void* p = std::realloc(old, n);
  if (p != nullptr) account(usable(p) - before);
  return p;
}

void counted_free(void* p) {
  if (p == nullptr) return;
  if (arena_hooks::owns(p)) {
    const int64_t before = arena_used();
    arena_hooks::release(p);
    if (counting()) account(arena_used() - before);
    return;
  }
  if (counting()) account(-usable(p));
  std::free(p);
}

// Installed before main, so before any thread exists and before tree-sitter allocates anything.
[[maybe_unused]] const bool kCountingAllocator = [] {
  ts_set_allocator(counted_malloc, counted_calloc, counted_realloc, counted_free);
  return true;
}();

}  // namespace

uint64_t parse_budget_bytes(uint64_t source_bytes) {
  const uint64_t proportional = source_bytes > kMaxParseBytes / kParseBytesPerSourceByte
                                    ? kMaxParseBytes
                                    : kMinParseBytes + source_bytes * kParseBytesPerSourceByte;
  return std::min(proportional, kMaxParseBytes);
}

ParseBudget::ParseBudget(TSParser* parser, uint64_t budget) : parser_(parser) {
  // t_live stays far from the int64 limits (it counts bytes), so 2^62 of headroom is safe.
  t_limit = t_live + static_cast<int64_t>(std::min(budget, uint64_t{1} << 62));
  base_ = t_live;
  t_peak = t_live;
  t_cancel = &cancel_;
  ts_parser_set_cancellation_flag(parser_, &cancel_);
}

uint64_t ParseBudget::peak_bytes() const {
  return static_cast<uint64_t>(std::max<int64_t>(t_peak - base_, 0));
}

ParseBudget::~ParseBudget() {
  ts_parser_set_cancellation_flag(parser_, nullptr);
  t_cancel = nullptr;
  t_limit = std::numeric_limits<int64_t>::max();
}

namespace {

// Brackets opened and closed in `block`: branch-free, so the compiler vectorises it.
std::pair<int64_t, int64_t> brackets_in(std::string_view block) {
  int64_t opened = 0;
  int64_t closed = 0;
  for (const char c : block) {
    opened += static_cast<int64_t>((c == '(') | (c == '[') | (c == '{'));
    closed += static_cast<int64_t>((c == ')') | (c == ']') | (c == '}'));
  }
  return {opened, closed};
}

// Whether more than kMaxOpenBrackets are open at once, bracket by bracket (a close with none open
// is ignored).
bool exceeds_bound_in_order(std::string_view bytes) {
  int64_t open = 0;
  for (const char c : bytes) {
    if (c == '(' || c == '[' || c == '{') {
      if (++open > kMaxOpenBrackets) return true;
    } else if ((c == ')' || c == ']' || c == '}') && open > 0) {
      --open;
    }
  }
  return false;
}

}  // namespace

bool nests_too_deep_to_parse(std::string_view bytes) {
  // Nearly every file is shorter than the bound. A longer one is first bounded block by block
  // from counts alone (branch-free): the depth at a block's end is at most the larger of (the
  // bound at its start + its opens - its closes) and its opens (a run starting inside it), and
  // within it at most the bound at its start + its opens. Only a file whose bound crosses the
  // limit gets the ordered scan, which mispredicts on every bracket: 18 instructions a byte, 1.7 %
  // of a cold TypeScript bundle's (generated bundles are long and bracket-dense).
  if (bytes.size() <= static_cast<uint64_t>(kMaxOpenBrackets)) return false;
  constexpr size_t kBlock = 4096;
  int64_t bound = 0;  // on the depth at the current block's start
  for (size_t at = 0; at < bytes.size(); at += kBlock) {
    const auto [opened, closed] = brackets_in(bytes.substr(at, kBlock));
    if (bound + opened > kMaxOpenBrackets) return exceeds_bound_in_order(bytes);
    bound = std::max(bound + opened - closed, opened);
  }
  return false;
}

}  // namespace anchorfs::analysis
