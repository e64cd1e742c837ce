#pragma once
// `flushcheck --version`: what a bug report needs to name this build.
#include <string>

namespace flushcheck::cli {

/// "flushcheck 0.1.0 (commit 4b0ba53c1e2f)", then a line per toolchain set
/// found in DIR with its C and C++ library, then one per set not there and
/// why (docs/cli.md, "Version").
std::string version_text(const std::string& dir);
/// Its first line alone: "flushcheck 0.1.0 (commit 4b0ba53c1e2f)\n".
std::string version_line();

}  // namespace flushcheck::cli
