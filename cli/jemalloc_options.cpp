// jemalloc's built-in options for the anchorfs executable (linked only with ANCHORFS_JEMALLOC).
// Transparent huge pages for its extents. Syntax trees no longer come from jemalloc (the parse
// arena, analysis/parse_arena.cpp, asks for huge pages itself), so this covers the rest of the
// heap: facts, graphs, views, cache records. Without it (thp:default; this kernel's THP mode is
// "madvise") a cold mount is handed 8-18 % fewer fresh pages and peaks 15-70 MB lower, for 7-12x
// the page faults; its CPU moved by up to 1 s either way between runs at load 4-9 (Go src, sympy),
// within the noise, and the whole kernel was not measured again, so huge pages stay
// (docs/benchmarks.md, "Session 13: fresh pages and the allocator"). MALLOC_CONF in the
// environment still overrides it.
extern "C" {
// jemalloc reads this weak symbol once, before its first allocation.
extern const char* malloc_conf;
const char* malloc_conf = "thp:always";
}
