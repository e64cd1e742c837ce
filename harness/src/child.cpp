#include "flushcheck/child.hpp"

#include <dirent.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
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

namespace {

/// Children of this process found in /proc, as "comm (pid N)".
std::vector<std::pair<pid_t, std::string>> adopted_children() {
  std::vector<std::pair<pid_t, std::string>> found;
  std::unique_ptr<DIR, int (*)(DIR*)> proc(::opendir("/proc"), ::closedir);
  if (!proc) return found;
  const pid_t self = ::getpid();
  while (dirent* e = ::readdir(proc.get())) {
    pid_t pid = static_cast<pid_t>(std::atol(e->d_name));
    if (pid <= 0) continue;
    std::ifstream in(std::string("/proc/") + e->d_name + "/stat");
    std::string stat;
    std::getline(in, stat);
    auto open = stat.find('('), close = stat.rfind(')');  // comm may hold spaces and ')'
    if (open == std::string::npos || close == std::string::npos) continue;
    if (std::atol(stat.c_str() + close + 4) != self) continue;  // ") S PPID"
    found.emplace_back(pid, stat.substr(open + 1, close - open - 1));
  }
  return found;
}

}  // namespace

std::vector<std::string> kill_adopted_orphans() {
  int subreaper = 0;
  std::vector<std::string> killed;
  if (::prctl(PR_GET_CHILD_SUBREAPER, &subreaper) != 0 || subreaper == 0) return killed;
  for (int round = 0; round < 1000; ++round) {  // each round adopts the next generation
    auto children = adopted_children();
    if (children.empty()) break;
    for (const auto& [pid, comm] : children) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, nullptr, __WALL) < 0 && errno == EINTR) {
      }
      killed.push_back(comm + " (pid " + std::to_string(pid) + ")");
    }
  }
  return killed;
}

}  // namespace flushcheck
