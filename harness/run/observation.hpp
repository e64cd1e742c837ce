#pragma once
/// Everything one run saw, as one value.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kill_plan.hpp"
#include "stream_observation.hpp"
#include "trace.hpp"
#include "wait_status.hpp"

namespace flushcheck {

/// A marker the program reached (docs/markers.md).
struct marker_event {
  std::string label;
  std::int64_t t_us = 0;
  /// Bytes of each stream at the reader while the child waited at the marker.
  std::size_t stdout_visible = 0;
  std::size_t stderr_visible = 0;
};

struct observation {
  std::vector<std::string> argv;
  wait_status status = wait_status::exited(0);
  std::optional<kill_event> kill;
  stream_observation out;
  stream_observation err;
  std::vector<marker_event> markers;
  /// What the run saw that a reader should know (held-open sinks, killed
  /// leftovers); the CLI adds the environment's buffering variables.
  std::vector<std::string> notes;
  /// Why what the run saw is the harness's failure, not the program's: a
  /// file sink's file system full when the run ended (its writes may have
  /// failed with ENOSPC).
  /// "": none. `run` exits 4 after its report; a gate never makes it a verdict.
  std::string harness_failure;
  std::int64_t duration_us = 0;
  /// The program's peak resident set in KiB, or its largest waited-for
  /// descendant's (wait4's ru_maxrss); -1 for a traced or timed-out run.
  long peak_rss_kib = -1;
  std::optional<trace_summary> trace;  ///< with run_options::trace
};

}  // namespace flushcheck
