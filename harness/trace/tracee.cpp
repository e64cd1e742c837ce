#include "tracee.hpp"

#include <sys/ptrace.h>

#include <cerrno>
#include <csignal>

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

}  // namespace flushcheck::detail
