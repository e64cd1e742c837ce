#pragma once
/// A pseudo-terminal pair. The harness reads the master; the child gets the
/// slave. After the last slave fd closes, a read of the master returns EIO:
/// that is end of data.
#include "unique_fd.hpp"

namespace flushcheck {

struct pty_pair {
  unique_fd master;
  unique_fd slave;
  /// RAW: cfmakeraw (no ONLCR, no echo), so bytes pass unchanged and isatty()
  /// is still true. Otherwise the default cooked termios (ONLCR on).
  static pty_pair open(bool raw);
};

}  // namespace flushcheck
