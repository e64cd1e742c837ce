#include "child.hpp"

#include <dirent.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "input_file.hpp"
#include "retry_eintr.hpp"

namespace flushcheck {
namespace {

/// The children a child_process owns and has not reaped, and the workers
/// (own_child): not orphans, so the end of a run spares them (bench's
/// bpftrace, started beside the runs).
class owned_children {
 public:
  static void add(pid_t pid) { change(pid, true); }
  static void remove(pid_t pid) { change(pid, false); }
  static bool has(pid_t pid) {
    const std::lock_guard<std::mutex> hold(lock());
    return pids().contains(pid);
  }

 private:
  static std::mutex& lock() {
    static std::mutex m;
    return m;
  }
  static std::set<pid_t>& pids() {
    static std::set<pid_t> s;
    return s;
  }
  static void change(pid_t pid, bool add) {
    const std::lock_guard<std::mutex> hold(lock());
    if (add)
      pids().insert(pid);
    else
      pids().erase(pid);
  }
};

}  // namespace

child_process::child_process(pid_t pid) : pid_(pid) {
  owned_children::add(pid);
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

pid_t child_process::release() noexcept {
  pidfd_.reset();
  owned_children::remove(pid_);
  return std::exchange(pid_, -1);
}

void child_process::signal_group(int sig) noexcept {
  if (pid_ > 0) ::kill(-pid_, sig);
}

std::optional<wait_status> child_process::try_reap() noexcept {
  if (status_ || pid_ <= 0) return status_;
  int raw = 0;
  rusage use{};
  const pid_t r = retry_eintr([&] { return ::wait4(pid_, &raw, WNOHANG, &use); });
  if (r == pid_) {
    status_ = wait_status::from_raw(raw), peak_rss_kib_ = use.ru_maxrss;
    owned_children::remove(pid_);
  }
  return status_;
}

wait_status child_process::reap() noexcept {
  if (status_) return *status_;
  int raw = 0;
  rusage use{};
  const pid_t r = retry_eintr([&] { return ::wait4(pid_, &raw, 0, &use); });
  status_ = r == pid_ ? wait_status::from_raw(raw) : wait_status::signaled(SIGKILL);
  if (r == pid_) peak_rss_kib_ = use.ru_maxrss;
  owned_children::remove(pid_);
  return *status_;
}

namespace {

std::string read_line(const std::string& path) {
  std::istringstream in(read_file(path).value_or(""));
  std::string line;
  std::getline(in, line);
  return line;
}

/// Every process whose parent is this one, by reading each /proc/PID/stat.
std::vector<pid_t> children_by_scan() {
  std::vector<pid_t> found;
  std::unique_ptr<DIR, int (*)(DIR*)> proc(::opendir("/proc"), ::closedir);
  const pid_t self = ::getpid();
  while (dirent* e = proc ? ::readdir(proc.get()) : nullptr) {
    pid_t pid = static_cast<pid_t>(std::atol(e->d_name));
    std::string stat = pid > 0 ? read_line(std::string("/proc/") + e->d_name + "/stat") : "";
    auto close = stat.rfind(')');  // comm may hold spaces and ')'
    if (close != std::string::npos && std::atol(stat.c_str() + close + 4) == self)  // ") S PPID"
      found.push_back(pid);
  }
  return found;
}

/// Children of this process (of any of its threads): from
/// /proc/self/task/TID/children, one file per thread (CONFIG_PROC_CHILDREN),
/// else by reading every /proc/PID/stat (one file per process on the machine).
std::vector<pid_t> children_of_this_process() {
  std::vector<pid_t> found;
  std::unique_ptr<DIR, int (*)(DIR*)> tasks(::opendir("/proc/self/task"), ::closedir);
  if (!tasks) return children_by_scan();
  while (dirent* e = ::readdir(tasks.get())) {
    if (e->d_name[0] == '.') continue;
    const auto text = read_file(std::string("/proc/self/task/") + e->d_name + "/children");
    if (!text) return children_by_scan();
    std::istringstream in(*text);
    for (pid_t pid; in >> pid;) found.push_back(pid);
  }
  return found;
}

/// Kills and reaps each of CHILDREN, adding "comm (pid N)" to KILLED.
void kill_and_reap(const std::vector<pid_t>& children, std::vector<std::string>& killed) {
  for (pid_t pid : children) {
    std::string comm = read_line("/proc/" + std::to_string(pid) + "/comm");
    ::kill(pid, SIGKILL);
    retry_eintr([&] { return ::waitpid(pid, nullptr, __WALL); });
    killed.push_back(comm + " (pid " + std::to_string(pid) + ")");
  }
}

}  // namespace

void own_child(pid_t pid) { owned_children::add(pid); }
void disown_child(pid_t pid) { owned_children::remove(pid); }

std::vector<std::string> kill_adopted_orphans(bool spare_owned) {
  int subreaper = 0;
  std::vector<std::string> killed;
  if (::prctl(PR_GET_CHILD_SUBREAPER, &subreaper) != 0 || subreaper == 0) return killed;
  for (int round = 0; round < 1000; ++round) {  // each round adopts the next generation
    auto children = children_of_this_process();
    if (spare_owned) std::erase_if(children, owned_children::has);
    if (children.empty()) break;
    kill_and_reap(children, killed);
  }
  return killed;
}

}  // namespace flushcheck
