#pragma once
// The floor of any ptrace tracer: a child with a seccomp filter that stops it
// at each write(2) and a loop that only continues it (the `tracer` suite's
// yardstick for the flushcheck tracer, and property_bench's for the runner).
#include <string>
#include <vector>

namespace flushcheck::detail {

/// The bare loop's program and where it writes.
struct bare_child {
  std::vector<std::string> argv;
  char* const* envp = nullptr;  ///< its environment; nullptr: this process's
  int out = -1;                 ///< its stdout; -1: /dev/null
  int err = -1;                 ///< its stderr; -1: this process's
  /// Its fd 3, one end of a marker channel (docs/markers.md) whose other
  /// end is ANSWER; -1: none. A write to fd 3 is a marker line, answered
  /// with the byte that releases it, as the harness answers it.
  int marker = -1;
  int answer = -1;
  /// The CPU the loop and the program run on; -1: preferred_cpu(), where
  /// the calling thread runs (cpu_pin.hpp). A loop on another thread than
  /// its caller's is given the caller's, as the tracer is.
  int cpu = -1;
};

/// Runs CHILD under the bare loop, on CHILD's CPU as the tracer runs,
/// for at most 300 s; returns the stops it handled (its write calls), or -1
/// when the program did not run and exit 0. The loop reads no sink: what
/// the program writes must fit in its sinks until the caller reads them.
long bare_ptrace_loop(const bare_child& child);

}  // namespace flushcheck::detail
