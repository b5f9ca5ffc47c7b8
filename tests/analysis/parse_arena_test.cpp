// One file's tree-sitter memory comes from the thread's arena and goes with it in one step.
#include "analysis/parse_arena.h"

#include <gtest/gtest.h>
#include <sanitizer/asan_interface.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <tree_sitter/api.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "analysis/code/syntax.h"
#include "analysis/parse_budget.h"
#include "analysis/python/grammar.h"
#include "tests/support/sanitizer.h"

// tree-sitter's allocator hooks (alloc.c): what its own allocations call.
extern "C" {
extern void* (*ts_current_malloc)(size_t);
extern void* (*ts_current_realloc)(void*, size_t);
extern void (*ts_current_free)(void*);
}

namespace anchorfs::analysis {
namespace {

const std::string kSource =
    "import os\n\nclass A:\n    def f(self, x):\n        return os.path.join(x, 'y')\n";

TEST(ParseArena, ATreeParsedInScopeLivesInTheArenaAndGoesWithIt) {
  {
    const ParseArena arena;
    EXPECT_TRUE(arena_hooks::owns(arena.parser()));
    ts_parser_set_language(arena.parser(), tree_sitter_python());
    TSTree* tree = ts_parser_parse_string(arena.parser(), nullptr, kSource.data(),
                                          static_cast<uint32_t>(kSource.size()));
    ASSERT_NE(tree, nullptr);
    EXPECT_TRUE(arena_hooks::owns(tree));
    EXPECT_GT(arena_hooks::used(), kSource.size());
    // A cursor made and deleted in the scope (as the walks do) is arena memory too.
    TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
    EXPECT_TRUE(ts_tree_cursor_goto_first_child(&cursor));
    ts_tree_cursor_delete(&cursor);
    if (test_support::kAddressSanitizer) {
      EXPECT_FALSE(__asan_address_is_poisoned(tree));
    }
    // No ts_tree_delete: the scope's end releases the tree.
  }
  EXPECT_EQ(arena_hooks::used(), 0u);
}

TEST(ParseArena, ReleasedMemoryIsReusedByTheNextFileAndPoisonedUnderAsan) {
  const void* first = nullptr;
  for (int file = 0; file < 3; ++file) {
    const code::ParsedTree tree(tree_sitter_python(), kSource);
    ASSERT_TRUE(tree);
    const void* here = tree.root().tree;
    EXPECT_TRUE(arena_hooks::owns(here));
    // Each file's parse starts from the same empty arena, so it lands where the last one did.
    if (first == nullptr) first = here;
    EXPECT_EQ(here, first);
  }
  if (test_support::kAddressSanitizer) {
    // A read of the last file's tree after its scope is an ASan report, not a silent reuse.
    EXPECT_TRUE(__asan_address_is_poisoned(first));
  }
}

// The tree's S-expression, freed by tree-sitter's own hook (in a scope it is arena memory).
std::string sexp_of(TSNode node) {
  char* text = ts_node_string(node);
  std::string copy(text);
  ts_current_free(text);
  return copy;
}

TEST(ParseArena, AnInnerScopeGivesBackOnlyWhatItAllocated) {
  const code::ParsedTree outer(tree_sitter_python(), kSource);
  ASSERT_TRUE(outer);
  const std::string before = sexp_of(outer.root());
  // Two inner parses in turn: the second would write over the outer tree if the first had
  // reset the whole arena.
  for (const char* inner_source : {"x = [1, 2, 3]\nwhile x:\n    x.pop()\n", "def g(): pass\n"}) {
    const code::ParsedTree inner(tree_sitter_python(), inner_source);
    ASSERT_TRUE(inner);
  }
  EXPECT_TRUE(arena_hooks::in_scope());
  EXPECT_EQ(sexp_of(outer.root()), before);
}

// The process's mapped address space (VmSize), in bytes.
uint64_t mapped_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
  }
  return 0;
}

TEST(ParseArena, AnAddressSpaceLimitGetsASmallerReservationNotACrash) {
  if (test_support::kAddressSanitizer) GTEST_SKIP() << "ASan's shadow and RLIMIT_AS do not mix";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Room for a thread and a 4 GiB reservation, not for 16 GiB: `ulimit -v` in a sandbox.
    const rlimit limit{mapped_bytes() + (uint64_t{6} << 30), mapped_bytes() + (uint64_t{6} << 30)};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
    bool parsed = false;
    std::thread fresh([&] {  // a thread with no arena yet
      const code::ParsedTree tree(tree_sitter_python(), kSource);
      parsed = static_cast<bool>(tree) && ts_node_named_child_count(tree.root()) == 2;
    });
    fresh.join();
    _exit(parsed ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// Whether the page holding p is in memory.
bool resident(const void* p) {
  const uintptr_t page = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{4095};
  unsigned char in_core = 0;
  EXPECT_EQ(mincore(reinterpret_cast<void*>(page), 4096, &in_core), 0);
  return (in_core & 1) != 0;
}

TEST(ParseArena, AnEndedAnalysisReturnsTheThreadsPages) {
  const void* tree = nullptr;
  {
    const code::ParsedTree parsed(tree_sitter_python(), kSource);
    tree = parsed.root().tree;
  }
  EXPECT_TRUE(resident(tree));  // kept for the next file
  release_parse_arena_pages();
  EXPECT_FALSE(resident(tree));
}

// A large file's pages stay for the next file of the parse (a TypeScript bundle's tree is 130-190
// MB; trimming after each made the next bundle fault and zero them again), until the parse ends.
TEST(ParseArena, ALargeFilesPagesStayUntilTheParseEnds) {
  const char* far = nullptr;
  {
    const ParseArena arena;
    constexpr size_t kLarge = size_t{160} << 20;  // beyond the 64 MiB the arena once kept
    char* block = static_cast<char*>(ts_current_malloc(kLarge));
    ASSERT_TRUE(arena_hooks::owns(block));
    block[kLarge - 1] = 1;
    far = block + kLarge - 1;
  }
  EXPECT_TRUE(resident(far));
  release_parse_arena_pages();
  EXPECT_FALSE(resident(far));
}

TEST(ParseArena, TheLastBlockGrowsInPlaceAndOthersMoveWithTheirBytes) {
  const ParseArena arena;
  char* a = static_cast<char*>(ts_current_malloc(24));
  std::memcpy(a, "0123456789abcdefghijklm", 24);
  char* b = static_cast<char*>(ts_current_malloc(8));
  char* grown = static_cast<char*>(ts_current_realloc(b, 4096));
  EXPECT_EQ(grown, b);
  char* moved = static_cast<char*>(ts_current_realloc(a, 100));
  EXPECT_NE(moved, a);
  EXPECT_STREQ(moved, "0123456789abcdefghijklm");
  const uint64_t before = arena_hooks::used();
  ts_current_free(moved);  // the last block: given back
  EXPECT_LT(arena_hooks::used(), before);
}

// Every tree node is one block, so a per-block header would be a twelfth of every tree (7.9 % of
// sympy's): blocks are their requested bytes rounded to whole words and nothing more.
TEST(ParseArena, BlocksTakeTheirBytesAndNoHeader) {
  const ParseArena arena;
  const uint64_t start = arena_hooks::used();
  char* previous = nullptr;
  for (int i = 0; i < 1000; ++i) {
    char* block = static_cast<char*>(ts_current_malloc(i % 2 == 0 ? 24 : 20));
    if (previous != nullptr) {
      EXPECT_EQ(block, previous + 24);
    }
    previous = block;
  }
  EXPECT_EQ(arena_hooks::used() - start, 1000u * 24);
  // An empty request still gets an address of its own.
  void* empty = ts_current_malloc(0);
  EXPECT_NE(ts_current_malloc(0), empty);
  EXPECT_EQ(arena_hooks::used() - start, 1000u * 24 + 16);
}

// Only the most recent block is given back by a free; one below it stays allocated (its bytes
// intact), and the one freed is handed out again.
TEST(ParseArena, AFreeGivesBackTheMostRecentBlockOnly) {
  const ParseArena arena;
  char* a = static_cast<char*>(ts_current_malloc(16));
  std::memcpy(a, "kept kept kept!", 16);
  char* b = static_cast<char*>(ts_current_malloc(16));
  const uint64_t with_both = arena_hooks::used();
  ts_current_free(b);
  EXPECT_EQ(arena_hooks::used(), with_both - 16);
  ts_current_free(a);  // no longer known as the last block: stays
  EXPECT_EQ(arena_hooks::used(), with_both - 16);
  EXPECT_STREQ(a, "kept kept kept!");
  EXPECT_EQ(ts_current_malloc(8), b);
}

TEST(ParseArena, HeapBlocksGoOnLivingOnTheHeap) {
  // tree-sitter memory from outside any scope (a parser kept by a caller) is freed and resized
  // by the heap even while a scope is open: under ASan a wrong free is a report, a lost one a leak.
  void* outside = ts_current_malloc(64);
  ASSERT_FALSE(arena_hooks::owns(outside));
  {
    const ParseArena arena;
    outside = ts_current_realloc(outside, 4096);
    EXPECT_FALSE(arena_hooks::owns(outside));
    ts_current_free(outside);
  }
  EXPECT_EQ(arena_hooks::used(), 0u);
}

TEST(ParseArena, EachThreadHasItsOwnArena) {
  const ParseArena mine;
  void* ours = ts_current_malloc(16);
  bool other_owns_ours = true;
  bool other_owns_its_own = false;
  std::thread([&] {
    const ParseArena theirs;
    other_owns_ours = arena_hooks::owns(ours);
    other_owns_its_own = arena_hooks::owns(ts_current_malloc(16));
  }).join();
  EXPECT_FALSE(other_owns_ours);
  EXPECT_TRUE(other_owns_its_own);
}

// The budget counts the arena's bytes: a token-dense file is still cancelled at its bound.
TEST(ParseArena, ABudgetStillCancelsAParseOverIt) {
  std::string dense = "x = [";
  for (int i = 0; i < 200000; ++i) dense += "k(), ";
  dense += "]\n";
  const ParseArena arena;
  ts_parser_set_language(arena.parser(), tree_sitter_python());
  const ParseBudget budget(arena.parser(), uint64_t{4} << 20);
  EXPECT_EQ(ts_parser_parse_string(arena.parser(), nullptr, dense.data(),
                                   static_cast<uint32_t>(dense.size())),
            nullptr);
  EXPECT_TRUE(budget.exceeded());
  EXPECT_GE(budget.peak_bytes(), uint64_t{4} << 20);
  ts_parser_reset(arena.parser());
}

}  // namespace
}  // namespace anchorfs::analysis
