#pragma once
// The target set a test binary runs: built once per toolchain set
// (tests/CMakeLists.txt) with FLUSHCHECK_TOOLCHAIN_DIR naming that set's
// targets; without it, the default build's.
#include "flushcheck/conformance.hpp"

namespace flushcheck {

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
