# The portable build (ci/portable, docs/portable.md): one flushcheck binary,
# static-pie over glibc's libc.a, that runs in any x86-64 Linux root and
# builds its targets there with that root's compilers (target_build.hpp).
# Every library is linked from its static archive (Debian's -dev packages
# carry them); toml++ is used header-only, as Debian ships it only shared.
# Included twice: PHASE before (before the packages are found) and after.
if(FLUSHCHECK_PORTABLE_PHASE STREQUAL "before")
  set(FLUSHCHECK_BUILD_TESTS OFF CACHE BOOL "Build the test suites" FORCE)
  set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
  set(Boost_USE_STATIC_LIBS ON)
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  find_path(FLUSHCHECK_TOML_INCLUDE toml++/toml.h REQUIRED)
  add_library(tomlplusplus::tomlplusplus INTERFACE IMPORTED)
  set_target_properties(tomlplusplus::tomlplusplus PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${FLUSHCHECK_TOML_INCLUDE}
    INTERFACE_COMPILE_DEFINITIONS TOML_HEADER_ONLY=1)
else()
  # libbpf.a needs what its .pc names private: libelf and zlib.
  if(TARGET PkgConfig::LIBBPF)
    set(extra ${LIBBPF_STATIC_LIBRARIES})
    list(REMOVE_ITEM extra bpf)
    set_property(TARGET PkgConfig::LIBBPF APPEND PROPERTY INTERFACE_LINK_LIBRARIES ${extra})
  endif()
endif()
