#include "wait_status.hpp"

#include <sys/wait.h>

#include "signals.hpp"

namespace flushcheck {

wait_status wait_status::from_raw(int raw) noexcept {
  if (WIFSIGNALED(raw)) return signaled(WTERMSIG(raw), WCOREDUMP(raw));
  return exited(WEXITSTATUS(raw));
}

const char* wait_status::type_name() const noexcept {
  switch (kind_) {
    case kind::exited: return "exited";
    case kind::signaled: return "signaled";
    case kind::timeout: return "timeout";
  }
  return "?";
}

std::string wait_status::describe() const {
  switch (kind_) {
    case kind::exited: return "exited " + std::to_string(code_);
    case kind::signaled:
      return "killed by SIG" + signal_name(signal_) + (core_ ? " (core dumped)" : "");
    case kind::timeout:
      return "timed out (process group killed with SIG" + signal_name(signal_) + ")";
  }
  return "?";
}

}  // namespace flushcheck
