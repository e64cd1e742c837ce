#include "fd_lookup.hpp"

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace flushcheck::detail {
namespace {

std::string link_text(const std::string& path) {
  char buf[512];
  ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "?";
}

std::optional<fd_target> via_proc(pid_t p, int fd) {
  std::string path = "/proc/" + std::to_string(p) + "/fd/" + std::to_string(fd);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return fd_target{{st.st_dev, st.st_ino}, link_text(path)};
}

}  // namespace

int fd_lookup::pidfd(pid_t p) {
  auto it = pidfds_.find(p);
  if (it == pidfds_.end())
    it = pidfds_.emplace(p, unique_fd(static_cast<int>(::syscall(SYS_pidfd_open, p, 0)))).first;
  return it->second.get();
}

std::optional<fd_target> fd_lookup::operator()(pid_t p, int fd) {
  int pf = pidfd(p);
  if (pf < 0) return via_proc(p, fd);
  unique_fd copy(static_cast<int>(::syscall(SYS_pidfd_getfd, pf, fd, 0)));
  if (!copy) return errno == EBADF ? std::nullopt : via_proc(p, fd);
  struct stat st {};
  if (::fstat(copy.get(), &st) != 0) return via_proc(p, fd);
  return fd_target{{st.st_dev, st.st_ino},
                   link_text("/proc/self/fd/" + std::to_string(copy.get()))};
}

}  // namespace flushcheck::detail
