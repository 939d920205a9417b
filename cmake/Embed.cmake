# gemmhost_embed(OUT_C <file.c> NAME <symbol> FILES <f>...)
# Generates a C file with one table of {file name, bytes, size} for the
# given files, so a plugin carries its kernel sources (or SPIR-V) inside
# itself. The table is NULL-terminated:
#   struct gh_embedded_file { const char *name; const unsigned char *data; unsigned long size; };
#   extern const struct gh_embedded_file <symbol>[];
function(gemmhost_embed)
  cmake_parse_arguments(E "" "OUT_C;NAME" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT "${E_OUT_C}"
    COMMAND ${CMAKE_COMMAND} -DOUT_C=${E_OUT_C} -DNAME=${E_NAME} "-DFILES=${E_FILES}"
            -P "${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake"
    DEPENDS ${E_FILES} "${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake"
    COMMENT "Embedding ${E_NAME}"
    VERBATIM)
endfunction()
