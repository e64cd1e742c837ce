#pragma once
/// Runs one program under the harness and returns what it observed.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fault_plan.hpp"
#include "kill_plan.hpp"
#include "observation.hpp"
#include "reader_policy.hpp"
#include "sink.hpp"

namespace flushcheck {

enum class stdin_kind { null, pipe, pty };

/// ptrace: exact per-destination counts, event log, write:N kills.
/// perf: counts only (totals, and fd 1), no stop per call.
/// bpf: counts only (totals, per destination), counted in the kernel, no
/// stop per call; root (docs/tracing.md).
enum class trace_backend { ptrace, perf, bpf };

struct run_options {
  std::vector<std::string> argv;
  sink_kind stdout_sink = sink_kind::pipe;
  /// nullopt: stderr shares stdout's sink (2>&1).
  std::optional<sink_kind> stderr_sink = sink_kind::pipe;
  stdin_kind input = stdin_kind::null;
  std::string input_data;  ///< written to a pipe or pty stdin
  kill_plan kill;
  /// Writes that fail or come up short, injected by the tracer (implies it).
  std::vector<fault_plan> faults;
  /// Count write-family calls with the tracer (implied by write:N kills).
  bool trace = false;
  /// With the tracer: stop each write to stdout's sink at its exit too, so
  /// that the event log says when it returned (how long it blocked) and
  /// each chunk how many writes had entered and returned before it arrived.
  bool timeline = false;
  trace_backend backend = trace_backend::ptrace;
  /// What is kept of each stream's bytes (all are counted and hashed).
  keep_policy keep;
  /// How the stdout sink's reader reads (pipe, pty): prompt, paused, ...
  reader_policy reader;
  /// Pipe sinks' capacity (F_SETPIPE_SZ); 0: the kernel's default (64 KiB).
  std::size_t pipe_size = 0;
  /// O_NONBLOCK on the open file descriptions the program gets as stdout and
  /// stderr, as a program inherits them from a non-blocking parent.
  bool nonblock = false;
  /// Deadline for the whole run; at it the process group is killed.
  std::chrono::milliseconds timeout{10000};
  /// The child's whole environment; the marker variables are added.
  std::vector<std::string> env;
  /// The names of ENV's variables that a repro line names: nullopt, all of
  /// them (an environment the harness made, clean_environment() and what it
  /// adds); for the caller's environment, only those that change buffering
  /// or locale and PATH, never the rest (a CI job's secrets).
  std::optional<std::vector<std::string>> repro_names;
  /// Called with the child's pid (= its process group) right after it starts,
  /// e.g. so that a signal handler of the caller can kill the group.
  std::function<void(int)> on_spawn;
  /// Called with every byte a reader gets, as it arrives, and the program's
  /// fd it came from (1, or 2 for stderr on a sink of its own), whatever
  /// KEEP keeps: explore compares whole outputs in bounded memory this way.
  std::function<void(int fd, std::string_view bytes)> on_output;
};

/// Throws spawn_error if the program cannot start, harness_error on OS failure.
observation run(const run_options& options);

/// This process's environment, "NAME=value".
std::vector<std::string> current_environment();

}  // namespace flushcheck
