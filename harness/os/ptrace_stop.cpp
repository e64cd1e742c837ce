#include "ptrace_stop.hpp"

#include <sys/wait.h>

#include <csignal>

namespace flushcheck {

ptrace_stop ptrace_stop::of(int raw) noexcept {
  ptrace_stop s;
  if (!WIFSTOPPED(raw)) {
    s.ending_ = wait_status::from_raw(raw);
    return s;
  }
  const int sig = WSTOPSIG(raw);
  s.event_ = (raw >> 16) & 0xff;  // status>>8 == SIGTRAP | PTRACE_EVENT_foo << 8
  if (s.event_ != 0) {
    s.kind_ = kind::event;
  } else if (sig == (SIGTRAP | 0x80)) {
    s.kind_ = kind::syscall;
  } else {
    s.kind_ = kind::signal;
    s.signal_ = sig;
  }
  return s;
}

}  // namespace flushcheck
