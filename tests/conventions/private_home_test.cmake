# Every test runs with the build's own home (tests/test_home.cmake.in): fails when ctest did not
# read that file, or when something overrides it for this suite.
foreach(pair "HOME=${EXPECTED}" "XDG_CACHE_HOME=${EXPECTED}/.cache"
        "XDG_CONFIG_HOME=${EXPECTED}/.config")
  string(REPLACE "=" ";" parts "${pair}")
  list(GET parts 0 name)
  list(GET parts 1 want)
  if(NOT "$ENV{${name}}" STREQUAL "${want}")
    message(FATAL_ERROR "${name} is '$ENV{${name}}', not the test home '${want}'")
  endif()
endforeach()
foreach(name XDG_DATA_HOME XDG_STATE_HOME)
  if(DEFINED ENV{${name}})
    message(FATAL_ERROR "${name} is set ('$ENV{${name}}'): it may point outside the test home")
  endif()
endforeach()
if(NOT IS_DIRECTORY "${EXPECTED}/.cache")
  message(FATAL_ERROR "the test home ${EXPECTED} has no .cache directory")
endif()
