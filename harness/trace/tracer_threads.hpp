#pragma once
// The threads that trace runs. ptrace ties a tracee to the thread that
// started it, so a run's spawn and its waitpid loop happen on one thread of
// their own; that thread then waits for the next run instead of ending, since
// creating and joining a thread per run was a tenth of a short traced run's
// extra cost (docs/tracing.md, "Cost").
#include <functional>

namespace flushcheck::detail {

/// Runs JOB on an idle tracer thread, or on a new one if none is idle, and
/// returns at once. JOB must not throw; it says itself when it is done.
void run_on_tracer_thread(std::function<void()> job);

}  // namespace flushcheck::detail
