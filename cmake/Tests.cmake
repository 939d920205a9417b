# Helpers for the folders under tests/: the blocks each of them repeated.

# gemmhost_tests_need_cpu_plugin(FOLDER): leaves the calling folder (a macro,
# so its return() is the caller's) when the C plugin is not built, saying so;
# else finds Python, which every such folder's scripts run.
macro(gemmhost_tests_need_cpu_plugin folder)
  if(NOT TARGET gemmhost-cpu)
    message(STATUS "${folder}: the cpu plugin is not built, skipping")
    return()
  endif()
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
endmacro()

# gemmhost_fake_plugin(MODE ID FOLDER): tests/loader/fake_plugin.c built as
# FOLDER/gemmhost-fake_MODE.so, misbehaving as its FAKE_MODE ID says.
function(gemmhost_fake_plugin mode id folder)
  set(target gemmhost-fake_${mode})
  add_library(${target} MODULE "${CMAKE_SOURCE_DIR}/tests/loader/fake_plugin.c")
  target_include_directories(${target} PRIVATE "${CMAKE_SOURCE_DIR}/core/include")
  target_compile_definitions(${target} PRIVATE FAKE_MODE=${id} FAKE_NAME="fake_${mode}")
  target_link_libraries(${target} PRIVATE m)
  set_target_properties(${target} PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY "${folder}")
endfunction()

# gemmhost_script_test(NAME SCRIPT [ARGS ...] [PROPERTIES ...]): the test
# `bash SCRIPT GEMMHOST SOURCE_DIR PYTHON ARGS...`, SCRIPT in the calling
# folder, the way most of gemmhost's end-to-end scripts take their arguments.
function(gemmhost_script_test name script)
  cmake_parse_arguments(T "" "" "ARGS;PROPERTIES" ${ARGN})
  add_test(NAME ${name}
    COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/${script}" $<TARGET_FILE:gemmhost> "${CMAKE_SOURCE_DIR}"
            "${Python3_EXECUTABLE}" ${T_ARGS})
  if(T_PROPERTIES)
    set_tests_properties(${name} PROPERTIES ${T_PROPERTIES})
  endif()
endfunction()
