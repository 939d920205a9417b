# gemmhost_add_plugin(<name> SOURCES ...): builds gemmhost-<name>.so into the
# build tree's plugin folder with every symbol hidden but the entry, and
# installs it next to the other plugins.
function(gemmhost_add_plugin name)
  cmake_parse_arguments(P "" "" "SOURCES" ${ARGN})
  set(target gemmhost-${name})
  add_library(${target} MODULE ${P_SOURCES})
  target_include_directories(${target} PRIVATE "${CMAKE_SOURCE_DIR}/core/include")
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY "${GEMMHOST_PLUGIN_BUILD_DIR}")
  # A plugin must not leave symbols to be resolved from the host.
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  install(TARGETS ${target} LIBRARY DESTINATION "${GEMMHOST_PLUGIN_INSTALL_SUBDIR}")
endfunction()
