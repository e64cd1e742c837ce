// A pseudo-terminal pair, raw or cooked (pty.hpp).
#include "pty.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>

#include <utility>

#include "error.hpp"

namespace flushcheck {
namespace {

/// The terminal of SLAVE: raw (cfmakeraw) or cooked as it comes, 80x24.
void set_terminal(int slave, bool raw) {
  termios t{};
  if (::tcgetattr(slave, &t) != 0) throw_errno("tcgetattr");
  if (raw) ::cfmakeraw(&t);
  if (::tcsetattr(slave, TCSANOW, &t) != 0) throw_errno("tcsetattr");
  winsize ws{};
  ws.ws_row = 24;
  ws.ws_col = 80;
  ::ioctl(slave, TIOCSWINSZ, &ws);
}

}  // namespace

pty_pair pty_pair::open(bool raw) {
  unique_fd master(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!master) throw_errno("posix_openpt");
  if (::grantpt(master.get()) != 0 || ::unlockpt(master.get()) != 0) throw_errno("unlockpt");
  // TIOCGPTPEER opens the slave from the master without a path lookup.
  unique_fd slave(::ioctl(master.get(), TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!slave) throw_errno("ioctl TIOCGPTPEER");
  set_terminal(slave.get(), raw);
  return {std::move(master), std::move(slave)};
}

}  // namespace flushcheck
