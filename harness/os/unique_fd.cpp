// File descriptors: the owner, pipes, socket pairs, opening, O_NONBLOCK.
#include "unique_fd.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "error.hpp"

namespace flushcheck {

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

}  // namespace flushcheck
