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

/// Keeps the syscall tracepoints' probes registered while it lives, so that
/// the runs a command makes one after another open their counters in
/// microseconds instead of paying a registration and an unregistration
/// each (RCU grace periods: about 0.5 s for the write family's tracepoints
/// here, docs/tracing.md). Registered, the probes tax every syscall on the
/// machine: hold it across a batch of counted runs only.
class perf_attachment {
 public:
  perf_attachment();
  ~perf_attachment();
  perf_attachment(const perf_attachment&) = delete;
  perf_attachment& operator=(const perf_attachment&) = delete;
};

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
  perf_attachment attached_;
  std::vector<counter> counters_;
};

}  // namespace flushcheck
