#pragma once
// The floor of any ptrace tracer: a child with a seccomp filter that stops it
// at each write(2) and a loop that only continues it (the `tracer` suite's
// yardstick for the flushcheck tracer).
#include <string>
#include <vector>

namespace flushcheck::detail {

/// Runs ARGV (stdout on /dev/null) under the bare loop, on the caller's CPU
/// as the tracer runs; returns the stops it handled (its write calls).
long bare_ptrace_loop(const std::vector<std::string>& argv);

}  // namespace flushcheck::detail
