#pragma once
/// The one clock of a run: the run loop, the reader and the tracer time what
/// they see from the run's start on it, in microseconds (the observation's
/// t_us fields, the trace's events, the reader's chunks).
#include <chrono>
#include <cstdint>

namespace flushcheck::detail {

using run_clock = std::chrono::steady_clock;

/// Microseconds from START to AT on the run's clock.
inline std::int64_t micros_since(run_clock::time_point start,
                                 run_clock::time_point at = run_clock::now()) {
  return std::chrono::duration_cast<std::chrono::microseconds>(at - start).count();
}

}  // namespace flushcheck::detail
