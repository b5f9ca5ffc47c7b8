# Fetches the tree-sitter runtime and each grammar from the npm registry with `npm pack`, checks
# each tarball's integrity, and builds them as static libraries.
#
# The runtime comes from the `tree-sitter` package (the Node binding), which vendors the C library
# it binds: vendor/tree-sitter/lib/src/lib.c (one translation unit including the others) and
# lib/include/tree_sitter/api.h. Building that instead of Debian's libtree-sitter 0.20.7 is what
# lets the grammars move: 0.20.7 loads grammar ABI 13-14 only, and the current release of most
# grammars is generated for ABI 15 (python 0.25, javascript 0.25, go 0.25, rust 0.24), which this
# runtime loads (it accepts 13-15). The grammars whose newest release is still ABI 14 (typescript
# 0.23.2, java 0.23.5) are simply their newest release. Parse speed is unchanged:
# anchorfs_parse_floor on Debian's sympy, side by side, median 7.190 s with 0.25.1 + python 0.25.0
# against 7.197 s with 0.20.7 + python 0.23.6 (shared machine; the runs are in docs/benchmarks.md).
#
# The hashes are the registry's `dist.integrity` (sha512 of the package tarball) in hex. A new
# grammar (C, C++, ...) is pinned the same way: its newest release, its integrity in hex.

# anchorfs_npm_package(PACKAGE VERSION SHA512 MARKER OUT_DIR): fetches PACKAGE@VERSION into
# ANCHORFS_DEPS_DIR once, refuses it when its sha512 differs, extracts it, and sets OUT_DIR to the
# package root. MARKER is a file relative to that root whose presence means the extraction is
# complete.
function(anchorfs_npm_package package version sha512 marker out_dir)
  set(dir "${ANCHORFS_DEPS_DIR}/${package}-${version}")
  set(tgz "${ANCHORFS_DEPS_DIR}/${package}-${version}.tgz")
  set(ok FALSE)
  if(EXISTS "${tgz}")
    file(SHA512 "${tgz}" sum)
    if(sum STREQUAL sha512)
      set(ok TRUE)
    endif()
  endif()
  if(NOT ok)
    find_program(NPM_PROGRAM npm REQUIRED)
    file(MAKE_DIRECTORY "${ANCHORFS_DEPS_DIR}")
    message(STATUS "Fetching ${package} ${version} with npm pack")
    execute_process(
      COMMAND "${NPM_PROGRAM}" pack "${package}@${version}" --silent
      WORKING_DIRECTORY "${ANCHORFS_DEPS_DIR}"
      RESULT_VARIABLE npm_rc OUTPUT_QUIET)
    if(NOT npm_rc EQUAL 0)
      message(FATAL_ERROR "npm pack ${package}@${version} failed (${npm_rc})")
    endif()
    file(SHA512 "${tgz}" sum)
    if(NOT sum STREQUAL sha512)
      file(REMOVE "${tgz}")
      message(FATAL_ERROR "${package} ${version}: checksum mismatch; refusing to build it")
    endif()
    file(REMOVE_RECURSE "${dir}")
  endif()
  if(NOT EXISTS "${dir}/${marker}")
    file(REMOVE_RECURSE "${dir}" "${dir}.tmp")
    file(ARCHIVE_EXTRACT INPUT "${tgz}" DESTINATION "${dir}.tmp")
    file(RENAME "${dir}.tmp/package" "${dir}")
    file(REMOVE_RECURSE "${dir}.tmp")
  endif()
  set(${out_dir} "${dir}" PARENT_SCOPE)
endfunction()

# The runtime: target tree_sitter_runtime, with tree_sitter/api.h on its users' include path.
# Flags as the library's own Makefile builds it (-O3, C11, the POSIX/BSD feature macros).
anchorfs_npm_package(tree-sitter 0.25.1
  9ab70476462d1dfacad40e9fb373ba171901a344228395d45ea1e1c54390bb46e63e8d34405e17692c7879da5acdd1f0c674828e518a1a022a59d68de1dbd32c
  vendor/tree-sitter/lib/src/lib.c ts_runtime_dir)
set(ts_lib "${ts_runtime_dir}/vendor/tree-sitter/lib")
add_library(tree_sitter_runtime STATIC "${ts_lib}/src/lib.c")
target_include_directories(tree_sitter_runtime PRIVATE "${ts_lib}/src")
target_include_directories(tree_sitter_runtime SYSTEM PUBLIC "${ts_lib}/include")
target_compile_definitions(tree_sitter_runtime PRIVATE
  _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE _BSD_SOURCE _DARWIN_C_SOURCE)
set_target_properties(tree_sitter_runtime PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter_runtime PRIVATE -O3 -w)
# anchorfs's extensions of the runtime: a node's children in one pass, and the nodes a walk stops
# at under a node (they read the private subtree layout, so they are built with the runtime's
# private headers and flags).
target_sources(tree_sitter_runtime PRIVATE "${PROJECT_SOURCE_DIR}/analysis/code/child_list.c"
  "${PROJECT_SOURCE_DIR}/analysis/code/stops.c")
target_include_directories(tree_sitter_runtime PRIVATE "${PROJECT_SOURCE_DIR}")

# anchorfs_grammar(TARGET PACKAGE VERSION SHA512 SRC_DIR): fetches PACKAGE@VERSION (as
# anchorfs_npm_package) and builds a static library TARGET from SRC_DIR/parser.c (and
# SRC_DIR/scanner.c when the grammar has one). SRC_DIR is relative to the package root ("src", or
# "typescript/src" for a package holding two grammars).
# With SCANNER_EDIT FROM TO, the grammar's scanner.c is built from a copy in the build tree with
# the text FROM replaced by TO (configuring fails when FROM is not in it, e.g. after an upgrade).
function(anchorfs_grammar target package version sha512 src_dir)
  cmake_parse_arguments(PARSE_ARGV 5 arg "" "" "SCANNER_EDIT")
  anchorfs_npm_package(${package} ${version} ${sha512} "${src_dir}/parser.c" dir)
  set(sources "${dir}/${src_dir}/parser.c")
  if(arg_SCANNER_EDIT)
    list(GET arg_SCANNER_EDIT 0 from)
    list(GET arg_SCANNER_EDIT 1 to)
    file(READ "${dir}/${src_dir}/scanner.c" text)
    string(FIND "${text}" "${from}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${package} ${version}: scanner.c no longer holds the text to edit")
    endif()
    string(REPLACE "${from}" "${to}" text "${text}")
    set(edited "${CMAKE_CURRENT_BINARY_DIR}/grammars/${target}/scanner.c")
    # Written through a copy that changes the built file only when its text changes.
    file(WRITE "${edited}.new" "${text}")
    configure_file("${edited}.new" "${edited}" COPYONLY)
    list(APPEND sources "${edited}")
  elseif(EXISTS "${dir}/${src_dir}/scanner.c")
    list(APPEND sources "${dir}/${src_dir}/scanner.c")
  endif()
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PRIVATE "${dir}/${src_dir}")
  set_target_properties(${target} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE -O2 -w)
endfunction()

# tree-sitter-python's scanner frees its two stacks and allocates them afresh each time tree-sitter
# restores its state (before nearly every token: 1.24 M free/malloc pairs in jemalloc for sympy's
# core + polys, 1.1 % of an export's instructions). The edit empties them instead, keeping their
# memory: the same state, so the same trees.
anchorfs_grammar(tree_sitter_python tree-sitter-python 0.25.0
  782989c7acd06b7e46c5a0ad403fb05c73a162a07110bf9ba7bd56fecddf70332ed3a32bb739155d1e37edd46b0ab6eb0dbc8bb940c9a4083272cee772780b5f
  src
  SCANNER_EDIT
  "    array_delete(&scanner->delimiters);
    array_delete(&scanner->indents);
    array_push(&scanner->indents, 0);"
  "    array_clear(&scanner->delimiters);
    array_clear(&scanner->indents);
    array_push(&scanner->indents, 0);")
anchorfs_grammar(tree_sitter_javascript tree-sitter-javascript 0.25.0
  d5f09b9b302c919931719ccde35b056766ebda2a9360fded2a5b356ff1ca18d3d05153a9b14c69986c5d37fc0ca809378d866760147575dff2ff46af31e53b77
  src)
# One package, two grammars (TypeScript and TSX) sharing common/scanner.h.
anchorfs_grammar(tree_sitter_typescript tree-sitter-typescript 0.23.2
  7b4e095142b14d3e77ff1dd4ab5cc82f8e43a182957c71f8099ab081984f839a9844e9799d08d5fbce6bb85cc5199c6ef9078555b4533c3467a8bf546d4e1578
  typescript/src)
anchorfs_grammar(tree_sitter_tsx tree-sitter-typescript 0.23.2
  7b4e095142b14d3e77ff1dd4ab5cc82f8e43a182957c71f8099ab081984f839a9844e9799d08d5fbce6bb85cc5199c6ef9078555b4533c3467a8bf546d4e1578
  tsx/src)
anchorfs_grammar(tree_sitter_go tree-sitter-go 0.25.0
  00f05cfc3ab7c73fdedf95e99216f56e5bb95205bed84dd1c8659ac1948235c6c6c1aee385240f4bc2ac52ea6ecc195af0f0a8f3e973f56fc90c98e67d16b6b7
  src)
anchorfs_grammar(tree_sitter_java tree-sitter-java 0.23.5
  623bbba10d17c7b19c513d359948253cff9b61fbea8cd086771aa28139dec3d9cb1a8208e363cd54fddb1eb61e331b3088244cd32b9b5a6379aa4fb3b20d3330
  src)
anchorfs_grammar(tree_sitter_rust tree-sitter-rust 0.24.0
  3567a65037fadbd4df73dd18d19e79ceec0f0801e42f15a731fd91ce762ee2206492b425da8fc21c607b0abe764f23791750c0c7c1665270ed0b2f625245d911
  src)
# C and C++ (one front end, two dialects): each its newest release (C 0.24.1 is ABI 15, C++ 0.23.4
# ABI 14; the runtime loads both).
anchorfs_grammar(tree_sitter_c tree-sitter-c 0.24.1
  96463058ddd245e729bda7aa9852a4b8f351dd96ed9ef1d4fb85c010490976ba7725f4a9da906b8573adbdfb043549dec9eefa83cf3d63475d1760ccd20103a4
  src)
anchorfs_grammar(tree_sitter_cpp tree-sitter-cpp 0.23.4
  a91e6a503ca16798c9e95f3fba6881c689116def3d6c21a672afdd93de3023890df3aa9f755f24d061c850429aa9681cbb8db029a97913decb2a92de556f2c2b
  src)
