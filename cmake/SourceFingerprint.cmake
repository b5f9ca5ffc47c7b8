# anchorfs_source_fingerprint(TARGET HEADER CONSTANT FILES...): generates HEADER (in the current
# binary dir) defining `inline constexpr std::string_view CONSTANT`, 16 hex digits of SHA-256 over
# the files' repository-relative paths and contents. It changes exactly when one of them does, and
# is the same on every machine building the same sources (a farm shares cache entries by it).
set(ANCHORFS_FINGERPRINT_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/write_fingerprint.cmake")

function(anchorfs_source_fingerprint target header constant)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${header}")
  set(list_file "${CMAKE_CURRENT_BINARY_DIR}/${header}.files")
  list(SORT ARGN)
  set(relative "")
  foreach(f IN LISTS ARGN)
    file(RELATIVE_PATH r "${PROJECT_SOURCE_DIR}" "${f}")
    list(APPEND relative "${r}")
  endforeach()
  string(REPLACE ";" "\n" lines "${relative}")
  file(WRITE "${list_file}" "${lines}\n")
  add_custom_command(OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DCONSTANT=${constant} -DLIST=${list_file}
            -DROOT=${PROJECT_SOURCE_DIR} -P ${ANCHORFS_FINGERPRINT_SCRIPT}
    DEPENDS ${ARGN} "${list_file}" "${ANCHORFS_FINGERPRINT_SCRIPT}"
    COMMENT "Fingerprinting the sources of ${constant}" VERBATIM)
  target_sources(${target} PRIVATE "${out}")
  target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_BINARY_DIR}")
endfunction()
