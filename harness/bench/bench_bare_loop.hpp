#pragma once
// The floor of any ptrace tracer: a child with a seccomp filter that stops it
// at each write(2) and a loop that only continues it (the `tracer` suite's
// yardstick for the flushcheck tracer).
#include <string>
#include <vector>

namespace flushcheck::detail {

/// Runs ARGV (stdout on /dev/null) under the bare loop, on the caller's CPU
/// as the tracer runs, for at most 300 s; returns the stops it handled (its
/// write calls), or -1 when the program did not run and exit 0.
long bare_ptrace_loop(const std::vector<std::string>& argv);

}  // namespace flushcheck::detail
