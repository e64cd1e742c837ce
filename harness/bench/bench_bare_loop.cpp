// The bare ptrace + seccomp loop (bench_bare_loop.hpp): vfork, TRACEME, a
// filter that traces write only, exec; then waitpid + PTRACE_CONT per stop,
// and a marker line answered after its write's stop.
#include "bench_bare_loop.hpp"

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <system_error>

#include "call_decoder.hpp"
#include "cpu_pin.hpp"
#include "ptrace_stop.hpp"
#include "tracee.hpp"

namespace flushcheck::detail {
namespace {

constexpr unsigned k_deadline_s = 300;  // the program is killed (SIGALRM) past it

/// The BPF program of a filter that traces write(2) and allows the rest.
std::vector<sock_filter> write_filter() {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), SCMP_SYS(write), 0);
  int p[2];
  if (::pipe(p) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  seccomp_export_bpf(ctx, p[1]);
  ::close(p[1]);
  std::vector<sock_filter> prog(4096);
  ssize_t n = ::read(p[0], prog.data(), prog.size() * sizeof(sock_filter));
  ::close(p[0]);
  seccomp_release(ctx);
  prog.resize(n > 0 ? static_cast<std::size_t>(n) / sizeof(sock_filter) : 0);
  return prog;
}

/// FROM as the program's fd TO, which the exec keeps (FROM may be TO).
bool place(int from, int to) {
  return from == to ? ::fcntl(to, F_SETFD, 0) == 0 : ::dup2(from, to) == to;
}

/// CHILD's fds placed (stdout on /dev/null unless given), a deadline
/// (SIGALRM, which the loop passes on), traced, filtered, exec. Exit 127
/// when a step fails.
[[noreturn]] void exec_traced(const bare_child& child, char** args, sock_fprog* filter) {
  const int out = child.out >= 0 ? child.out : ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (out < 0 || !place(out, 1)) ::_exit(127);
  if (child.err >= 0 && !place(child.err, 2)) ::_exit(127);
  if (child.marker >= 0 && !place(child.marker, 3)) ::_exit(127);
  sigset_t none;  // the CLI blocks SIGINT, SIGTERM and SIGHUP for its interrupt thread
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::alarm(k_deadline_s);
  if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0 ||
      ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, filter) != 0)
    ::_exit(127);
  ::execve(args[0], args, child.envp != nullptr ? child.envp : environ);
  ::_exit(127);
}

/// Whether the stop of PID is at a write to fd 3 (a marker line).
bool at_marker_write(pid_t pid) {
  user_regs_struct regs{};
  return ::ptrace(PTRACE_GETREGS, pid, nullptr, &regs) == 0 && syscall_arg(regs, 0) == 3;
}

/// Reads ANSWER's marker line, then releases the program, as the harness does.
void answer_marker(int answer) {
  char c = 0;
  while (::read(answer, &c, 1) == 1 && c != '\n') {
  }
  if (::write(answer, "\n", 1) != 1) return;  // the program is gone: its end shows it
}

/// Counts the stops at traced writes until the program ends; -1 if it
/// did not exit 0. Ptrace requests on a tracee that died fail, and its end
/// is the next waitpid (tracee.hpp).
long count_write_stops(pid_t pid, int answer) {
  int status = 0;
  long stops = 0;
  while (::waitpid(pid, &status, 0) == pid) {
    const ptrace_stop s = ptrace_stop::of(status);
    if (s.ended()) return s.ending() == wait_status::exited(0) ? stops : -1;
    // A stop at a traced write is seccomp's event; a signal goes on to the program.
    const bool at_write = s.type() == ptrace_stop::kind::event && s.event() == PTRACE_EVENT_SECCOMP;
    const bool marker = at_write && answer >= 0 && at_marker_write(pid);
    stops += at_write;
    resume(pid, s.signal());
    if (marker) answer_marker(answer);
  }
  return -1;
}

/// ARGV as execv takes it, ending in a null pointer; it points into ARGV.
std::vector<char*> exec_args(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

/// From PID's exec stop on: its options set, then its write stops counted
/// (its markers answered on ANSWER); -1 when the options cannot be set (PID
/// killed and reaped).
long trace_from_exec_stop(pid_t pid, int answer) {
  int status = 0;
  ::waitpid(pid, &status, 0);  // the exec stop
  if (::ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL) != 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return -1;
  }
  resume(pid);
  return count_write_stops(pid, answer);
}

}  // namespace

long bare_ptrace_loop(const bare_child& child) {
  auto prog = write_filter();
  sock_fprog fprog{static_cast<unsigned short>(prog.size()), prog.data()};
  std::vector<char*> args = exec_args(child.argv);
  cpu_pin pin(child.cpu >= 0 ? child.cpu : preferred_cpu());
  pid_t pid = ::vfork();  // as the harness spawns: no page tables copied
  if (pid == 0) exec_traced(child, args.data(), &fprog);
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "vfork");
  return trace_from_exec_stop(pid, child.answer);
}

}  // namespace flushcheck::detail
