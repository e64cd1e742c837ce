#pragma once
// A traced run keeps its three parties on one CPU: the tracer thread, the
// program (which inherits the tracer's affinity) and the run loop. A hand-off
// between threads on different CPUs is an inter-processor wake-up, which on
// the paravirtualised machines CI runs on costs ~100 us; on one CPU it is a
// context switch (docs/tracing.md, "Cost").
#include <sched.h>

namespace flushcheck::detail {

/// The CPU a traced run of this process pins to: the one set by prefer_cpu,
/// else the one the calling thread is running on.
int preferred_cpu() noexcept;
/// Makes CPU this process's preferred_cpu(): a worker process's own
/// (workers.hpp), so that two workers' traced runs never share one CPU
/// because both happened to be on it when they began.
void prefer_cpu(int cpu) noexcept;

/// Pins the calling thread to CPU (by default preferred_cpu()), for the
/// object's lifetime; its former affinity comes back at destruction.
class cpu_pin {
 public:
  explicit cpu_pin(int cpu = preferred_cpu()) noexcept;
  ~cpu_pin();
  cpu_pin(const cpu_pin&) = delete;
  cpu_pin& operator=(const cpu_pin&) = delete;

 private:
  cpu_set_t before_{};
  bool pinned_ = false;
};

}  // namespace flushcheck::detail
