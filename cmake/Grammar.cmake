# Fetches each pinned tree-sitter grammar with `npm pack`, checks its integrity, builds it.
#
# Debian's libtree-sitter 0.20.7 loads grammars of ABI 13 and 14 only. Every pin below is the
# newest release of its grammar whose generated parser.c still declares LANGUAGE_VERSION 14; the
# next releases (javascript 0.25, go 0.25, rust 0.24) were generated for ABI 15 and would be
# refused at ts_parser_set_language. The hashes are the registry's `dist.integrity` (sha512 of the
# package tarball) in hex.

# anchorfs_grammar(TARGET PACKAGE VERSION SHA512 SRC_DIR): fetches PACKAGE@VERSION into
# ANCHORFS_DEPS_DIR once, refuses it when its sha512 differs, and builds a static library TARGET
# from SRC_DIR/parser.c (and SRC_DIR/scanner.c when the grammar has one). SRC_DIR is relative to
# the package root ("src", or "typescript/src" for a package holding two grammars).
function(anchorfs_grammar target package version sha512 src_dir)
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
  if(NOT EXISTS "${dir}/${src_dir}/parser.c")
    file(REMOVE_RECURSE "${dir}" "${dir}.tmp")
    file(ARCHIVE_EXTRACT INPUT "${tgz}" DESTINATION "${dir}.tmp")
    file(RENAME "${dir}.tmp/package" "${dir}")
    file(REMOVE_RECURSE "${dir}.tmp")
  endif()
  set(sources "${dir}/${src_dir}/parser.c")
  if(EXISTS "${dir}/${src_dir}/scanner.c")
    list(APPEND sources "${dir}/${src_dir}/scanner.c")
  endif()
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PRIVATE "${dir}/${src_dir}")
  set_target_properties(${target} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE -O2 -w)
endfunction()

anchorfs_grammar(tree_sitter_python tree-sitter-python 0.23.6
  c8833dcf4a31288c53edb02d3ce860a1597a8135e59a5221b9eee58854f8a013c5fe585aec76b8750052f3602fea130c459a159c5248f0cea62fe4b05a82c3dc
  src)
anchorfs_grammar(tree_sitter_javascript tree-sitter-javascript 0.23.1
  fdb9e16eb4c3f5fad46074138989cf731c87391230d79ec44416ba76acda2b1bd1ff1dcf0b863377e0f5a5920c4baccd836bf76bc059d282bb8c7aac428f5f58
  src)
# One package, two grammars (TypeScript and TSX) sharing common/scanner.h.
anchorfs_grammar(tree_sitter_typescript tree-sitter-typescript 0.23.2
  7b4e095142b14d3e77ff1dd4ab5cc82f8e43a182957c71f8099ab081984f839a9844e9799d08d5fbce6bb85cc5199c6ef9078555b4533c3467a8bf546d4e1578
  typescript/src)
anchorfs_grammar(tree_sitter_tsx tree-sitter-typescript 0.23.2
  7b4e095142b14d3e77ff1dd4ab5cc82f8e43a182957c71f8099ab081984f839a9844e9799d08d5fbce6bb85cc5199c6ef9078555b4533c3467a8bf546d4e1578
  tsx/src)
anchorfs_grammar(tree_sitter_go tree-sitter-go 0.23.4
  89068712ce3231afe1328fd9086a8b7c6eb51749a28a750b5357c587e199ade091b4aca514bb6f9fbf7ca1c0998cedabfee9e0359800635b3584f17203091cef
  src)
anchorfs_grammar(tree_sitter_java tree-sitter-java 0.23.5
  623bbba10d17c7b19c513d359948253cff9b61fbea8cd086771aa28139dec3d9cb1a8208e363cd54fddb1eb61e331b3088244cd32b9b5a6379aa4fb3b20d3330
  src)
anchorfs_grammar(tree_sitter_rust tree-sitter-rust 0.23.3
  b8b7592752b6e84b894c1309973d65b53960ee72720184e17e8b9782281fe62c4a39ab0e2f9c0dad10a9b964ec97aac370a9592bd517f9a9e714ba8ffe4721c1
  src)
# C and C++ (one front end, two dialects): releases whose parser.c declares LANGUAGE_VERSION 14.
anchorfs_grammar(tree_sitter_c tree-sitter-c 0.23.6
  d1dc572b39d5c94034b3a3e336894936cdb217cecee5a2f9dfc03f791ea78c0e68a97dc2def1f8be7c7741d38ac2e51da4a11c15d1ee883a5128b2c203fb63bd
  src)
anchorfs_grammar(tree_sitter_cpp tree-sitter-cpp 0.23.4
  a91e6a503ca16798c9e95f3fba6881c689116def3d6c21a672afdd93de3023890df3aa9f755f24d061c850429aa9681cbb8db029a97913decb2a92de556f2c2b
  src)
