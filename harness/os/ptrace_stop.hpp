#pragma once
/// What a tracee's waitpid status says, decoded once (in the style of rr's
/// WaitStatus, ptrace(2) "Stopped states"): it ended, or it is stopped at a
/// system call, at a ptrace event, or with a signal. The raw bits are read
/// here and nowhere else.
#include "wait_status.hpp"

namespace flushcheck {

class ptrace_stop {
 public:
  enum class kind {
    ended,    ///< exited or killed: see ending()
    syscall,  ///< a PTRACE_SYSCALL stop, SIGTRAP | 0x80 (PTRACE_O_TRACESYSGOOD); the
              ///< tracer sees entries as seccomp events, so those it sees are exits
    event,    ///< PTRACE_EVENT_* (seccomp, fork, vfork, clone, exec, ...)
    signal,   ///< a signal-delivery stop or a group stop (PTRACE_GETSIGINFO tells)
  };

  /// From a raw waitpid status.
  static ptrace_stop of(int raw) noexcept;

  kind type() const noexcept { return kind_; }
  bool ended() const noexcept { return kind_ == kind::ended; }
  /// How it ended (ended() only).
  const wait_status& ending() const noexcept { return ending_; }
  /// The PTRACE_EVENT_* number (event only).
  int event() const noexcept { return event_; }
  /// The stopping signal (signal only).
  int signal() const noexcept { return signal_; }

 private:
  kind kind_ = kind::ended;
  wait_status ending_ = wait_status::exited(0);
  int event_ = 0;
  int signal_ = 0;
};

}  // namespace flushcheck
