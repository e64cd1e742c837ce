#pragma once
// "When output appears": the reader's chunks against the program's write
// calls to that stream's sink (the tracer's event log, on the same clock).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "observation.hpp"

namespace flushcheck::detail {

/// Writes to the sink of ROLE (stream_role::out or err, shared or not) that had entered, and
/// (with --timeline) returned, when a chunk arrived; -1 for a chunk after the
/// last event the log kept (trace_summary::events_dropped).
struct chunk_writes {
  std::int64_t entered = 0;
  std::int64_t returned = 0;
};
std::vector<chunk_writes> writes_before_chunks(const trace_summary& t, stream_role role,
                                               const std::vector<chunk>& chunks);

/// The timed write to stdout's sink that blocked longest (--timeline).
struct blocked_write {
  std::int64_t number = 0;  ///< its number among the writes to the sink (1-based)
  std::int64_t t_us = 0;    ///< when it entered
  std::int64_t blocked_us = 0;
  std::int64_t bytes = 0;
};
struct write_timing {
  std::int64_t timed = 0;           ///< writes to stdout's sink with a known return
  std::int64_t never_returned = 0;  ///< entered, never returned (the program died in it)
  std::int64_t blocked_us = 0;      ///< in all
  std::optional<blocked_write> longest;
};
/// All zero unless the writes were timed.
write_timing stdout_write_timing(const trace_summary& t);

}  // namespace flushcheck::detail
