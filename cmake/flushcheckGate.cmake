# flushcheck_add_gate(NAME SOURCES src... [LIBRARIES lib...] [PROGRAMS target...]
#                     [LABELS label...] [TIMEOUT seconds])
#
# Builds the GoogleTest program NAME from SOURCES (linked with
# flushcheck::harness, GTest and LIBRARIES), passes the path of each program
# it runs as FLUSHCHECK_PROGRAM_<TARGET> (upper case, '-' as '_'), and
# registers each of its test cases with ctest (label "gate" and LABELS).
# Installed with the package (find_package(flushcheck)); docs/gate.md.
include(GoogleTest)

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
