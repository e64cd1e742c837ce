#pragma once
// The target set a test binary runs: built once per toolchain set
// (tests/CMakeLists.txt) with FLUSHCHECK_TOOLCHAIN_DIR naming that set's
// targets; without it, the default build's.
#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>

#include "conformance.hpp"

namespace flushcheck {

/// GoogleTest prints a case parameter by its id.
inline void PrintTo(const property_case& c, std::ostream* os) { *os << c.id(); }

/// A case's test name: its id with every other character than letters and
/// digits as '_' ("stdout_fully_buffered_c_pipe").
inline std::string case_name(const ::testing::TestParamInfo<property_case>& info) {
  std::string id = info.param.id();
  for (char& ch : id)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return id;
}

inline const target_set& test_target_set() {
  static const target_set set = [] {
#ifdef FLUSHCHECK_TOOLCHAIN_DIR
    return probe_target_dir(FLUSHCHECK_TOOLCHAIN_NAME, FLUSHCHECK_TOOLCHAIN_DIR).value();
#else
    return probe_target_set("default", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                            FLUSHCHECK_TARGET_IOSTREAM_SCRIPT);
#endif
  }();
  return set;
}

}  // namespace flushcheck
