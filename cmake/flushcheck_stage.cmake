# flushcheck_add_stage(NAME [SOURCES src...] [STAGES lower-stage...]
#                      [PRIVATE target...] [INSTALL_HEADERS header...])
# One stage of the harness (docs/architecture.md): a static library
# flushcheck_NAME (alias flushcheck::NAME) built from the folder's sources.
# Its folder is its include directory, seen only by the stages that link it:
# a header of a higher stage is not on a lower stage's path, so an upward
# include fails to build. STAGES are the stages below it that it uses;
# INSTALL_HEADERS are its part of the installed public API (the gate API and
# what it includes), installed flat into include/flushcheck.
function(flushcheck_add_stage name)
  cmake_parse_arguments(arg "" "" "SOURCES;STAGES;PRIVATE;INSTALL_HEADERS" ${ARGN})
  set(lib flushcheck_${name})
  add_library(${lib} STATIC ${arg_SOURCES})
  add_library(flushcheck::${name} ALIAS ${lib})
  target_include_directories(${lib} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  foreach(low IN LISTS arg_STAGES)
    if(NOT TARGET flushcheck_${low})
      message(FATAL_ERROR "stage ${name} links ${low}, which is not a stage below it "
                          "(harness/CMakeLists.txt adds the stages lowest first)")
    endif()
  endforeach()
  list(TRANSFORM arg_STAGES PREPEND flushcheck_)
  target_link_libraries(${lib} PUBLIC ${arg_STAGES} PRIVATE ${arg_PRIVATE})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${name})
  flushcheck_set_warnings(${lib})
  flushcheck_sanitize(${lib})
  install(FILES ${arg_INSTALL_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/flushcheck)
  set_property(GLOBAL APPEND PROPERTY FLUSHCHECK_STAGES ${lib})
endfunction()
