# Writes the man page and the completion scripts with the built binary (`anchorfs reference`),
# so they describe exactly the command line --help describes. -DANCHORFS=<binary> -DOUT=<dir>
file(MAKE_DIRECTORY "${OUT}")
foreach(pair "man;anchorfs.1" "bash;anchorfs" "zsh;_anchorfs" "fish;anchorfs.fish")
  list(GET pair 0 format)
  list(GET pair 1 name)
  execute_process(COMMAND "${ANCHORFS}" reference ${format} OUTPUT_FILE "${OUT}/${name}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "anchorfs reference ${format} failed (${rc})")
  endif()
endforeach()
# Debian installs man pages compressed; -n keeps the archive byte-identical between builds.
execute_process(COMMAND gzip -9nf "${OUT}/anchorfs.1" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip of the man page failed (${rc})")
endif()
