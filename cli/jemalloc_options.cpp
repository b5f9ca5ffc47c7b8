// jemalloc's built-in options for the anchorfs executable (linked only with ANCHORFS_JEMALLOC).
// Transparent huge pages for its extents: a cold C analysis faults in about twice its sources'
// size of fresh heap (tree-sitter's syntax trees), and on this virtualised kernel those 4 KiB page
// faults were half of its system time; 2 MiB pages take a fifth as many faults, for ~10 % more
// peak RSS on large trees and ~9 MB more on a tiny one (docs/benchmarks.md, "Cold: huge pages for
// jemalloc"). MALLOC_CONF in the environment still overrides it.
extern "C" {
// jemalloc reads this weak symbol once, before its first allocation.
extern const char* malloc_conf;
const char* malloc_conf = "thp:always";
}
