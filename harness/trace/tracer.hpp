#pragma once
/// Runs a child under ptrace with a seccomp-bpf filter so that it stops only
/// on the traced calls (one stop per call, no syscall-exit stop), follows its
/// forks, threads and execs, counts write-family calls per destination, and
/// carries out write:N / after-write:N kills. x86_64 only.
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "fault_plan.hpp"
#include "kill_plan.hpp"
#include "spawn.hpp"
#include "trace.hpp"
#include "tracing_probe.hpp"
#include "wait_status.hpp"

namespace flushcheck {

/// Identity of a destination: st_dev and st_ino of the open file.
using file_id = std::pair<dev_t, ino_t>;

struct tracer_options {
  /// write:N and after-write:N are done by the tracer; its on_stderr says
  /// which sink they count (and time_writes times), with a cut or without.
  kill_plan kill;
  std::vector<fault_plan> faults;  ///< injected at the entry of the calls they select
  file_id stdout_id{0, 0};         ///< the stdout sink: write:N counts calls to it
  file_id stderr_id{0, 0};
  /// Stop each write to the observed sink (stdout's, or stderr's for
  /// kill.on_stderr) at its exit too (one more stop per write): the event
  /// log gets when it returned and its result.
  bool time_writes = false;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

class tracer {
 public:
  /// Starts REQUEST traced on a tracer thread of its own (ptrace ties the tracer to
  /// the thread that forked). Throws spawn_error, harness_error.
  tracer(const spawn_request& request, const tracer_options& options);
  ~tracer();
  tracer(const tracer&) = delete;
  tracer& operator=(const tracer&) = delete;

  pid_t pid() const noexcept;
  /// Polls readable once the child itself has ended.
  int exit_fd() const noexcept;
  /// The child's status once it has ended.
  std::optional<wait_status> status() const;
  /// The write:N / after-write:N kill, once it happened (or nullopt).
  std::optional<kill_event> kill() const;
  /// Waits until every traced process has ended (kill the group first), and
  /// returns what was counted.
  trace_summary finish();

  struct state;

 private:
  // Shared with the job on the tracer thread: it sets `done` last, and the
  // state must outlive that call even when the caller has gone on.
  std::shared_ptr<state> s_;
};

}  // namespace flushcheck
