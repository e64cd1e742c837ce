#pragma once
/// One way to restart a call that a signal interrupted: read, write, pread,
/// pwrite, waitpid, wait4. Never close (unique_fd.hpp: the fd is gone either
/// way on Linux), and not poll, whose EINTR means "look again" to its loop.
#include <cerrno>

namespace flushcheck {

/// CALL()'s first result that is not a failure with EINTR.
template <typename Call>
auto retry_eintr(Call&& call) -> decltype(call()) {
  for (;;) {
    const auto r = call();
    if (!(r < 0 && errno == EINTR)) return r;
  }
}

}  // namespace flushcheck
