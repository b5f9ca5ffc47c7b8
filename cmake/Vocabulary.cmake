# Fetches the pinned `tiktoken` npm package with `npm pack`, checks its integrity and keeps one BPE
# vocabulary from it (o200k_base) for `anchorfs stats` token counts. Counting tokens is optional:
# without the file, stats falls back to its documented estimator.
set(TIKTOKEN_VERSION 1.0.22)
# sha512 of the package tarball (the registry's `dist.integrity`, in hex).
set(TIKTOKEN_SHA512 3cabf2d6b545d5189b7c5dc99570523f426b730daeab7c977607045ed293627dd027f7014411c39eb2798c7932f8c10d67a0c83f0354196a64571fbb8e80a934)
set(ANCHORFS_VOCABULARY "${ANCHORFS_DEPS_DIR}/tiktoken-${TIKTOKEN_VERSION}/o200k_base.json")

set(_tk_tgz "${ANCHORFS_DEPS_DIR}/tiktoken-${TIKTOKEN_VERSION}.tgz")
if(NOT EXISTS "${ANCHORFS_VOCABULARY}")
  set(_tk_ok FALSE)
  if(EXISTS "${_tk_tgz}")
    file(SHA512 "${_tk_tgz}" _sum)
    if(_sum STREQUAL TIKTOKEN_SHA512)
      set(_tk_ok TRUE)
    endif()
  endif()
  if(NOT _tk_ok)
    find_program(NPM_PROGRAM npm REQUIRED)
    file(MAKE_DIRECTORY "${ANCHORFS_DEPS_DIR}")
    message(STATUS "Fetching tiktoken ${TIKTOKEN_VERSION} (BPE vocabulary) with npm pack")
    execute_process(
      COMMAND "${NPM_PROGRAM}" pack "tiktoken@${TIKTOKEN_VERSION}" --silent
      WORKING_DIRECTORY "${ANCHORFS_DEPS_DIR}"
      RESULT_VARIABLE _npm_rc OUTPUT_QUIET)
    if(NOT _npm_rc EQUAL 0)
      message(FATAL_ERROR "npm pack tiktoken@${TIKTOKEN_VERSION} failed (${_npm_rc})")
    endif()
    file(SHA512 "${_tk_tgz}" _sum)
    if(NOT _sum STREQUAL TIKTOKEN_SHA512)
      file(REMOVE "${_tk_tgz}")
      message(FATAL_ERROR "tiktoken ${TIKTOKEN_VERSION}: checksum mismatch; refusing to use it")
    endif()
  endif()
  set(_tk_tmp "${ANCHORFS_DEPS_DIR}/tiktoken-${TIKTOKEN_VERSION}.tmp")
  file(REMOVE_RECURSE "${_tk_tmp}")
  file(ARCHIVE_EXTRACT INPUT "${_tk_tgz}" DESTINATION "${_tk_tmp}"
       PATTERNS "package/encoders/o200k_base.json")
  file(MAKE_DIRECTORY "${ANCHORFS_DEPS_DIR}/tiktoken-${TIKTOKEN_VERSION}")
  file(RENAME "${_tk_tmp}/package/encoders/o200k_base.json" "${ANCHORFS_VOCABULARY}")
  file(REMOVE_RECURSE "${_tk_tmp}")
  file(REMOVE "${_tk_tgz}")
endif()
