# Fetches the pinned tree-sitter-python grammar with `npm pack`, checks its integrity, builds it.
set(TS_PYTHON_VERSION 0.23.6)
# sha512 of the package tarball (the registry's `dist.integrity`, in hex).
set(TS_PYTHON_SHA512 c8833dcf4a31288c53edb02d3ce860a1597a8135e59a5221b9eee58854f8a013c5fe585aec76b8750052f3602fea130c459a159c5248f0cea62fe4b05a82c3dc)

set(_ts_dir "${ANCHORFS_DEPS_DIR}/tree-sitter-python-${TS_PYTHON_VERSION}")
set(_ts_tgz "${ANCHORFS_DEPS_DIR}/tree-sitter-python-${TS_PYTHON_VERSION}.tgz")

function(_anchorfs_check_tgz out)
  if(EXISTS "${_ts_tgz}")
    file(SHA512 "${_ts_tgz}" _sum)
    if(_sum STREQUAL TS_PYTHON_SHA512)
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
  endif()
  set(${out} FALSE PARENT_SCOPE)
endfunction()

_anchorfs_check_tgz(_ts_ok)
if(NOT _ts_ok)
  find_program(NPM_PROGRAM npm REQUIRED)
  file(MAKE_DIRECTORY "${ANCHORFS_DEPS_DIR}")
  message(STATUS "Fetching tree-sitter-python ${TS_PYTHON_VERSION} with npm pack")
  execute_process(
    COMMAND "${NPM_PROGRAM}" pack "tree-sitter-python@${TS_PYTHON_VERSION}" --silent
    WORKING_DIRECTORY "${ANCHORFS_DEPS_DIR}"
    RESULT_VARIABLE _npm_rc OUTPUT_QUIET)
  if(NOT _npm_rc EQUAL 0)
    message(FATAL_ERROR "npm pack tree-sitter-python@${TS_PYTHON_VERSION} failed (${_npm_rc})")
  endif()
  _anchorfs_check_tgz(_ts_ok)
  if(NOT _ts_ok)
    file(REMOVE "${_ts_tgz}")
    message(FATAL_ERROR "tree-sitter-python ${TS_PYTHON_VERSION}: checksum mismatch; refusing to build it")
  endif()
  file(REMOVE_RECURSE "${_ts_dir}")
endif()

if(NOT EXISTS "${_ts_dir}/src/parser.c")
  file(MAKE_DIRECTORY "${_ts_dir}")
  file(ARCHIVE_EXTRACT INPUT "${_ts_tgz}" DESTINATION "${_ts_dir}.tmp")
  file(REMOVE_RECURSE "${_ts_dir}")
  file(RENAME "${_ts_dir}.tmp/package" "${_ts_dir}")
  file(REMOVE_RECURSE "${_ts_dir}.tmp")
endif()

add_library(tree_sitter_python STATIC "${_ts_dir}/src/parser.c" "${_ts_dir}/src/scanner.c")
target_include_directories(tree_sitter_python PRIVATE "${_ts_dir}/src")
set_target_properties(tree_sitter_python PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter_python PRIVATE -O2 -w)
