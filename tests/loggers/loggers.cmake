# The logging libraries of Go, Rust, Java, Node, Python and C++ beside the
# first seven (tests/CMakeLists.txt): a driver each in its library's
# workload mode (targets/loggers/), gated by the promises its documentation
# makes (tests/loggers/LIB.property.toml, labels loggers and property), and
# the same properties at 1,000 cases from seed 1 (label slow: `ctest -L
# slow -R _1000`, README). Every library comes from Debian or npm; one that
# is not installed is a test that skips and names it (Rust's crates, Log4j 2
# and logback also at a version other than the driver's, below). Not in the sanitizer builds: the
# drivers are the libraries' code, and the harness's own is sanitized by the
# gate's tests.
if(FLUSHCHECK_SANITIZE OR FLUSHCHECK_SANITIZE_THREAD)
  return()
endif()
set(loggers_src ${PROJECT_SOURCE_DIR}/targets/loggers)
set(loggers_out ${CMAKE_CURRENT_BINARY_DIR}/loggers)

# flushcheck_logger_property(LIB FOUND WHY [PROGRAMS target...] [VARS NAME=VALUE...])
# LIB's property file as tests, or a skip saying WHY when not FOUND.
function(flushcheck_logger_property lib found why)
  cmake_parse_arguments(arg "" "" "PROGRAMS;VARS" ${ARGN})
  if(NOT found)
    string(REPLACE ";" ", " why "${why}")  # one argument: the message is $0, never shell text
    add_test(NAME loggers.${lib}.not_available COMMAND sh -c "echo \"skipped: $0\"; exit 77" "${why}")
    set_tests_properties(loggers.${lib}.not_available PROPERTIES SKIP_RETURN_CODE 77
      LABELS loggers)
    return()
  endif()
  # ctest's TIMEOUT is a net under the gate's own budget: a property takes
  # about 2 x its max_seconds (search, shrinking, rating), 300 s at most here.
  flushcheck_add_gate_file(${lib}_property loggers/${lib}.property.toml PROGRAMS ${arg_PROGRAMS}
                           VARS ${arg_VARS} LABELS loggers property TIMEOUT 700)
  flushcheck_add_gate_file(${lib}_property_1000 loggers/${lib}.property.toml
                           PROGRAMS ${arg_PROGRAMS} VARS ${arg_VARS}
                           ARGS --cases 1000 --seed 1 --max-seconds 3600
                           LABELS loggers property slow TIMEOUT 7200)
endfunction()

# Go: a driver each, built in GOPATH mode against the workload helper and
# Debian's packages under /usr/share/gocode (golang-*-dev).
set(go_path ${PROJECT_SOURCE_DIR}/targets/runtimes/go:/usr/share/gocode)
foreach(spec "zap;go.uber.org/zap;golang-go.uber-zap-dev"
             "zerolog;github.com/rs/zerolog/diode;golang-github-rs-zerolog-dev"
             "logrus;github.com/sirupsen/logrus;golang-github-sirupsen-logrus-dev"
             "slog;golang.org/x/exp/slog;golang-golang-x-exp-dev"
             "stdlog;;golang-go")
  list(GET spec 0 lib)
  list(GET spec 1 package)
  list(GET spec 2 debian)
  set(property ${lib})
  if(lib STREQUAL "slog")
    set(property go_slog)  # Rust has a slog too
  endif()
  set(found FALSE)
  if(FLUSHCHECK_GO AND (package STREQUAL "" OR EXISTS /usr/share/gocode/src/${package}))
    set(found TRUE)
    file(GLOB driver_sources ${loggers_src}/go/${lib}_logger/*.go)
    add_custom_command(OUTPUT ${loggers_out}/${lib}_logger
      COMMAND ${CMAKE_COMMAND} -E env GOCACHE=${loggers_out}/gocache GOPATH=${go_path}
              GO111MODULE=off GOFLAGS= ${FLUSHCHECK_GO} build -o ${loggers_out}/${lib}_logger .
      COMMAND ${CMAKE_COMMAND} -E env GOCACHE=${loggers_out}/gocache GOPATH=${go_path}
              GO111MODULE=off GOFLAGS= ${FLUSHCHECK_GO} vet .
      DEPENDS ${driver_sources}
              ${PROJECT_SOURCE_DIR}/targets/runtimes/go/src/flushcheck/workload/workload.go
              ${PROJECT_SOURCE_DIR}/targets/runtimes/go/src/flushcheck/loggermain/loggermain.go
      WORKING_DIRECTORY ${loggers_src}/go/${lib}_logger COMMENT "go build ${lib}_logger")
    add_custom_target(${lib}_go_logger ALL DEPENDS ${loggers_out}/${lib}_logger)
  endif()
  flushcheck_logger_property(${property} "${found}"
    "Go's ${lib} not found (Debian: ${debian}; ci/setup installs it)"
    VARS ${lib}_logger=${loggers_out}/${lib}_logger)
endforeach()

# Rust: one crate of four drivers, built offline with Debian's rustc and
# cargo against Debian's librust-*-dev crates (crates.io replaced by
# /usr/share/cargo/registry), in the build tree (a copy: the source tree is
# not written). Written for Debian 12's majors; another release's are said.
set(rust_found TRUE)
set(rust_missing "")
foreach(crate log-0.4 env_logger-0.9 fern-0.6 slog-2 slog-term-2 slog-async-2 tracing-0.1
              tracing-subscriber-0.3)
  file(GLOB have LIST_DIRECTORIES true /usr/share/cargo/registry/${crate}.*)
  if(NOT have)
    set(rust_found FALSE)
    list(APPEND rust_missing ${crate})
  endif()
endforeach()
if(NOT EXISTS /usr/bin/cargo OR NOT FLUSHCHECK_RUSTC)
  set(rust_found FALSE)
  list(APPEND rust_missing cargo)
endif()
if(rust_found)
  set(crate ${loggers_out}/targets/loggers/rust)  # its path dependency: ../../runtimes/rust
  file(GLOB_RECURSE rust_sources CONFIGURE_DEPENDS ${loggers_src}/rust/src/*.rs)
  file(WRITE ${loggers_out}/cargo/config.toml
       "[source.crates-io]\nreplace-with = \"debian\"\n\n"
       "[source.debian]\ndirectory = \"/usr/share/cargo/registry\"\n")
  set(rust_bins env_logger_logger fern_logger slog_rs_logger tracing_logger)
  list(TRANSFORM rust_bins PREPEND ${loggers_out}/rust-target/release/ OUTPUT_VARIABLE built)
  add_custom_command(OUTPUT ${built}
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${loggers_src}/rust ${crate}
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${PROJECT_SOURCE_DIR}/targets/runtimes/rust
            ${loggers_out}/targets/runtimes/rust
    COMMAND ${CMAKE_COMMAND} -E env PATH=/usr/bin:/bin CARGO_HOME=${loggers_out}/cargo
            CARGO_TARGET_DIR=${loggers_out}/rust-target RUSTC=${FLUSHCHECK_RUSTC}
            RUSTFLAGS=-Dwarnings /usr/bin/cargo build --offline --release -q
            --manifest-path ${crate}/Cargo.toml
    DEPENDS ${rust_sources} ${loggers_src}/rust/Cargo.toml
            ${PROJECT_SOURCE_DIR}/targets/runtimes/rust/flushcheck_workload/src/lib.rs
    WORKING_DIRECTORY ${loggers_out} COMMENT "cargo build the Rust loggers' drivers")
  add_custom_target(rust_loggers ALL DEPENDS ${built})
endif()
foreach(lib env_logger fern slog_rs tracing)
  flushcheck_logger_property(${lib} "${rust_found}"
    "Rust's ${lib} not found (Debian 12's librust-*-dev crates and cargo; missing here: ${rust_missing})"
    VARS ${lib}_logger=${loggers_out}/rust-target/release/${lib}_logger)
endforeach()

# Java: the drivers and the workload helper compiled against Debian's jars.
set(java_jars /usr/share/java/log4j-api.jar /usr/share/java/log4j-core.jar
    /usr/share/java/logback-classic.jar /usr/share/java/logback-core.jar
    /usr/share/java/slf4j-api.jar)
set(java_found FALSE)
if(FLUSHCHECK_JAVAC)
  set(java_found TRUE)
  foreach(jar IN LISTS java_jars)
    if(NOT EXISTS ${jar})
      set(java_found FALSE)
    endif()
  endforeach()
endif()
if(java_found)
  string(JOIN ":" classpath ${java_jars})
  file(GLOB java_sources CONFIGURE_DEPENDS ${loggers_src}/java/*.java)
  # -Xlint:-path: a packaged jar's manifest may name a jar the release no
  # longer ships (Debian testing's logback names jakarta.activation.jar):
  # the packaging's warning, not the drivers'.
  add_custom_command(OUTPUT ${loggers_out}/java/Log4j2Logger.class
    COMMAND ${FLUSHCHECK_JAVAC} --release 11 -Xlint:all,-path -Werror -cp ${classpath}
            -d ${loggers_out}/java ${PROJECT_SOURCE_DIR}/targets/runtimes/FlushcheckWorkload.java
            ${java_sources}
    DEPENDS ${java_sources} ${PROJECT_SOURCE_DIR}/targets/runtimes/FlushcheckWorkload.java
    COMMENT "javac the Java loggers' drivers")
  add_custom_target(java_loggers ALL DEPENDS ${loggers_out}/java/Log4j2Logger.class)
endif()
# The drivers are written for Debian 12's Log4j 2.19 and logback 1.2 with
# SLF4J 1.7; later releases' (Log4j 2.26 finds no provider on this class
# path, logback 1.6 no SLF4J binding) are a skip that names them.
file(GLOB log4j2_version /usr/share/java/log4j-core-2.19*.jar)
file(GLOB logback_version /usr/share/java/logback-classic-1.2*.jar)
foreach(lib log4j2 logback jul)
  set(found ${java_found})
  set(why "Java's ${lib} not found (Debian: default-jdk-headless, liblog4j2-java, liblogback-java, libslf4j-java)")
  if(java_found AND lib STREQUAL "log4j2" AND NOT log4j2_version)
    set(found FALSE)
    set(why "the Log4j 2 driver is written for Log4j 2.19 (Debian 12); this release has another")
  elseif(java_found AND lib STREQUAL "logback" AND NOT logback_version)
    set(found FALSE)
    set(why "the logback driver is written for logback 1.2 with SLF4J 1.7 (Debian 12); this release has another")
  endif()
  flushcheck_logger_property(${lib} "${found}" "${why}" VARS java_loggers=${loggers_out}/java)
endforeach()

# Node: from the npm registry, at the versions of targets/loggers/node's
# package-lock.json (ci/setup runs npm ci there).
foreach(lib winston bunyan log4js)
  set(found FALSE)
  if(NODE_EXECUTABLE AND EXISTS ${loggers_src}/node/node_modules/${lib}/package.json)
    set(found TRUE)
  endif()
  flushcheck_logger_property(${lib} "${found}"
    "node or ${lib} not found (Debian: nodejs; npm ci in targets/loggers/node: ci/setup does both)")
endforeach()

# Python: Debian's packages, as the harness's python3 (PATH's first) imports them.
foreach(spec "loguru;python3-loguru" "structlog;python3-structlog" "logbook;python3-logbook")
  list(GET spec 0 lib)
  list(GET spec 1 debian)
  execute_process(COMMAND env -i PATH=/usr/local/bin:/usr/bin:/bin python3 -c "import ${lib}"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  set(found FALSE)
  if(rc EQUAL 0)
    set(found TRUE)
  endif()
  flushcheck_logger_property(${lib} "${found}"
    "python3's ${lib} not found (Debian: ${debian}; ci/setup installs it)")
endforeach()

# C++: log4cplus and log4cpp (Debian 12 has no CMake config for them:
# pkg-config), and spdlog's async logger through the spdlog driver of the
# first seven.
pkg_check_modules(LOG4CPLUS QUIET IMPORTED_TARGET log4cplus)
if(LOG4CPLUS_FOUND)
  add_executable(log4cplus_logger ${loggers_src}/log4cplus_logger.cpp
                 ${loggers_src}/logger_main.cpp)
  target_link_libraries(log4cplus_logger PRIVATE PkgConfig::LOG4CPLUS flushcheck::workload)
  flushcheck_set_warnings(log4cplus_logger)
endif()
flushcheck_logger_property(log4cplus "${LOG4CPLUS_FOUND}"
  "log4cplus not found (Debian: liblog4cplus-dev; ci/setup installs it)"
  PROGRAMS log4cplus_logger)
# log4cpp: pkg-config too (Debian 12's liblog4cpp5-dev has no CMake config).
pkg_check_modules(LOG4CPP QUIET IMPORTED_TARGET log4cpp)
if(LOG4CPP_FOUND)
  add_executable(log4cpp_logger ${loggers_src}/log4cpp_logger.cpp ${loggers_src}/logger_main.cpp)
  target_link_libraries(log4cpp_logger PRIVATE PkgConfig::LOG4CPP flushcheck::workload)
  flushcheck_set_warnings(log4cpp_logger)
endif()
flushcheck_logger_property(log4cpp "${LOG4CPP_FOUND}"
  "log4cpp not found (Debian: liblog4cpp5-dev; ci/setup installs it)"
  PROGRAMS log4cpp_logger)
flushcheck_logger_property(spdlog_async "${spdlog_FOUND}"
  "spdlog not found (Debian: libspdlog-dev; ci/setup installs it)" PROGRAMS spdlog_logger)
