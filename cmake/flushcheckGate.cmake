# flushcheck_add_gate(NAME SOURCES src... [LIBRARIES lib...] [PROGRAMS target...]
#                     [LABELS label...] [TIMEOUT seconds])
#
# Builds the GoogleTest program NAME from SOURCES (linked with
# flushcheck::harness, GTest and LIBRARIES), passes the path of each program
# it runs as FLUSHCHECK_PROGRAM_<TARGET> (upper case, '-' as '_'), and
# registers each of its test cases with ctest (label "gate" and LABELS).
# Installed with the package (find_package(flushcheck)); docs/gate.md.
include(GoogleTest)
set(_flushcheck_gate_file_template "${CMAKE_CURRENT_LIST_DIR}/flushcheckGateFile.cmake.in")

function(flushcheck_add_gate name)
  cmake_parse_arguments(arg "" "TIMEOUT" "SOURCES;LIBRARIES;PROGRAMS;LABELS" ${ARGN})
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  if(NOT TARGET GTest::gtest_main)
    find_package(GTest REQUIRED)
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_compile_features(${name} PRIVATE cxx_std_20)
  target_link_libraries(${name} PRIVATE flushcheck::harness GTest::gtest GTest::gtest_main
                        ${arg_LIBRARIES})
  foreach(p IN LISTS arg_PROGRAMS)
    string(TOUPPER "${p}" up)
    string(MAKE_C_IDENTIFIER "${up}" up)
    target_compile_definitions(${name} PRIVATE "FLUSHCHECK_PROGRAM_${up}=\"$<TARGET_FILE:${p}>\"")
    add_dependencies(${name} ${p})
  endforeach()
  # One label: gtest_discover_tests (CMake 3.25) splits ';' in PROPERTIES.
  string(JOIN "/" labels gate ${arg_LABELS})
  gtest_discover_tests(${name} PROPERTIES LABELS "${labels}" TIMEOUT ${arg_TIMEOUT}
                       DISCOVERY_TIMEOUT 30)
endfunction()

# flushcheck_add_gate_file(NAME FILE [PROGRAMS target...] [VARS NAME=VALUE...]
#                          [ARGS arg...] [LABELS label...] [TIMEOUT seconds])
#
# Registers each case of the gate file FILE (TOML, docs/gate.md) as the
# ctest test NAME.CASE, which runs `flushcheck gate FILE --case CASE`
# (labels "gate" and LABELS). "{TARGET}" in the file's strings is the path
# of each target in PROGRAMS (`--var TARGET=PATH`), "{NAME}" each VALUE of
# VARS (a directory, a class path), and ARGS are added to each test's run
# (`--cases 1000 --seed 1`), not to its listing. The cases are read with
# `flushcheck gate FILE --list` when ctest loads the tests, so a case added
# to the file is a test without reconfiguring; a file that does not parse is
# one failing test, which says why.
function(flushcheck_add_gate_file name file)
  cmake_parse_arguments(arg "" "TIMEOUT" "LABELS;PROGRAMS;VARS;ARGS" ${ARGN})
  set(vars "")
  foreach(p IN LISTS arg_PROGRAMS)
    string(APPEND vars " --var [==[${p}=$<TARGET_FILE:${p}>]==]")
  endforeach()
  foreach(v IN LISTS arg_VARS)
    string(APPEND vars " --var [==[${v}]==]")
  endforeach()
  set(args "")
  foreach(a IN LISTS arg_ARGS)
    string(APPEND args " [==[${a}]==]")
  endforeach()
  set(timeout 120)
  if(arg_TIMEOUT)
    set(timeout ${arg_TIMEOUT})
  endif()
  get_filename_component(file "${file}" ABSOLUTE)
  string(JOIN "/" labels gate ${arg_LABELS})  # one label, as flushcheck_add_gate's
  file(READ "${_flushcheck_gate_file_template}" template)
  string(CONFIGURE "${template}" script @ONLY)
  # One script per configuration (the CLI's path differs); ctest includes
  # the one of the configuration it tests (-C), else the build type's (a
  # multi-config generator needs -C, as for any of its tests).
  set(base "${CMAKE_CURRENT_BINARY_DIR}/${name}_gate_file")
  file(GENERATE OUTPUT "${base}_$<CONFIG>.cmake" CONTENT "${script}")
  file(WRITE "${base}.cmake"
       "if(EXISTS \"${base}_\${CTEST_CONFIGURATION_TYPE}.cmake\")\n"
       "  include(\"${base}_\${CTEST_CONFIGURATION_TYPE}.cmake\")\n"
       "elseif(EXISTS \"${base}_${CMAKE_BUILD_TYPE}.cmake\")\n"
       "  include(\"${base}_${CMAKE_BUILD_TYPE}.cmake\")\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${base}.cmake")
endfunction()
