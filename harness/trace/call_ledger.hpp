#pragma once
// The tracer's ledger: what the traced calls did, in the summary's terms.
// Each call that stops is logged in order (an event), and each that runs is
// counted: per call, per destination, and for the write family its bytes
// and sizes. Some of it is known only at the call's exit: the bytes of a
// byte_count::result call (sendfile, splice, ...) and, when writes are
// timed, when a write returned and what. The write:N cut's call is logged
// as stopped and counted only if it is made after all.
#include <sys/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "call_decoder.hpp"
#include "fd_table.hpp"
#include "trace.hpp"

namespace flushcheck::detail {

class call_ledger {
 public:
  /// Events kept; more are only counted (trace_summary::events_dropped).
  static constexpr std::size_t max_events = 1000000;
  /// An event past the log's end: it was dropped.
  static constexpr std::size_t dropped = SIZE_MAX;

  /// Counts into the destinations of FDS; TIMED says which destinations'
  /// writes are timed (none when empty).
  call_ledger(fd_table& fds, std::function<bool(const destination_counters&)> timed)
      : fds_(fds), timed_(std::move(timed)) {}

  /// Logs call C of thread P, at T_US, to destination D (-1: none): its
  /// event's index, or `dropped`.
  std::size_t log(std::int64_t t_us, pid_t p, const decoded_call& c, int d);
  /// Call C of P, logged as EVENT, runs: it is counted.
  void count(pid_t p, const decoded_call& c, int d, std::size_t event);
  /// Call C of P, logged as EVENT at T_US, is the write:N cut's: stopped at
  /// its entry, it never runs now and is not counted.
  void stop(std::int64_t t_us, pid_t p, const decoded_call& c, int d, std::size_t event);
  /// The stopped call is made after all by P (a caught signal's handler
  /// returned): it runs, and is counted.
  void rerun(pid_t p);

  /// Whether P's call must stop at its exit: a result to read, a return to time.
  bool needs_exit(pid_t p) const { return results_.count(p) != 0 || timed_calls_.count(p) != 0; }
  /// P's call returned RESULT (-errno on failure), at T_US.
  void at_exit(pid_t p, std::int64_t t_us, long result);
  /// P's call in progress is gone (its thread ended, or an exec replaced it):
  /// nothing of it may be applied to the next call that stops there.
  void forget(pid_t p);

  /// What was logged and counted goes into S; the ledger is done.
  void fill(trace_summary& s);

 private:
  void count_bytes(destination_counters& d, std::int64_t bytes);

  fd_table& fds_;
  std::function<bool(const destination_counters&)> timed_;
  std::vector<trace_event> events_;
  std::int64_t events_dropped_ = 0;
  std::array<std::int64_t, traced_call_count> totals_{};
  struct pending {
    int dest;
    std::size_t event;
  };
  std::unordered_map<pid_t, pending> results_;          // byte_count::result calls in progress
  std::unordered_map<pid_t, std::size_t> timed_calls_;  // timed writes in progress: their events
  struct stopped_call {
    decoded_call call;
    int dest;
    std::size_t event;
  };
  std::optional<stopped_call> stopped_;
  std::optional<trace_event> stopped_event_;
};

}  // namespace flushcheck::detail
