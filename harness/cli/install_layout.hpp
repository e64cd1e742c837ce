#pragma once
// Where the flushcheck command finds what it runs: its own path, and the
// targets (script targets, toolchain sets, runtimes' scripts, bench programs)
// beside it when it is installed, or in the build tree it was built in.
#include <string>

namespace flushcheck::cli {

/// The path of this binary (from /proc/self/exe), or "" if /proc cannot say.
std::string this_binary();

/// The targets' directory: BIN/../lib/flushcheck when this binary is an
/// installed one (the Debian package, `cmake --install`), else the build
/// tree's targets/ (FLUSHCHECK_BUILD_TARGETS_DIR, a compile-time path).
std::string default_targets_dir();

}  // namespace flushcheck::cli
