# Installation layout and the Debian package (scripts/package.sh runs cpack on a build tree).
include(GNUInstallDirs)
# `make install` and cpack must not build the whole tree (the test suite): scripts/package.sh
# builds the targets installed (anchorfs, anchorfs_reference) first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(ANCHORFS_REFERENCE_DIR "${CMAKE_BINARY_DIR}/reference")
set(_reference_files "${ANCHORFS_REFERENCE_DIR}/anchorfs.1.gz" "${ANCHORFS_REFERENCE_DIR}/anchorfs"
    "${ANCHORFS_REFERENCE_DIR}/_anchorfs" "${ANCHORFS_REFERENCE_DIR}/anchorfs.fish")
add_custom_command(
  OUTPUT ${_reference_files}
  COMMAND "${CMAKE_COMMAND}" "-DANCHORFS=$<TARGET_FILE:anchorfs>" "-DOUT=${ANCHORFS_REFERENCE_DIR}"
          -P "${PROJECT_SOURCE_DIR}/cmake/WriteReference.cmake"
  DEPENDS anchorfs "${PROJECT_SOURCE_DIR}/cmake/WriteReference.cmake"
  COMMENT "Writing the man page and shell completions")
add_custom_target(anchorfs_reference ALL DEPENDS ${_reference_files})

install(TARGETS anchorfs RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${ANCHORFS_REFERENCE_DIR}/anchorfs.1.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${ANCHORFS_REFERENCE_DIR}/anchorfs"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")
install(FILES "${ANCHORFS_REFERENCE_DIR}/_anchorfs"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions")
install(FILES "${ANCHORFS_REFERENCE_DIR}/anchorfs.fish"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d")
# stats counts tokens with it (cli/cmd_stats.cpp looks beside the binary's prefix).
install(FILES "${ANCHORFS_VOCABULARY}" DESTINATION "${CMAKE_INSTALL_DATADIR}/anchorfs")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs"
        FILES_MATCHING PATTERN "*.md")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/examples/sample_project"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME anchorfs)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "anchorfs maintainers <anchorfs@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "repository view whose source files carry structural tag comments (FUSE)")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "anchorfs mounts a repository as a FUSE filesystem in which every source file carries\n"
    "plain comments naming what each function and class calls, what calls it, what it\n"
    "inherits and imports. Grammars (Python, JavaScript/TypeScript, Go, Java, Rust) are\n"
    "compiled in. The checkout is never changed.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # anchorfs_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # the runtime libraries, from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fuse3")  # fusermount3 for normal users
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)
