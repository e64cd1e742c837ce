# The Debian package, built by ci/package with CPack's DEB generator from a
# clean checkout. Its version is the project's (CMakeLists.txt, project()):
# flushcheck_VERSION_amd64.deb. Depends come from dpkg-shlibdeps; the runtimes
# whose rows the matrix has, strace and the man reader are Recommends or
# Suggests, as are the packages a gate built with find_package(flushcheck)
# needs (a compiler, CMake and the libraries' -dev packages).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME flushcheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "test buffering semantics of programs from the outside")
set(CPACK_PACKAGE_DESCRIPTION
  "flushcheck starts a real program with its stdout and stderr on a pty, a pipe, a file,
/dev/null or /dev/full, stops or kills it at an exact point (a marker, the N-th
write system call, a time), and reports what survived, when output appeared, in
which order, and how many write(2) calls it took, counted by its own ptrace
tracer. It carries a conformance matrix of the C and C++ libraries' buffering
(glibc, musl, libstdc++), doctor for programs whose logs go missing, and gates
for logging libraries, with a C++ API and a CMake package for CI.")
set(CPACK_PACKAGE_CONTACT "flushcheck developers <flushcheck@localhost>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "flushcheck developers <flushcheck@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, strace, man-db")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
  "nodejs, perl, ruby, default-jre-headless, g++, cmake, pkg-config,
   libboost-filesystem-dev, libboost-regex-dev, nlohmann-json3-dev, libtomlplusplus-dev,
   libseccomp-dev, libxxhash-dev, libbpf-dev, zlib1g-dev, librapidcheck-dev, libgtest-dev")
string(REGEX REPLACE "[ \n]+" " " CPACK_DEBIAN_PACKAGE_SUGGESTS "${CPACK_DEBIAN_PACKAGE_SUGGESTS}")
set(CPACK_STRIP_FILES ON)
include(CPack)
