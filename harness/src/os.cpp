// OS resources: fds, pipes, socket pairs, ptys, and the error helpers.
#include <fcntl.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>

#include "flushcheck/error.hpp"
#include "flushcheck/pty.hpp"
#include "flushcheck/unique_fd.hpp"

namespace flushcheck {

void throw_error(std::error_code ec, const std::string& what) { throw harness_error(ec, what); }

void throw_errno(const std::string& what) { throw_error({errno, std::generic_category()}, what); }

void unique_fd::reset(int fd) noexcept {
  // Don't retry close on EINTR: the fd is gone either way on Linux.
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

pipe_pair pipe_pair::make() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe2");
  return {unique_fd(fds[0]), unique_fd(fds[1])};
}

socket_pair socket_pair::make() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) throw_errno("socketpair");
  return {unique_fd(fds[0]), unique_fd(fds[1])};
}

unique_fd open_fd(const char* path, int flags, int mode) {
  int fd = ::open(path, flags | O_CLOEXEC, mode);
  if (fd < 0) throw_errno(std::string("open ") + path);
  return unique_fd(fd);
}

void set_nonblocking(int fd, bool on) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) throw_errno("fcntl F_GETFL");
  flags = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK;
  if (::fcntl(fd, F_SETFL, flags) != 0) throw_errno("fcntl F_SETFL");
}

pty_pair pty_pair::open(bool raw) {
  unique_fd master(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!master) throw_errno("posix_openpt");
  if (::grantpt(master.get()) != 0 || ::unlockpt(master.get()) != 0) throw_errno("unlockpt");
  // TIOCGPTPEER opens the slave from the master without a path lookup.
  unique_fd slave(::ioctl(master.get(), TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!slave) throw_errno("ioctl TIOCGPTPEER");
  termios t{};
  if (::tcgetattr(slave.get(), &t) != 0) throw_errno("tcgetattr");
  if (raw) ::cfmakeraw(&t);
  if (::tcsetattr(slave.get(), TCSANOW, &t) != 0) throw_errno("tcsetattr");
  winsize ws{};
  ws.ws_row = 24;
  ws.ws_col = 80;
  ::ioctl(slave.get(), TIOCSWINSZ, &ws);
  return {std::move(master), std::move(slave)};
}

}  // namespace flushcheck
