# Script mode (cmake -P), run by the gemmhost_build_info target at every
# build: writes OUT, a header with the source tree's git commit ("-dirty"
# when tracked files differ from it; "unknown" without git or outside a
# repository) and the build type. OUT is rewritten only when its text
# changes, so an unchanged tree recompiles nothing.
#   cmake -DSRC=<source dir> -DOUT=<header> -DBUILD_TYPE=<type> -P BuildInfo.cmake
set(commit "unknown")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SRC}" rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE head RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0 AND head)
    set(commit "${head}")
    # Refresh the index first so a file merely touched does not count as changed.
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SRC}" update-index -q --refresh
                    OUTPUT_QUIET ERROR_QUIET)
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SRC}" diff-index --quiet HEAD --
                    RESULT_VARIABLE dirty OUTPUT_QUIET ERROR_QUIET)
    if(NOT dirty EQUAL 0)
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE "none")
endif()
set(text "/* Generated at build time by cmake/BuildInfo.cmake: do not edit. */
#ifndef GEMMHOST_BUILD_INFO_H
#define GEMMHOST_BUILD_INFO_H
#define GEMMHOST_GIT_COMMIT \"${commit}\"
#define GEMMHOST_BUILD_TYPE \"${BUILD_TYPE}\"
#endif
")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
