// Whether this machine lets the tracer work, found out once.
#include "tracing_probe.hpp"

#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sstream>

#include "input_file.hpp"
#include "ptrace_stop.hpp"
#include "retry_eintr.hpp"

namespace flushcheck {
namespace {

/// The probe's forked child: PTRACE_TRACEME, then a stop; a refusal's errno
/// is its exit code. Async-signal-safe calls only.
[[noreturn]] void traceme_child() {
  if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) ::_exit(errno & 0x7f);
  ::raise(SIGSTOP);
  ::_exit(0);
}

/// Why the probe's child P could not be traced, from how it stopped or
/// ended; "" when it stopped traced (it is then killed and reaped).
std::string traceme_refusal(pid_t p) {
  int raw = 0;
  retry_eintr([&] { return ::waitpid(p, &raw, 0); });
  const ptrace_stop s = ptrace_stop::of(raw);
  if (!s.ended()) {
    ::kill(p, SIGKILL);
    retry_eintr([&] { return ::waitpid(p, nullptr, 0); });
    return "";
  }
  const int err = s.ending().type() == wait_status::kind::exited ? s.ending().code() : 0;
  return "PTRACE_TRACEME is refused here: " +
         std::string(err ? std::strerror(err) : "the child died");
}

/// What stops a child from being traced here, tried once: Yama's scope 3
/// (no ptrace at all), a kernel without seccomp, or a PTRACE_TRACEME that a
/// container's own filter refuses. The child makes async-signal-safe calls
/// only (the caller may have threads).
std::string probe_tracing() {
  int scope = -1;  // no Yama: no file
  std::istringstream(read_file("/proc/sys/kernel/yama/ptrace_scope").value_or("")) >> scope;
  if (scope == 3) return "ptrace is disabled here (kernel.yama.ptrace_scope = 3)";
  if (::prctl(PR_GET_SECCOMP) < 0 && errno == EINVAL)
    return "the kernel has no seccomp (CONFIG_SECCOMP)";
  const pid_t p = ::fork();
  if (p < 0) return "fork: " + std::string(std::strerror(errno));
  if (p == 0) traceme_child();
  return traceme_refusal(p);
}

}  // namespace

std::string tracing_unavailable_reason() {
#if !defined(__x86_64__)
  return "the tracer supports x86_64 only";
#else
  static const std::string why = probe_tracing();
  return why;
#endif
}

}  // namespace flushcheck
