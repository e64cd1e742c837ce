#pragma once
/// Errors of the harness. Each kind maps to one exit code of the CLI.
#include <stdexcept>
#include <string>
#include <system_error>

namespace flushcheck {

/// Bad flags or a bad kill plan: CLI exit 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The program could not be started (missing, not executable, exec failed): exit 3.
struct spawn_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The harness itself failed (an OS call that should not fail did): exit 4.
struct harness_error : std::system_error {
  using std::system_error::system_error;
};

/// Throws harness_error for EC with WHAT as the operation that failed.
[[noreturn]] void throw_error(std::error_code ec, const std::string& what);

/// throw_error with the current errno.
[[noreturn]] void throw_errno(const std::string& what);

}  // namespace flushcheck
