#include "tracee.hpp"

#include <linux/filter.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <cerrno>
#include <csignal>
#include <vector>

#include "call_decoder.hpp"
#include "error.hpp"
#include "proc_status.hpp"
#include "seccomp_filter.hpp"
#include "spawn.hpp"

namespace flushcheck::detail {

void resume(pid_t p, int sig) noexcept {
  ::ptrace(PTRACE_CONT, p, nullptr, reinterpret_cast<void*>(static_cast<long>(sig)));
}

void resume_to_exit(pid_t p) noexcept { ::ptrace(PTRACE_SYSCALL, p, nullptr, nullptr); }

void set_regs(pid_t p, const user_regs_struct& regs) noexcept {
  ::ptrace(PTRACE_SETREGS, p, nullptr, &regs);
}

bool get_regs(pid_t p, user_regs_struct& regs) noexcept {
  return ::ptrace(PTRACE_GETREGS, p, nullptr, &regs) == 0;
}

std::optional<unsigned long> event_message(pid_t p) noexcept {
  unsigned long m = 0;
  if (::ptrace(PTRACE_GETEVENTMSG, p, nullptr, &m) != 0) return std::nullopt;
  return m;
}

std::optional<long> peek_word(pid_t p, unsigned long long addr) noexcept {
  errno = 0;  // the word may be -1: only errno tells
  const long word = ::ptrace(PTRACE_PEEKDATA, p, reinterpret_cast<void*>(addr), nullptr);
  if (errno != 0) return std::nullopt;
  return word;
}

bool poke_word(pid_t p, unsigned long long addr, unsigned long long word) noexcept {
  return ::ptrace(PTRACE_POKEDATA, p, reinterpret_cast<void*>(addr),
                  reinterpret_cast<void*>(word)) == 0;
}

bool at_group_stop(pid_t p) noexcept {
  siginfo_t si;
  return ::ptrace(PTRACE_GETSIGINFO, p, nullptr, &si) != 0 && errno == EINVAL;
}

bool signal_ends_process(pid_t tid, int sig) {
  if (sig == SIGKILL) return true;
  for (int harmless : {SIGCHLD, SIGCONT, SIGURG, SIGWINCH, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU})
    if (sig == harmless) return false;
  return !status_mask_has(tid, "SigBlk:", sig) && !status_mask_has(tid, "SigIgn:", sig) &&
         !status_mask_has(tid, "SigCgt:", sig);
}

namespace {

/// The seccomp program of the traced calls, a copy of one built once per
/// process: the program never changes, and libseccomp's build and export
/// (through a pipe) cost more than a short traced run.
std::vector<sock_filter> traced_calls_program() {
  static const std::vector<sock_filter> filter = detail::traced_calls_filter();
  return filter;
}

/// The ptrace options on the child P, stopped at its exec; P is killed and
/// reaped if they cannot be set.
void set_trace_options(pid_t p) {
  long options = PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
                 PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD |
                 PTRACE_O_EXITKILL;
  if (::ptrace(PTRACE_SETOPTIONS, p, nullptr, options) != 0) {
    ::kill(p, SIGKILL);
    ::waitpid(p, nullptr, __WALL);
    throw_errno("PTRACE_SETOPTIONS");
  }
}

}  // namespace

pid_t spawn_traced(spawn_request req) {
  std::vector<sock_filter> prog = traced_calls_program();  // sock_fprog wants a mutable pointer
  sock_fprog fprog{static_cast<unsigned short>(prog.size()), prog.data()};
  req.trace_filter = &fprog;
  const pid_t p = spawn(req).release();
  wait_exec_stop(p, req.argv.front());
  set_trace_options(p);
  return p;
}

void keep_child_traced(pid_t p, user_regs_struct& regs) {
  const auto flags = syscall_arg(regs, 0);
  if (syscall_nr(regs) == SYS_clone && (flags & CLONE_UNTRACED) != 0) {
    set_syscall_arg(regs, 0, flags & ~static_cast<unsigned long long>(CLONE_UNTRACED));
    set_regs(p, regs);
  } else if (syscall_nr(regs) == SYS_clone3) {
    // A bad pointer is the program's: clone3 fails with EFAULT as without a tracer.
    const auto word = peek_word(p, flags);
    if (word && (*word & CLONE_UNTRACED) != 0)
      poke_word(p, flags, static_cast<unsigned long long>(*word & ~long{CLONE_UNTRACED}));
  }
}

}  // namespace flushcheck::detail
