include(GoogleTest)

# flushcheck_add_test(NAME SOURCES src... [LIBRARIES lib...] [LABELS label...]
#                     [TARGETS target...] [PREFIX test-name-prefix/]
#                     [ENVIRONMENT VAR=value] [TIMEOUT seconds] [SECTIONS section...]
#                     [RESOURCE_LOCK name])
# Builds one GoogleTest binary, passes the paths of the programs it runs as
# FLUSHCHECK_TARGET_<NAME> compile definitions ($<TARGET_FILE:...>), and
# registers every test case with ctest under the given labels.
function(flushcheck_add_test name)
  cmake_parse_arguments(arg "" "PREFIX;ENVIRONMENT;TIMEOUT;RESOURCE_LOCK"
                        "SOURCES;LIBRARIES;LABELS;TARGETS;SECTIONS" ${ARGN})
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  set(env_property "")
  if(arg_ENVIRONMENT)
    set(env_property ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
  if(arg_RESOURCE_LOCK)  # tests that must not run beside each other
    list(APPEND env_property RESOURCE_LOCK "${arg_RESOURCE_LOCK}")
  endif()
  add_executable(${name} ${arg_SOURCES})
  flushcheck_set_warnings(${name})
  flushcheck_sanitize(${name})
  target_link_libraries(${name} PRIVATE flushcheck::harness GTest::gtest GTest::gtest_main
                        ${arg_LIBRARIES})
  # tests/: the helpers every stage's tests share (test_targets.hpp, cli_runner.hpp)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE "FLUSHCHECK_SOURCE_DIR=\"${PROJECT_SOURCE_DIR}\"")
  foreach(t IN LISTS arg_TARGETS)
    string(TOUPPER "${t}" up)
    target_compile_definitions(${name} PRIVATE "FLUSHCHECK_TARGET_${up}=\"$<TARGET_FILE:${t}>\"")
    add_dependencies(${name} ${t})
  endforeach()
  # gtest_discover_tests (CMake 3.25) splits every ';' in PROPERTIES, so
  # several labels become one, joined by '/': ctest -L matches regexes, so
  # both "-L conformance" and "-L toolchain:musl" still select it.
  string(JOIN "/" labels ${arg_LABELS})
  # SECTIONS: the catalogue's cases of section S get the label S too, so that
  # `ctest -L pipe` selects them; one discovery per section, and one for the
  # rest. A case's test name is its property's name with '.' as '_'
  # (".holds/pipe_capacity_..."), so this keys on the name's prefix, which
  # is the section (the property's group) for every property of these sections.
  foreach(section IN LISTS arg_SECTIONS)
    gtest_discover_tests(${name}
      TEST_PREFIX "${arg_PREFIX}" TEST_FILTER "*.holds/${section}_*"
      TEST_LIST ${name}_${section}_TESTS
      PROPERTIES LABELS "${labels}/${section}" TIMEOUT ${arg_TIMEOUT} ${env_property}
      DISCOVERY_TIMEOUT 30)
  endforeach()
  set(filter_property "")
  if(arg_SECTIONS)
    string(REPLACE ";" "_*:*.holds/" filter "${arg_SECTIONS}")
    set(filter_property TEST_FILTER "-*.holds/${filter}_*")
  endif()
  gtest_discover_tests(${name}
    TEST_PREFIX "${arg_PREFIX}" ${filter_property}
    PROPERTIES LABELS "${labels}" TIMEOUT ${arg_TIMEOUT} ${env_property}
    DISCOVERY_TIMEOUT 30)
endfunction()
