#pragma once
/// Independent runs on every core (`--jobs N`): tasks 0 to COUNT-1, each run
/// by one of N worker processes forked from this one, their results handed
/// back in the order of their numbers, whatever order they ended in. So a
/// report is the same for any N: what differs is only when it is done.
///
/// Processes, not threads. Each worker is a child subreaper of its own
/// (PR_SET_CHILD_SUBREAPER): what a run's program leaves behind is adopted
/// and ended by the worker that ran it, at that run's end, and never by
/// another run's (child.hpp, kill_adopted_orphans). Each worker has a CPU of
/// its own for its traced runs' pin (cpu_pin.hpp). A worker dies with the
/// process that forked it (PR_SET_PDEATHSIG); an interrupt (end_workers)
/// has it end its run's processes and remove its temporaries first.
#include <functional>
#include <string>

namespace flushcheck {

/// The CPUs this process may run on (sched_getaffinity): the default --jobs.
int usable_cpus() noexcept;

/// Runs TASK(i) for each i from 0 to COUNT-1 on min(JOBS, COUNT) worker
/// processes, each taking the next task when it ends one, and calls TAKE(i,
/// its result) in the order of i. TAKE returns false to stop: no task is
/// started after that, and the results of those still running are dropped
/// when they end (each run ends by its own deadline). A task that throws:
/// the same error (usage_error, spawn_error, harness_error, else
/// harness_error) is thrown here when its turn comes. A worker that dies
/// before its result: harness_error. TASK's result crosses as bytes (wire.hpp).
void run_in_workers(int jobs, long count, const std::function<std::string(long)>& task,
                    const std::function<bool(long, std::string)>& take);

/// The same with typed results: ENCODE in the worker, DECODE here. With
/// JOBS <= 1, or one task, each task runs here, in order, and its result is
/// taken as it is.
template <typename R, typename Task, typename Take, typename Encode, typename Decode>
void run_in_workers(int jobs, long count, Task&& task, Take&& take, Encode&& encode,
                    Decode&& decode) {
  if (jobs <= 1 || count <= 1) {
    for (long i = 0; i < count; ++i)
      if (!take(i, R(task(i)))) return;
    return;
  }
  run_in_workers(
      jobs, count, [&](long i) -> std::string { return encode(R(task(i))); },
      [&](long i, std::string bytes) { return take(i, R(decode(bytes))); });
}

/// For the CLI's interrupt: from now on no worker starts, and each one
/// running is asked to end (SIGTERM: it kills its run's processes, removes
/// its temporaries and dies), and waited for, at most 2 s in all; one still
/// there then is killed (SIGKILL). Then the caller ends what is left
/// (kill_adopted_orphans).
void end_workers() noexcept;

}  // namespace flushcheck
