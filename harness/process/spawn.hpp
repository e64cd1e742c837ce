#pragma once
/// Starts a program with its stdio on given fds, in its own session and
/// process group. The only user of Boost.Process (kept to spawn.cpp).
#include <string>
#include <vector>

#include "child.hpp"

namespace flushcheck {

struct spawn_request {
  std::vector<std::string> argv;  ///< argv[0] is looked up in PATH if it has no '/'
  std::vector<std::string> env;   ///< the whole environment, "NAME=value"
  int stdin_fd = -1;              ///< dup'ed onto 0, 1, 2 in the child
  int stdout_fd = -1;
  int stderr_fd = -1;
  int control_fd = -1;  ///< placed at control_fd_number in the child, or -1
  /// Tracing: a `struct sock_fprog*`. The child then calls PTRACE_TRACEME and
  /// installs this seccomp filter as its last step before exec.
  const void* trace_filter = nullptr;
  /// PTRACE_TRACEME without a filter: the child stops at its exec (perf backend).
  bool trace_me = false;
};

/// The fd number the control channel gets in the child.
inline constexpr int control_fd_number = 3;

/// Resolves argv[0] like execvp would; throws spawn_error with the reason.
std::string resolve_program(const std::string& name, const std::vector<std::string>& env);

/// Starts the child or throws spawn_error (missing or not executable program,
/// exec failure) or harness_error.
child_process spawn(const spawn_request& request);

/// Waits for the first stop of PID, spawned with trace_me or a trace_filter:
/// its exec, before the program's first instruction. Throws spawn_error
/// naming ARGV0 when the child ended instead (it never ran the program).
void wait_exec_stop(pid_t pid, const std::string& argv0);

}  // namespace flushcheck
