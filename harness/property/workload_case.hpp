#pragma once
/// One generated case of a property gate: a workload (docs/workload.md),
/// how the run ends, and stdout's sink; and what it runs as: the driver's
/// arguments, the cut and the fault. property_gen.hpp generates and shrinks
/// these; fields a case's end does not use are ignored, so that shrinking
/// them changes nothing (key() is the same).
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "property_spec.hpp"

namespace flushcheck {

/// One step of a workload before its end.
struct workload_op {
  enum class kind { log, flush, sleep };
  kind what = kind::log;
  int level = 0;   ///< log: workload_levels()'s index
  long bytes = 0;  ///< log: the record's size
  int ms = 0;      ///< sleep
  /// "log info 40", "flush", "sleep 5".
  std::string text() const;
};

struct workload_case {
  std::vector<workload_op> ops;
  property_end end = property_end::return_;
  sink_kind sink = sink_kind::pipe;  ///< stdout's
  int threads = 0;  ///< K > 1: `threads K` before op threads_at (not with a marker cut)
  std::size_t threads_at = 0;
  kill_plan::when_kind cut =
      kill_plan::when_kind::marker;  ///< TERM and KILL: marker, write or time
  std::string fault = "ENOSPC";      ///< fault: ENOSPC, EIO, EAGAIN or short
  /// write and fault: the (AT+1)-th write; time: AT * 5 ms after the start.
  long at = 0;
  std::size_t marker_at = 0;  ///< marker: before this op (at most the ops' count)
};

/// For RapidCheck's reports (RC_GTEST_PROP prints the shrunk case so).
void showValue(const workload_case& c, std::ostream& os);

/// What a case is once its unused fields are dropped: what runs and what
/// its promise counts.
struct case_plan {
  std::vector<std::string> workload;  ///< the driver's extra arguments, one op each
  std::string cut = "never";          ///< kill_plan text
  std::optional<std::string> fault;   ///< fault_plan text ("{logdir}" for a log file)
  std::string end;                    ///< for people: "KILL at marker 1 (after op 3)"
  sink_kind sink = sink_kind::pipe;
  bool threaded = false;
  /// Log ops before the end (for a marker cut: before the marker); for a
  /// write or time cut, every log op (what may have been logged).
  long logged = 0;
  bool logged_exactly = true;  ///< false for a write or time cut: LOGGED is an upper bound
  /// Records before the last flush and, per level, before the last record
  /// at that level or above: counted before `threads` only (after it, order
  /// between threads is not the workload's).
  long before_last_flush = 0;
  long through_level[4] = {0, 0, 0, 0};
  /// The end has no cut or fault (max_writes_per_record applies).
  bool ordinary = true;
  /// Everything that decides a run: equal keys, equal runs.
  std::string key() const;
};

case_plan plan_of(const property_spec& spec, const workload_case& c);

/// "write:N" at the N-th write to SPEC's records' stream, as --kill and
/// --fault take it: "stderr:write:N" for stderr, and for a log file
/// "file:{logdir}/*NAME*:write:N", a glob in the log directory (gate_run
/// replaces "{logdir}") that finds it as watch does, NAME's glob
/// characters escaped.
std::string nth_write_to(const property_spec& spec, long n);

}  // namespace flushcheck
