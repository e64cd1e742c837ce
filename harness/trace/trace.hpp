#pragma once
/// What the syscall tracer saw: write-family calls per destination, in
/// order, counted exactly (ptrace + a seccomp-bpf filter; see docs/tracing.md).
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fault_plan.hpp"
#include "traced_call.hpp"

namespace flushcheck {

/// Whose sink a destination is: a bit per stream, so that stderr sharing
/// stdout's sink (2>&1) is both.
enum class stream_role : unsigned { none = 0, out = 1, err = 2, both = 3 };

constexpr stream_role role_of(bool out, bool err) {
  return static_cast<stream_role>((out ? 1U : 0U) | (err ? 2U : 0U));
}
/// Is R the sink of STREAM (stream_role::out or err), alone or shared?
constexpr bool has(stream_role r, stream_role stream) {
  return (static_cast<unsigned>(r) & static_cast<unsigned>(stream)) != 0;
}
/// "stdout", "stderr", "stdout+stderr" or "": the role in reports and JSON.
constexpr std::string_view to_string(stream_role r) {
  constexpr std::string_view names[] = {"", "stdout", "stderr", "stdout+stderr"};
  return names[static_cast<unsigned>(r) & 3U];
}

struct trace_event {
  std::int64_t t_us = 0;
  int pid = 0;
  traced_call call = traced_call::write;
  int fd = -1;
  std::int64_t bytes = 0;  ///< write family: requested bytes, or the result (byte_count::result)
  int dest = -1;           ///< index in trace_summary::destinations, -1 for none
  /// With tracer_options::time_writes, a write to stdout's sink: when it
  /// returned (-1: not timed, or it never returned) and what (-errno on failure).
  std::int64_t returned_us = -1;
  std::int64_t result = 0;
  /// A write:N cut stopped this call at its entry: it never ran, and is in
  /// no count (trace_summary::stopped).
  bool stopped = false;

  /// The bytes a write put at its destination: what it returned (0 for a
  /// failure) or, not timed, what it asked for.
  std::int64_t bytes_written() const {
    const std::int64_t n = returned_us >= 0 ? result : bytes;
    return n > 0 ? n : 0;
  }
};

/// Counters for one destination (a pipe, a pty, a file, ...), whatever fd
/// numbers and processes reached it.
struct destination_counters {
  std::string what;  ///< "pipe:[1234]", "/dev/pts/3", a path, "socket:[..]"
  stream_role role = stream_role::none;
  std::vector<int> fds;  ///< fd numbers it was written through
  std::array<std::int64_t, traced_call_count> calls{};
  std::int64_t write_calls = 0;  ///< write family only
  std::int64_t bytes = 0;        ///< by the write family (see trace_event::bytes)
  /// Write sizes: bucket k counts sizes in [2^k, 2^(k+1)) (bucket 0: 0 and 1).
  std::array<std::int64_t, 32> size_histogram{};
};

struct trace_summary {
  std::string backend = "ptrace";                  ///< what counted: "ptrace", "perf" or "bpf"
  std::vector<destination_counters> destinations;  ///< in order of first use (bpf: the sinks first)
  std::vector<trace_event> events;                 ///< ordered; capped, see events_dropped
  std::int64_t events_dropped = 0;
  std::int64_t stops = 0;  ///< ptrace stops handled
  int processes = 0;       ///< processes and threads followed
  /// The programs the run exec'd after its own (a pager, a shell's
  /// commands), by /proc/PID/exe, in order, each once; at most max_programs.
  std::vector<std::string> programs;
  static constexpr std::size_t max_programs = 64;
  std::array<std::int64_t, traced_call_count> totals{};  ///< per call, all destinations
  std::vector<fault_result> faults;                      ///< one per fault plan, in the order given
  bool writes_timed = false;  ///< tracer_options::time_writes: returns are in the event log
  /// The call a write:N cut stopped at its entry: it never ran, so it is in
  /// none of the counts above (a caught signal's handler that returns makes
  /// it run after all: then it is counted, and this is empty).
  std::optional<trace_event> stopped;

  /// Write-family calls to stdout's sink (shared with stderr or not) and to
  /// stderr's own sink (not shared).
  std::int64_t stdout_write_calls() const {
    return sum_over(stream_role::out, true, [](const auto& d) { return d.write_calls; });
  }
  std::int64_t stderr_write_calls() const {
    return sum_over(stream_role::err, false, [](const auto& d) { return d.write_calls; });
  }
  /// Was E a call on the sink of STREAM (stream_role::out or err), shared or not?
  bool on(const trace_event& e, stream_role stream) const {
    return e.dest >= 0 && has(destinations[static_cast<std::size_t>(e.dest)].role, stream);
  }
  /// Was E a call on stdout's sink (shared with stderr or not)?
  bool on_stdout(const trace_event& e) const { return on(e, stream_role::out); }
  /// Was E a call on stderr's sink (shared with stdout or not)?
  bool on_stderr(const trace_event& e) const { return on(e, stream_role::err); }
  /// on_stderr(E) or on_stdout(E): the sink of one stream (kill_plan::on_stderr).
  bool on_stream(const trace_event& e, bool stderr_stream) const {
    return on(e, stream_of(stderr_stream));
  }
  /// The write-family calls to one stream's sink that ran (not the one a
  /// write:N cut stopped), in order: write:N's N counts them.
  std::vector<const trace_event*> stream_writes(bool stderr_stream) const {
    std::vector<const trace_event*> out;
    for (const auto& e : events)
      if (!e.stopped && is_write_family(e.call) && on_stream(e, stderr_stream)) out.push_back(&e);
    return out;
  }
  /// Write-family calls to one stream's sink (stdout+stderr counts for both).
  std::int64_t write_calls_to(bool stderr_stream) const {
    return sum_over(stream_of(stderr_stream), true, [](const auto& d) { return d.write_calls; });
  }
  /// Calls of kind C to one stream's sink.
  std::int64_t calls_to(traced_call c, bool stderr_stream) const {
    return sum_over(stream_of(stderr_stream), true,
                    [c](const auto& d) { return d.calls[static_cast<std::size_t>(c)]; });
  }
  /// Calls of kind C, of any family (fsync, close, ...), to stdout's sink.
  std::int64_t stdout_calls(traced_call c) const { return calls_to(c, false); }

 private:
  static constexpr stream_role stream_of(bool stderr_stream) {
    return stderr_stream ? stream_role::err : stream_role::out;
  }
  /// COUNT summed over the sinks of STREAM: with SHARED, also the one it
  /// shares with the other stream (2>&1).
  template <class Count>
  std::int64_t sum_over(stream_role stream, bool shared, Count count) const {
    std::int64_t n = 0;
    for (const auto& d : destinations)
      if (shared ? has(d.role, stream) : d.role == stream) n += count(d);
    return n;
  }
};

}  // namespace flushcheck
