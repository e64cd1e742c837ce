// The one place that uses Boost.Process (v1 in Boost 1.74), so that a move to
// v2 stays local. Child-side set-up is an initializer with an on_exec_setup
// hook; only async-signal-safe calls run between vfork and exec.
//
// vfork, not fork: the child borrows the harness's memory until it execs, so
// nothing is copied (a fork of a large test process cost ~0.3 ms of page
// tables and copy-on-write faults per run), and an error before or at exec
// reaches the parent in memory, traced or not. The rules that come with it:
// the child writes no memory the parent relies on, except Boost's error
// fields, and leaves by exec or _exit; every signal is blocked in the parent
// around the vfork, so that no handler of the harness runs in the child
// before it has reset them to SIG_DFL.
// Boost 1.74 enables its vfork executor only for XSI feature levels below
// POSIX 2008, which glibc's _GNU_SOURCE is not; glibc declares vfork anyway.
#define BOOST_POSIX_HAS_VFORK 1
#include "spawn.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// Boost.Process v1, the API this file uses. From Boost 1.88 (Debian testing
// has 1.92) v2 is boost/process and v1 lives under boost/process/v1.
#if __has_include(<boost/process/v1/child.hpp>)
#include <boost/process/v1/args.hpp>
#include <boost/process/v1/child.hpp>
#include <boost/process/v1/exe.hpp>
#include <boost/process/v1/extend.hpp>
#include <boost/process/v1/posix.hpp>
#include <boost/process/v1/search_path.hpp>
namespace bp = boost::process::v1;
#else
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/posix.hpp>
#include <boost/process/search_path.hpp>
namespace bp = boost::process;
#endif
#include <cerrno>
#include <cstring>

#include "error.hpp"
#include "ptrace_stop.hpp"
#include "retry_eintr.hpp"
#include "wait_status.hpp"

namespace flushcheck {
namespace {

/// Puts the child in its own session (and so its own process group), places
/// the sinks on 0, 1, 2 (a pty among them becomes the session's controlling
/// terminal) and the control channel on fd 3, and undoes what the
/// harness may have changed: blocked signals and ignored dispositions (an
/// ignored SIGPIPE would survive exec and change what the program does).
struct child_setup : bp::extend::handler {
  int sources[4];
  const sock_fprog* filter;
  bool trace_me;
  char** envp;   // the child's whole environment, built before fork
  pid_t parent;  // the harness, before fork

  // Boost 1.74's basic_environment::find reads past the end of shorter
  // entries (ASan: heap-buffer-overflow), so the environment is handed to
  // the executor directly instead of through bp::environment.
  template <class Executor>
  void on_setup(Executor& exec) const {
    exec.env = envp;
  }

  // Runs in the vfork child: each step below, only async-signal-safe calls.
  template <class Executor>
  void on_exec_setup(Executor& exec) const {
    if (::setsid() < 0) fail(exec);
    // Dies with the harness's spawning thread, even by SIGKILL (the CLI kills
    // the group on SIGINT/SIGTERM/SIGHUP); if that already happened, now.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(127);
    place_fds(exec);
    take_controlling_terminal();
    mark_inherited_fds_cloexec();
    reset_signals();
    start_tracing(exec);
  }

  /// The sources onto 0..3.
  template <class Executor>
  void place_fds(Executor& exec) const {
    int moved[4];
    // First out of the way of 0..3, then into place: a source may sit there.
    for (int i = 0; i < 4; ++i) {
      moved[i] = sources[i] >= 0 ? ::fcntl(sources[i], F_DUPFD_CLOEXEC, 10) : -1;
      if (sources[i] >= 0 && moved[i] < 0) fail(exec);
    }
    for (int i = 0; i < 4; ++i)
      if (moved[i] >= 0 && ::dup2(moved[i], i) < 0) fail(exec);
  }

  /// A pty sink is the controlling terminal, as in a terminal: /dev/tty,
  /// job control, SIGHUP at hang-up. ENOTTY for the fds that are not one.
  static void take_controlling_terminal() {
    for (int fd : {1, 2, 0})
      if (::ioctl(fd, TIOCSCTTY, 0) == 0) break;
  }

  /// Whatever the harness inherited (a CI runner's fds) must not reach the
  /// program: every fd above 3 is marked close-on-exec (the exec closes them;
  /// a failed exec leaves the child to _exit at once).
  static void mark_inherited_fds_cloexec() {
    if (::syscall(SYS_close_range, 4U, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
      for (int fd = 4; fd < 4096; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  }

  /// Dispositions first, then the mask (blocked by the parent): no handler
  /// of the harness may run in this borrowed memory.
  static void reset_signals() {
    for (int sig = 1; sig < NSIG; ++sig)
      if (sig != SIGKILL && sig != SIGSTOP) ::signal(sig, SIG_DFL);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
  }

  /// PTRACE_TRACEME, and with a filter the seccomp filter, as the last step.
  template <class Executor>
  void start_tracing(Executor& exec) const {
    if (trace_me && filter == nullptr && ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0)
      fail(exec);
    if (filter != nullptr) {
      // Last: from here on a traced call fails with ENOSYS until the tracer
      // has set PTRACE_O_TRACESECCOMP, which it does at the exec stop.
      if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) fail(exec);
      if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(exec);
      if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, filter) != 0) fail(exec);
    }
  }

  /// Under vfork, set_error only records the error in the shared executor;
  /// the child must leave itself.
  template <class Executor>
  static void fail(Executor& exec) {
    exec.set_error(std::error_code(errno, std::system_category()), "child set-up");
    ::_exit(127);
  }
};

/// Every signal blocked in the calling thread for the object's lifetime.
class all_signals_blocked {
 public:
  all_signals_blocked() noexcept {
    sigset_t all;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &before_);
  }
  ~all_signals_blocked() { ::pthread_sigmask(SIG_SETMASK, &before_, nullptr); }
  all_signals_blocked(const all_signals_blocked&) = delete;
  all_signals_blocked& operator=(const all_signals_blocked&) = delete;

 private:
  sigset_t before_;
};

std::string path_of(const std::vector<std::string>& env) {
  for (const auto& kv : env)
    if (kv.starts_with("PATH=")) return kv.substr(5);
  return "/usr/local/bin:/usr/bin:/bin";
}

/// A program named by its path (NAME has a '/'): it exists, is not a
/// directory and is executable, or spawn_error says why not.
void check_program_path(const std::string& name) {
  if (::access(name.c_str(), F_OK) != 0) throw spawn_error(name + ": " + std::strerror(errno));
  struct stat st {};
  if (::stat(name.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw spawn_error(name + ": is a directory");
  if (::access(name.c_str(), X_OK) != 0) throw spawn_error(name + ": not executable");
}

/// The directories of ENV's PATH, in order; an empty one is ".".
std::vector<boost::filesystem::path> path_dirs(const std::vector<std::string>& env) {
  std::vector<boost::filesystem::path> dirs;
  std::string path = path_of(env);
  for (std::size_t start = 0;;) {
    std::size_t colon = path.find(':', start);
    std::string dir = path.substr(start, colon - start);
    dirs.emplace_back(dir.empty() ? "." : dir);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return dirs;
}

}  // namespace

std::string resolve_program(const std::string& name, const std::vector<std::string>& env) {
  if (name.empty()) throw spawn_error("empty program name");
  if (name.find('/') != std::string::npos) {
    check_program_path(name);
    return name;
  }
  std::vector<boost::filesystem::path> dirs = path_dirs(env);
  auto found = bp::search_path(name, dirs);
  if (found.empty()) throw spawn_error(name + ": not found in PATH");
  return found.string();
}

namespace {

/// ENV as execve takes it: pointers to its strings, then nullptr.
std::vector<char*> envp_of(const std::vector<std::string>& env) {
  std::vector<char*> envp;
  for (const auto& kv : env) envp.push_back(const_cast<char*>(kv.c_str()));
  envp.push_back(nullptr);
  return envp;
}

/// The child's set-up for REQUEST, with ENVP (built before fork).
child_setup setup_for(const spawn_request& request, char** envp) {
  child_setup setup;
  setup.envp = envp;
  setup.parent = ::getpid();
  setup.sources[0] = request.stdin_fd;
  setup.sources[1] = request.stdout_fd;
  setup.sources[2] = request.stderr_fd;
  setup.sources[3] = request.control_fd;
  setup.filter = static_cast<const sock_fprog*>(request.trace_filter);
  setup.trace_me = request.trace_me;
  return setup;
}

/// The started child C as a child_process, or spawn_error with why it did
/// not start (EC).
child_process take_over(bp::child& c, const std::error_code& ec, const std::string& argv0) {
  // A failed child has exited, and bp::child's destructor reaps it.
  if (ec) throw spawn_error(argv0 + ": " + ec.message());
  pid_t pid = c.id();
  c.detach();  // we own the pid: child_process waits for it, Boost.Process never does
  return child_process(pid);
}

}  // namespace

child_process spawn(const spawn_request& request) {
  if (request.argv.empty()) throw spawn_error("no program given");
  std::string exe = resolve_program(request.argv.front(), request.env);
  std::vector<std::string> args(request.argv.begin() + 1, request.argv.end());

  std::vector<char*> envp = envp_of(request.env);
  child_setup setup = setup_for(request, envp.data());

  std::error_code ec;
  bp::child c = [&] {
    all_signals_blocked blocked;
    return bp::child(bp::exe = exe, bp::args = args, setup, bp::posix::use_vfork, ec);
  }();
  return take_over(c, ec, request.argv.front());
}

void wait_exec_stop(pid_t pid, const std::string& argv0) {
  int raw = 0;
  retry_eintr([&] { return ::waitpid(pid, &raw, __WALL); });
  const ptrace_stop s = ptrace_stop::of(raw);
  if (s.ended())
    throw spawn_error(argv0 + ": ended before its first instruction under the tracer (the child " +
                      s.ending().describe() + ")");
}

}  // namespace flushcheck
