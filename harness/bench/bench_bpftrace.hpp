#pragma once
// bpftrace, counting a program's write(2) calls as issue 40's yardstick did:
// the tracepoint syscalls:sys_enter_write, a comm filter, a count per pid
// (the `tracer` suite's bpftrace rows).
#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>

#include "child.hpp"
#include "unique_fd.hpp"

namespace flushcheck::detail {

/// Why bpftrace cannot count here ("" if it can): not installed.
std::string bpftrace_unavailable_reason();

/// One bpftrace, attached from the construction (it compiles its script
/// first: about a second) to finish(): every syscall of the machine is taxed
/// meanwhile, so the suite times its rows in a block of their own.
class bpftrace_session {
 public:
  /// Counts the writes of processes named COMM (15 bytes at most, as the
  /// kernel keeps it). Throws harness_error if COMM holds a quote or a
  /// backslash, or bpftrace ends before it attaches (its last line says
  /// why), or does not attach within 60 s: the row is then not measured.
  explicit bpftrace_session(const std::string& comm);
  /// Stops it (its exit(), which a close(2) of the harness's sets off: not
  /// SIGINT, which bpftrace 0.17 can lose) and returns its write count per pid, as its END probe
  /// printed them; it is killed if it has not ended 10 s after. Throws
  /// harness_error if it printed no counts within 30 s.
  std::map<pid_t, long> finish();

 private:
  unique_fd out_;  ///< read end of its stdout
  child_process child_;
  std::string text_;     ///< what it printed so far (at most 1 MiB)
  bool closed_ = false;  ///< it closed its stdout: it is ending
  /// Reads what it printed by DEADLINE; false at the deadline or its end.
  bool read_some(std::chrono::steady_clock::time_point deadline);
  /// Reads what it prints until TEXT is in it (false: its end, or TIMEOUT_MS).
  bool read_until(const std::string& text, int timeout_ms);
};

}  // namespace flushcheck::detail
