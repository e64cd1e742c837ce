#include "flushcheck/child.hpp"

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <utility>

namespace flushcheck {

child_process::child_process(pid_t pid) : pid_(pid) {
#ifdef SYS_pidfd_open
  // Optional: without pidfds the runner polls waitpid on a short timeout.
  int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd >= 0) pidfd_.reset(fd);
#endif
}

child_process::child_process(child_process&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)),
      pidfd_(std::move(o.pidfd_)),
      status_(std::exchange(o.status_, std::nullopt)) {}

child_process& child_process::operator=(child_process&& o) noexcept {
  if (this != &o) {
    dispose();
    pid_ = std::exchange(o.pid_, -1);
    pidfd_ = std::move(o.pidfd_);
    status_ = std::exchange(o.status_, std::nullopt);
  }
  return *this;
}

child_process::~child_process() { dispose(); }

void child_process::dispose() noexcept {
  if (pid_ <= 0) return;
  signal_group(SIGKILL);  // grandchildren too, reaped or not
  if (!status_) reap();
  pid_ = -1;
}

bool child_process::signal(int sig) noexcept { return running() && ::kill(pid_, sig) == 0; }

void child_process::signal_group(int sig) noexcept {
  if (pid_ > 0) ::kill(-pid_, sig);
}

std::optional<wait_status> child_process::try_reap() noexcept {
  if (status_ || pid_ <= 0) return status_;
  int raw = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &raw, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == pid_) status_ = wait_status::from_raw(raw);
  return status_;
}

wait_status child_process::reap() noexcept {
  if (status_) return *status_;
  int raw = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &raw, 0);
  } while (r < 0 && errno == EINTR);
  status_ = r == pid_ ? wait_status::from_raw(raw) : wait_status::signaled(SIGKILL);
  return *status_;
}

}  // namespace flushcheck
