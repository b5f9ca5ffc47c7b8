# anchorfs_unity(TARGET): compiles TARGET's files in unity batches of ANCHORFS_UNITY_BATCH files.
# A typical file spends half its CPU parsing the same headers (the standard library, fmt, TBB,
# nlohmann/json) and instantiating the same templates at -O3; a batch does that once. A fresh
# build of the executable costs about half the CPU this way (docs/benchmarks.md, quick start),
# which is what keeps the README quick start within minutes on a small machine. It needs names
# unique across each library's files: helpers shared by two files belong in a header of their own.
option(ANCHORFS_UNITY "Compile each library in unity batches (fewer, larger translation units)" ON)
set(ANCHORFS_UNITY_BATCH 8 CACHE STRING "Files per unity batch (ANCHORFS_UNITY)")

function(anchorfs_unity target)
  if(ANCHORFS_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
      UNITY_BUILD_BATCH_SIZE ${ANCHORFS_UNITY_BATCH})
  endif()
endfunction()
