#include "fd_lookup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace flushcheck::detail {
namespace {

std::string link_text(const std::string& path) {
  char buf[512];
  ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "?";
}

/// The file at PATH relative to DIRFD (FLAGS: statx's), named by the
/// link at LINK; nullopt when it is not there. statx follows /proc's fd
/// links without opening the file; where a sandbox refuses statx (ENOSYS,
/// EPERM), fstatat does, with no birth time.
std::optional<fd_target> identify(int dirfd, const char* path, int flags, const std::string& link) {
  struct statx st {};
  if (::statx(dirfd, path, flags, STATX_INO | STATX_BTIME, &st) != 0) {
    struct stat old {};
    if ((errno != ENOSYS && errno != EPERM) || ::fstatat(dirfd, path, &old, flags) != 0)
      return std::nullopt;
    return fd_target{{old.st_dev, old.st_ino}, 0, link_text(link)};
  }
  const std::int64_t born =
      (st.stx_mask & STATX_BTIME) != 0
          ? static_cast<std::int64_t>(st.stx_btime.tv_sec) * 1000000000 + st.stx_btime.tv_nsec
          : 0;
  return fd_target{
      {makedev(st.stx_dev_major, st.stx_dev_minor), st.stx_ino}, born, link_text(link)};
}

std::optional<fd_target> via_proc(pid_t p, int fd) {
  std::string path = "/proc/" + std::to_string(p) + "/fd/" + std::to_string(fd);
  return identify(AT_FDCWD, path.c_str(), 0, path);
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
  auto file =
      identify(copy.get(), "", AT_EMPTY_PATH, "/proc/self/fd/" + std::to_string(copy.get()));
  return file ? file : via_proc(p, fd);
}

}  // namespace flushcheck::detail
