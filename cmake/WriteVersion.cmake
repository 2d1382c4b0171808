# Writes ${OUT}: the commit the tool is built from, for --version. Run at
# every build (cro-version target); the file changes, and the tool relinks,
# only when the commit or the tree's cleanliness does.
#   cmake -DSOURCE_DIR=... -DOUT=... -P WriteVersion.cmake
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown (not built from a git checkout)")
else()
  execute_process(COMMAND git -C "${SOURCE_DIR}" status --porcelain
                          --untracked-files=no
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    string(APPEND commit " (with uncommitted changes)")
  endif()
endif()
set(text "#define CRO_COMMIT \"${commit}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
