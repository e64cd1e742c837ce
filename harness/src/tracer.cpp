// The ptrace loop. One thread owns every traced process: it forked the child
// (so it is the tracer ptrace knows), and it alone calls waitpid for them.
#include "flushcheck/tracer.hpp"

#include <linux/filter.h>
#include <sched.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "flushcheck/error.hpp"
#include "seccomp_filter.hpp"

namespace flushcheck {

namespace {

constexpr const char* k_call_names[traced_call_count] = {
    "write",  "writev",  "pwrite64", "pwritev",   "pwritev2",
    "sendto", "sendmsg", "fsync",    "fdatasync", "sync_file_range",
    "close",  "dup",     "dup2",     "dup3",      "fcntl_dupfd"};

std::optional<traced_call> call_of(long nr) {
  switch (nr) {
    case SYS_write: return traced_call::write;
    case SYS_writev: return traced_call::writev;
    case SYS_pwrite64: return traced_call::pwrite64;
    case SYS_pwritev: return traced_call::pwritev;
    case SYS_pwritev2: return traced_call::pwritev2;
    case SYS_sendto: return traced_call::sendto;
    case SYS_sendmsg: return traced_call::sendmsg;
    case SYS_fsync: return traced_call::fsync;
    case SYS_fdatasync: return traced_call::fdatasync;
    case SYS_sync_file_range: return traced_call::sync_file_range;
    case SYS_close: return traced_call::close;
    case SYS_dup: return traced_call::dup;
    case SYS_dup2: return traced_call::dup2;
    case SYS_dup3: return traced_call::dup3;
    case SYS_fcntl: return traced_call::fcntl_dupfd;
    default: return std::nullopt;
  }
}

std::uint64_t key(pid_t pid, int fd) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(pid)) << 32) |
         static_cast<std::uint32_t>(fd);
}

int fd_of_key(std::uint64_t k) { return static_cast<int>(static_cast<std::uint32_t>(k)); }

pid_t tgid_of(pid_t tid) {
  std::ifstream in("/proc/" + std::to_string(tid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("Tgid:")) return static_cast<pid_t>(std::stol(line.substr(5)));
  return tid;
}

}  // namespace

const char* to_string(traced_call c) noexcept { return k_call_names[static_cast<int>(c)]; }

bool is_write_family(traced_call c) noexcept { return static_cast<int>(c) <= 6; }

std::string tracing_unavailable_reason() {
#if !defined(__x86_64__)
  return "the tracer supports x86_64 only";
#else
  return "";
#endif
}

struct tracer::state {
  tracer_options opt;
  std::thread thread;
  unique_fd exit_event;
  std::promise<void> done;
  std::future<void> done_future = done.get_future();

  mutable std::mutex mu;  // guards the fields below that the caller reads
  pid_t pid = -1;
  std::optional<wait_status> status;
  std::optional<kill_event> kill;
  std::unordered_set<pid_t> alive;
  std::exception_ptr error;
  trace_summary summary;

  // Tracer thread only.
  std::unordered_map<std::uint64_t, int> fd_cache;  // (pid, fd) -> destination
  std::map<file_id, int> dest_index;
  std::unordered_set<pid_t> expect_sigstop;  // new tracees: their first SIGSTOP is ours
  std::unordered_set<pid_t> early;           // stopped before their parent's fork event
  std::unordered_set<pid_t> kill_at_exit;    // after-write:N
  struct rewound_call {
    unsigned long long rip, nr, a0, a1, a2;
  };
  std::unordered_map<pid_t, rewound_call> rewound;  // write:N with a caught signal
  long observed_writes = 0;

  std::int64_t now_us() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                 opt.start)
        .count();
  }

  void main(spawn_request req, std::promise<pid_t>& started);
  void loop();
  void on_exit(pid_t p, int raw);
  void on_syscall(pid_t p);
  void on_new_tracee(pid_t parent);
  int destination(pid_t p, int fd);
  std::int64_t iov_bytes(pid_t p, unsigned long long iov, unsigned long long count);
  void carry_out_kill(pid_t p, user_regs_struct& regs);
  void forget_fd(int lo, int hi);
};

void tracer::state::main(spawn_request req, std::promise<pid_t>& started) {
  if (opt.pin_cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    int cpu = sched_getcpu();
    CPU_SET(cpu < 0 ? 0 : cpu, &set);
    sched_setaffinity(0, sizeof set, &set);  // this thread; the child inherits it
  }
  pid_t p = -1;
  try {
    // Built once per process: the program never changes, and libseccomp's
    // build and export (through a pipe) cost more than a short traced run.
    static const std::vector<sock_filter> filter = detail::traced_calls_filter();
    std::vector<sock_filter> prog = filter;  // sock_fprog wants a mutable pointer
    sock_fprog fprog{static_cast<unsigned short>(prog.size()), prog.data()};
    req.trace_filter = &fprog;
    p = spawn(req).release();
    int raw = 0;
    while (::waitpid(p, &raw, __WALL) < 0 && errno == EINTR) {
    }
    if (!WIFSTOPPED(raw)) {
      throw spawn_error(req.argv.front() + ": exec failed under the tracer (the child " +
                        wait_status::from_raw(raw).describe() + " before its first instruction)");
    }
    long options = PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
                   PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD |
                   PTRACE_O_EXITKILL;
    if (::ptrace(PTRACE_SETOPTIONS, p, nullptr, options) != 0) throw_errno("PTRACE_SETOPTIONS");
    {
      std::lock_guard lock(mu);
      pid = p;
      alive.insert(p);
    }
    started.set_value(p);
  } catch (...) {
    if (p > 0) {
      ::kill(p, SIGKILL);
      ::waitpid(p, nullptr, __WALL);
    }
    started.set_exception(std::current_exception());
    done.set_value();
    return;
  }
  try {
    ::ptrace(PTRACE_CONT, p, nullptr, nullptr);
    loop();
  } catch (...) {
    std::lock_guard lock(mu);
    error = std::current_exception();
    for (pid_t a : alive) ::kill(a, SIGKILL);
  }
  done.set_value();
}

void tracer::state::loop() {
  for (;;) {
    int raw = 0;
    pid_t p = ::waitpid(-1, &raw, __WALL | __WNOTHREAD);
    if (p < 0) {
      if (errno == EINTR) continue;
      if (errno == ECHILD) return;
      throw_errno("waitpid");
    }
    ++summary.stops;
    if (WIFEXITED(raw) || WIFSIGNALED(raw)) {
      on_exit(p, raw);
      continue;
    }
    if (!WIFSTOPPED(raw)) continue;
    int sig = WSTOPSIG(raw);
    int event = raw >> 16;
    if (event == PTRACE_EVENT_SECCOMP) {
      on_syscall(p);
      continue;
    }
    if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK || event == PTRACE_EVENT_CLONE) {
      on_new_tracee(p);
    } else if (event == PTRACE_EVENT_EXEC) {
      for (auto it = fd_cache.begin(); it != fd_cache.end();)  // close-on-exec fds are gone
        it = (it->first >> 32) == static_cast<std::uint32_t>(p) ? fd_cache.erase(it) : ++it;
    } else if (event != 0) {
      // other events: nothing to do
    } else if (sig == (SIGTRAP | 0x80)) {  // syscall-exit stop: after-write:N
      if (kill_at_exit.erase(p) != 0) {
        ::syscall(SYS_tgkill, tgid_of(p), p, opt.kill.signal);
        std::lock_guard lock(mu);
        kill = kill_event{opt.kill.signal, opt.kill.when_text(), true, now_us()};
      }
    } else {
      bool known;
      {
        std::lock_guard lock(mu);
        known = alive.count(p) != 0;
        if (!known) alive.insert(p);
      }
      if (sig == SIGSTOP && (expect_sigstop.erase(p) != 0 || !known)) {
        if (!known) early.insert(p);  // its parent's fork event is still to come
      } else {
        siginfo_t si;
        bool group_stop = ::ptrace(PTRACE_GETSIGINFO, p, nullptr, &si) != 0 && errno == EINVAL;
        if (group_stop) continue;                // stays stopped, as without a tracer
        ::ptrace(PTRACE_CONT, p, nullptr, sig);  // deliver it: never swallow a signal
        continue;
      }
    }
    ::ptrace(PTRACE_CONT, p, nullptr, nullptr);
  }
}

void tracer::state::on_new_tracee(pid_t parent) {
  unsigned long child = 0;
  ::ptrace(PTRACE_GETEVENTMSG, parent, nullptr, &child);
  auto c = static_cast<pid_t>(child);
  if (early.erase(c) == 0) expect_sigstop.insert(c);
  std::lock_guard lock(mu);
  alive.insert(c);
  ++summary.processes;
}

void tracer::state::on_exit(pid_t p, int raw) {
  std::lock_guard lock(mu);
  alive.erase(p);
  kill_at_exit.erase(p);
  if (p == pid && !status) {
    status = wait_status::from_raw(raw);
    std::uint64_t one = 1;
    ssize_t ignored = ::write(exit_event.get(), &one, sizeof one);
    (void)ignored;
  }
}

int tracer::state::destination(pid_t p, int fd) {
  if (fd < 0) return -1;
  auto it = fd_cache.find(key(p, fd));
  if (it != fd_cache.end()) return it->second;
  std::string path = "/proc/" + std::to_string(p) + "/fd/" + std::to_string(fd);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;  // not open: the call will fail with EBADF
  file_id id{st.st_dev, st.st_ino};
  auto [pos, fresh] = dest_index.emplace(id, static_cast<int>(summary.destinations.size()));
  if (fresh) {
    destination_counters d;
    char link[512];
    ssize_t n = ::readlink(path.c_str(), link, sizeof link - 1);
    d.what = n > 0 ? std::string(link, static_cast<std::size_t>(n)) : "?";
    bool out = id == opt.stdout_id, err = id == opt.stderr_id;
    d.role = out && err ? "stdout+stderr" : out ? "stdout" : err ? "stderr" : "";
    summary.destinations.push_back(std::move(d));
  }
  auto& fds = summary.destinations[static_cast<std::size_t>(pos->second)].fds;
  if (std::find(fds.begin(), fds.end(), fd) == fds.end()) fds.push_back(fd);
  fd_cache.emplace(key(p, fd), pos->second);
  return pos->second;
}

std::int64_t tracer::state::iov_bytes(pid_t p, unsigned long long iov, unsigned long long count) {
  iovec vec[1024];
  count = std::min<unsigned long long>(count, 1024);
  iovec local{vec, count * sizeof(iovec)};
  iovec remote{reinterpret_cast<void*>(iov), count * sizeof(iovec)};
  ssize_t n = ::process_vm_readv(p, &local, 1, &remote, 1, 0);
  if (n < 0) return 0;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(n) / sizeof(iovec); ++i)
    total += static_cast<std::int64_t>(vec[i].iov_len);
  return total;
}

void tracer::state::forget_fd(int lo, int hi) {
  for (auto it = fd_cache.begin(); it != fd_cache.end();) {
    int fd = fd_of_key(it->first);
    it = fd >= lo && fd <= hi ? fd_cache.erase(it) : ++it;
  }
}

void tracer::state::carry_out_kill(pid_t p, user_regs_struct& regs) {
  // Skip the call and rewind to its syscall instruction: a fatal signal ends
  // the process before the write; a caught one runs its handler, and the
  // write is then made as if restarted (SA_RESTART).
  rewound[p] = {regs.rip, regs.orig_rax, regs.rdi, regs.rsi, regs.rdx};  // rip after the re-run
  regs.rax = regs.orig_rax;
  regs.orig_rax = static_cast<unsigned long long>(-1);
  regs.rip -= 2;
  ::ptrace(PTRACE_SETREGS, p, nullptr, &regs);
  ::syscall(SYS_tgkill, tgid_of(p), p, opt.kill.signal);
  std::lock_guard lock(mu);
  kill = kill_event{opt.kill.signal, opt.kill.when_text(), true, now_us()};
}

void tracer::state::on_syscall(pid_t p) {
  user_regs_struct regs{};
  if (::ptrace(PTRACE_GETREGS, p, nullptr, &regs) != 0) return;  // gone (SIGKILL)
  auto restarted = rewound.find(p);
  if (restarted != rewound.end()) {
    const auto& r = restarted->second;
    bool same = r.rip == regs.rip && r.nr == regs.orig_rax && r.a0 == regs.rdi &&
                r.a1 == regs.rsi && r.a2 == regs.rdx;
    if (same) {  // the rewound call, made again after a handler: counted once already
      rewound.erase(restarted);
      ::ptrace(PTRACE_CONT, p, nullptr, nullptr);
      return;
    }
  }
  auto call = call_of(static_cast<long>(regs.orig_rax));
  if (!call) {
    ::ptrace(PTRACE_CONT, p, nullptr, nullptr);
    return;
  }
  if (regs.orig_rax == SYS_close_range) {
    forget_fd(static_cast<int>(regs.rdi),
              static_cast<int>(std::min<unsigned long long>(regs.rsi, 1u << 30)));
    ::ptrace(PTRACE_CONT, p, nullptr, nullptr);
    return;
  }
  int fd = static_cast<int>(regs.rdi);
  std::int64_t bytes = 0;
  switch (*call) {
    case traced_call::write:
    case traced_call::pwrite64:
    case traced_call::sendto: bytes = static_cast<std::int64_t>(regs.rdx); break;
    case traced_call::writev:
    case traced_call::pwritev:
    case traced_call::pwritev2: bytes = iov_bytes(p, regs.rsi, regs.rdx); break;
    case traced_call::sendmsg: {
      msghdr m{};
      iovec local{&m, sizeof m};
      iovec remote{reinterpret_cast<void*>(regs.rsi), sizeof m};
      if (::process_vm_readv(p, &local, 1, &remote, 1, 0) == sizeof m)
        bytes = iov_bytes(p, reinterpret_cast<unsigned long long>(m.msg_iov), m.msg_iovlen);
      break;
    }
    default: break;
  }
  int d = destination(p, fd);
  auto c = static_cast<std::size_t>(*call);
  ++summary.totals[c];
  bool observed = false;
  if (d >= 0) {
    auto& dest = summary.destinations[static_cast<std::size_t>(d)];
    ++dest.calls[c];
    if (is_write_family(*call)) {
      ++dest.write_calls;
      dest.bytes += bytes;
      int bucket = bytes <= 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(bytes)) - 1;
      ++dest.size_histogram[static_cast<std::size_t>(std::min(bucket, 31))];
      observed = dest.role.starts_with("stdout");
    }
  }
  if (summary.events.size() < opt.max_events)
    summary.events.push_back({now_us(), p, *call, fd, bytes});
  else
    ++summary.events_dropped;
  if (*call == traced_call::close) forget_fd(fd, fd);
  if (*call == traced_call::dup2 || *call == traced_call::dup3)
    forget_fd(static_cast<int>(regs.rsi), static_cast<int>(regs.rsi));

  if (observed && ++observed_writes == opt.kill.n) {
    if (opt.kill.when == kill_plan::when_kind::write) {
      carry_out_kill(p, regs);
    } else if (opt.kill.when == kill_plan::when_kind::after_write) {
      kill_at_exit.insert(p);
      ::ptrace(PTRACE_SYSCALL, p, nullptr, nullptr);  // one syscall-exit stop, then kill
      return;
    }
  }
  ::ptrace(PTRACE_CONT, p, nullptr, nullptr);
}

tracer::tracer(const spawn_request& request, const tracer_options& options)
    : s_(std::make_unique<state>()) {
  std::string why = tracing_unavailable_reason();
  if (!why.empty()) throw spawn_error(why);
  s_->opt = options;
  s_->exit_event.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!s_->exit_event) throw_errno("eventfd");
  s_->summary.processes = 1;
  std::promise<pid_t> started;
  auto pid_future = started.get_future();
  s_->thread = std::thread([st = s_.get(), request, &started] { st->main(request, started); });
  try {
    pid_future.get();
  } catch (...) {
    s_->thread.join();
    throw;
  }
}

tracer::~tracer() {
  if (!s_->thread.joinable()) return;
  {
    std::lock_guard lock(s_->mu);
    for (pid_t a : s_->alive) ::kill(a, SIGKILL);
  }
  s_->thread.join();
}

pid_t tracer::pid() const noexcept {
  std::lock_guard lock(s_->mu);
  return s_->pid;
}

int tracer::exit_fd() const noexcept { return s_->exit_event.get(); }

std::optional<wait_status> tracer::status() const {
  std::lock_guard lock(s_->mu);
  return s_->status;
}

std::optional<kill_event> tracer::kill() const {
  std::lock_guard lock(s_->mu);
  return s_->kill;
}

trace_summary tracer::finish() {
  // Everything in the group was killed by the caller; a process that left
  // the group (setsid) is killed here after a grace period.
  while (s_->done_future.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready) {
    std::lock_guard lock(s_->mu);
    for (pid_t a : s_->alive) ::kill(a, SIGKILL);
  }
  s_->thread.join();
  std::lock_guard lock(s_->mu);
  if (s_->error) std::rethrow_exception(s_->error);
  return std::move(s_->summary);
}

}  // namespace flushcheck
