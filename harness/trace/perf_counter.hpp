#pragma once
/// The counting-only backend: perf_event_open on the syscalls:sys_enter_*
/// tracepoints of the write family, inherited by every thread and child. No
/// stop per call (about 0.2 us each instead of ~12 us), no event log, no
/// per-destination table: totals per call, and the calls on fd 1.
#include <sys/types.h>

#include <string>
#include <vector>

#include "trace.hpp"
#include "unique_fd.hpp"

namespace flushcheck {

/// Why the perf backend cannot run here ("" if it can): no tracefs with the
/// syscall tracepoints, or perf_event_open refused.
std::string perf_unavailable_reason();

class perf_counters {
 public:
  /// Opens the counters on PID, which must be stopped before its first
  /// instruction (the exec stop of a PTRACE_TRACEME child). Throws harness_error.
  explicit perf_counters(pid_t pid);
  /// Totals per call and fd 1's writes as a trace_summary (one destination,
  /// "fd 1", role stdout; no events).
  trace_summary read() const;

 private:
  struct counter {
    traced_call call;
    bool fd1;
    unique_fd fd;
  };
  std::vector<counter> counters_;
};

}  // namespace flushcheck
