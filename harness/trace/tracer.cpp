// The ptrace loop. One thread owns every traced process: it forked the child
// (so it is the tracer ptrace knows), and it alone calls waitpid for them.
// That thread is one of the tracer threads (tracer_threads.hpp), kept from
// run to run.
#include "tracer.hpp"

#include <linux/filter.h>
#include <sched.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
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
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "call_decoder.hpp"
#include "cpu_pin.hpp"
#include "error.hpp"
#include "fault_injector.hpp"
#include "fd_lookup.hpp"
#include "file_target.hpp"
#include "guarded.hpp"
#include "input_file.hpp"
#include "proc_status.hpp"
#include "ptrace_stop.hpp"
#include "retry_eintr.hpp"
#include "run_clock.hpp"
#include "seccomp_filter.hpp"
#include "tracee.hpp"
#include "tracer_threads.hpp"

namespace flushcheck {

namespace {

std::uint64_t key(pid_t pid, int fd) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(pid)) << 32) |
         static_cast<std::uint32_t>(fd);
}

int fd_of_key(std::uint64_t k) { return static_cast<int>(static_cast<std::uint32_t>(k)); }

constexpr std::size_t k_max_events = 1000000;

/// Why a traced child ended (status RAW) before its exec stop; a failed
/// exec is reported by spawn itself.
/// Whether SIG sent to thread TID ends its process when it is delivered:
/// not blocked, not caught or ignored, and fatal by default (signal(7)).
bool signal_ends_process(pid_t tid, int sig) {
  if (sig == SIGKILL) return true;
  for (int harmless : {SIGCHLD, SIGCONT, SIGURG, SIGWINCH, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU})
    if (sig == harmless) return false;
  return !detail::status_mask_has(tid, "SigBlk:", sig) &&
         !detail::status_mask_has(tid, "SigIgn:", sig) &&
         !detail::status_mask_has(tid, "SigCgt:", sig);
}

}  // namespace

namespace {

/// The probe's forked child: PTRACE_TRACEME, then a stop; a refusal's errno
/// is its exit code. Async-signal-safe calls only.
[[noreturn]] void traceme_child() {
  if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) ::_exit(errno & 0x7f);
  ::raise(SIGSTOP);
  ::_exit(0);
}

/// Why the probe's child P could not be traced, from how it stopped or
/// ended; "" when it stopped traced (it is then killed and reaped).
std::string traceme_refusal(pid_t p) {
  int raw = 0;
  retry_eintr([&] { return ::waitpid(p, &raw, 0); });
  const ptrace_stop s = ptrace_stop::of(raw);
  if (!s.ended()) {
    ::kill(p, SIGKILL);
    retry_eintr([&] { return ::waitpid(p, nullptr, 0); });
    return "";
  }
  const int err = s.ending().type() == wait_status::kind::exited ? s.ending().code() : 0;
  return "PTRACE_TRACEME is refused here: " +
         std::string(err ? std::strerror(err) : "the child died");
}

/// What stops a child from being traced here, tried once: Yama's scope 3
/// (no ptrace at all), a kernel without seccomp, or a PTRACE_TRACEME that a
/// container's own filter refuses. The child makes async-signal-safe calls
/// only (the caller may have threads).
std::string probe_tracing() {
  int scope = -1;  // no Yama: no file
  std::istringstream(read_file("/proc/sys/kernel/yama/ptrace_scope").value_or("")) >> scope;
  if (scope == 3) return "ptrace is disabled here (kernel.yama.ptrace_scope = 3)";
  if (::prctl(PR_GET_SECCOMP) < 0 && errno == EINVAL)
    return "the kernel has no seccomp (CONFIG_SECCOMP)";
  const pid_t p = ::fork();
  if (p < 0) return "fork: " + std::string(std::strerror(errno));
  if (p == 0) traceme_child();
  return traceme_refusal(p);
}

}  // namespace

std::string tracing_unavailable_reason() {
#if !defined(__x86_64__)
  return "the tracer supports x86_64 only";
#else
  static const std::string why = probe_tracing();
  return why;
#endif
}

/// The write:N / after-write:N cut, exact in the tracer's global order of
/// call entries: with several threads, the observed writes that entered
/// before the N-th have returned when the signal is sent, and those that
/// enter after it wait until then (for good, when the signal ends their
/// process: they never happen).
struct cut_state {
  enum class phase { before, waiting, sent };
  phase at = phase::before;
  pid_t thread = -1;                    // made the N-th call
  user_regs_struct regs{};              // its registers at that entry (write:N)
  bool returned = false;                // after-write:N: the N-th call has returned
  std::unordered_set<pid_t> in_flight;  // entered before the N-th, not yet returned
  std::vector<std::pair<pid_t, detail::decoded_call>> held;  // entered after it
  struct stopped_call {
    detail::decoded_call call;
    int dest;
    std::size_t event;  // index in summary.events, or past its end (dropped)
  };
  std::optional<stopped_call> stopped;  // write:N: the N-th call, not counted
};

namespace {

/// What the caller reads while the tracer thread runs: reachable only
/// through state::shared, with its mutex held.
struct shared_state {
  pid_t pid = -1;
  std::optional<wait_status> status;
  std::optional<kill_event> kill;
  std::unordered_set<pid_t> alive;  ///< every process and thread followed
  std::exception_ptr error;
  /// SIGKILL to every process and thread followed.
  void kill_all_alive() const {
    for (pid_t a : alive) ::kill(a, SIGKILL);
  }
};

}  // namespace

struct tracer::state {
  tracer_options opt;
  int cpu = -1;  // where the caller runs: the tracer thread and the program go there too
  unique_fd exit_event;
  std::promise<void> done;
  std::future<void> done_future = done.get_future();

  guarded<shared_state> shared;

  // Tracer thread only, until done: finish() reads summary after done_future
  // is ready, which orders the thread's writes before it (no lock needed).
  trace_summary summary;
  std::unordered_map<std::uint64_t, int> fd_cache;             // (pid, fd) -> destination
  std::map<std::pair<file_id, std::int64_t>, int> dest_index;  // (file, birth) -> destination
  detail::fd_lookup look_up;
  std::unordered_set<pid_t> expect_sigstop;              // new tracees: their first SIGSTOP is ours
  std::unordered_set<pid_t> early;                       // stopped before their parent's fork event
  std::unordered_map<pid_t, detail::call_site> rewound;  // write:N with a caught signal
  struct pending_result {
    int dest;
    std::size_t event;  // index in summary.events, or past its end (dropped)
  };
  std::unordered_map<pid_t, pending_result> results;  // byte_count::result calls in progress
  std::unordered_map<pid_t, std::size_t> timed;  // time_writes: the event of a write in progress
  long observed_writes = 0;
  cut_state cut;
  detail::fault_injector faults{{}};

  std::int64_t now_us() const { return detail::micros_since(opt.start); }
  bool cutting() const { return opt.kill.needs_tracer(); }
  /// A destination whose writes write:N counts and time_writes times:
  /// stdout's sink, stderr's for a plan on stderr (kill_plan::on_stderr), the
  /// files its glob matches for a plan on a file (kill_plan::file).
  bool observes(const destination_counters& d) const {
    if (!opt.kill.file.empty()) return file_target_matches(opt.kill.file, d.what);
    return has(d.role, opt.kill.on_stderr ? stream_role::err : stream_role::out);
  }

  void set_up(const tracer_options& options);
  void main(spawn_request req, std::promise<pid_t>& started);
  std::optional<pid_t> start_and_tell(spawn_request& req, std::promise<pid_t>& started);
  pid_t start(spawn_request& req);
  void follow(pid_t p);
  void loop();
  void on_stop(pid_t p, const ptrace_stop& s);
  void on_event(pid_t p, int event);
  void on_exec(pid_t p);
  void on_signal_stop(pid_t p, int sig);
  void on_exit(pid_t p, const wait_status& ended);
  void signal_exit_event();
  void on_new_tracee(pid_t parent);
  void forget_calls_in_progress(pid_t p);
  void note_program(pid_t p);
  int destination(pid_t p, int fd);
  void add_destination(detail::fd_target& file);
  void forget_fd(int lo, int hi);

  // A call's entry (seccomp stop) and exit (syscall-exit stop).
  void on_syscall(pid_t p);
  void let_run(pid_t p, detail::decoded_call& c, user_regs_struct& regs);
  bool must_hold(pid_t p, const detail::decoded_call& c);
  void inject(pid_t p, detail::decoded_call& c, user_regs_struct& regs);
  bool is_cut_call(const destination_counters& d) const;
  bool stop_at_exit(pid_t p) const {
    return results.count(p) != 0 || timed.count(p) != 0 || faults.needs_exit(p);
  }
  bool is_rewound_rerun(pid_t p, const user_regs_struct& regs);
  bool account(pid_t p, const detail::decoded_call& c);
  void stop_cut_call(pid_t p, const detail::decoded_call& c, int d, std::size_t event);
  bool count(pid_t p, const detail::decoded_call& c, int d, std::size_t event);
  void count_bytes(pid_t p, const detail::decoded_call& c, int d, std::size_t event);
  void count_rerun(pid_t p);
  void count_write(destination_counters& d, std::int64_t bytes);
  void update_fd_map(const detail::decoded_call& c, const user_regs_struct& regs);
  void keep_child_traced(pid_t p, user_regs_struct& regs);
  void resume_observed(pid_t p, const user_regs_struct& regs);
  void resume(pid_t p, bool stop_at_exit);
  void on_syscall_exit(pid_t p);
  void take_result(pid_t p);
  void take_return_time(pid_t p);

  // The cut.
  void cut_reached(pid_t p, const user_regs_struct& regs);
  void send_cut_if_ready();
  void rewind_cut_call(pid_t p);
  void signal_program(pid_t p);
  void release_held();
};

/// The caller's side of the state, before the tracer thread starts.
void tracer::state::set_up(const tracer_options& options) {
  opt = options;
  faults = detail::fault_injector(options.faults);
  exit_event.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!exit_event) throw_errno("eventfd");
  summary.processes = 1;
  cpu = detail::preferred_cpu();
}

void tracer::state::main(spawn_request req, std::promise<pid_t>& started) {
  // Tracer and tracee on one CPU (the child inherits the pin): a stop costs
  // ~10 us instead of ~90 us. The thread's affinity comes back at the end.
  detail::cpu_pin pin(cpu);
  if (const auto p = start_and_tell(req, started)) follow(*p);
  done.set_value();
}

/// Starts the child and tells the caller its pid, or the exception that
/// stopped it (then nullopt).
std::optional<pid_t> tracer::state::start_and_tell(spawn_request& req,
                                                   std::promise<pid_t>& started) {
  std::exception_ptr failed;
  try {
    const pid_t p = start(req);
    started.set_value(p);
    return p;
  } catch (...) {
    failed = std::current_exception();
  }
  // The exception moves to the caller, and this thread keeps no reference
  // to it once `done` is set (ThreadSanitizer saw this thread free it
  // while the caller printed it).
  started.set_exception(std::move(failed));
  return std::nullopt;
}

/// Follows the started child P until every traced process has ended; an
/// error is kept for the caller, and kills whatever is still alive.
void tracer::state::follow(pid_t p) {
  try {
    detail::resume(p);
    loop();
  } catch (...) {
    shared.with([](shared_state& s) {
      s.error = std::current_exception();
      s.kill_all_alive();
    });
  }
}

namespace {

/// The seccomp program of the traced calls, a copy of one built once per
/// process: the program never changes, and libseccomp's build and export
/// (through a pipe) cost more than a short traced run.
std::vector<sock_filter> traced_calls_program() {
  static const std::vector<sock_filter> filter = detail::traced_calls_filter();
  return filter;
}

/// The ptrace options on the child P, stopped at its exec; P is killed and
/// reaped if they cannot be set.
void set_trace_options(pid_t p) {
  long options = PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
                 PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD |
                 PTRACE_O_EXITKILL;
  if (::ptrace(PTRACE_SETOPTIONS, p, nullptr, options) != 0) {
    ::kill(p, SIGKILL);
    ::waitpid(p, nullptr, __WALL);
    throw_errno("PTRACE_SETOPTIONS");
  }
}

}  // namespace

/// Spawns the child stopped at its exec and sets the ptrace options.
pid_t tracer::state::start(spawn_request& req) {
  std::vector<sock_filter> prog = traced_calls_program();  // sock_fprog wants a mutable pointer
  sock_fprog fprog{static_cast<unsigned short>(prog.size()), prog.data()};
  req.trace_filter = &fprog;
  pid_t p = spawn(req).release();
  wait_exec_stop(p, req.argv.front());
  set_trace_options(p);
  shared.with([p](shared_state& s) {
    s.pid = p;
    s.alive.insert(p);
  });
  return p;
}

void tracer::state::loop() {
  for (;;) {
    int raw = 0;
    pid_t p = retry_eintr([&] { return ::waitpid(-1, &raw, __WALL | __WNOTHREAD); });
    if (p < 0) {
      if (errno == ECHILD) return;
      throw_errno("waitpid");
    }
    ++summary.stops;
    on_stop(p, ptrace_stop::of(raw));
  }
}

/// One stop of traced thread P, by its kind.
void tracer::state::on_stop(pid_t p, const ptrace_stop& s) {
  switch (s.type()) {
    case ptrace_stop::kind::ended: on_exit(p, s.ending()); break;
    case ptrace_stop::kind::syscall: on_syscall_exit(p); break;
    case ptrace_stop::kind::event: on_event(p, s.event()); break;
    case ptrace_stop::kind::signal: on_signal_stop(p, s.signal()); break;
  }
}

void tracer::state::on_event(pid_t p, int event) {
  if (event == PTRACE_EVENT_SECCOMP) return on_syscall(p);
  if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK || event == PTRACE_EVENT_CLONE)
    on_new_tracee(p);
  else if (event == PTRACE_EVENT_EXEC)
    on_exec(p);
  detail::resume(p);
}

void tracer::state::on_exec(pid_t p) {
  for (auto it = fd_cache.begin(); it != fd_cache.end();)  // close-on-exec fds are gone
    it = (it->first >> 32) == static_cast<std::uint32_t>(p) ? fd_cache.erase(it) : ++it;
  forget_calls_in_progress(p);
  note_program(p);
  // A thread that exec'd took the leader's id: its former id has no exit reported.
  if (auto former = detail::event_message(p)) forget_calls_in_progress(static_cast<pid_t>(*former));
}

void tracer::state::on_signal_stop(pid_t p, int sig) {
  const bool known = shared.with([p](shared_state& s) { return !s.alive.insert(p).second; });
  if (sig == SIGSTOP && (expect_sigstop.erase(p) != 0 || !known)) {
    if (!known) early.insert(p);  // its parent's fork event is still to come
    return detail::resume(p);
  }
  if (detail::at_group_stop(p)) return;  // stays stopped, as without a tracer
  detail::resume(p, sig);                // deliver it: never swallow a signal
}

void tracer::state::on_new_tracee(pid_t parent) {
  const auto child = detail::event_message(parent);
  if (!child) return;  // the parent is gone; the child, if any, dies with it (EXITKILL)
  auto c = static_cast<pid_t>(*child);
  if (early.erase(c) == 0) expect_sigstop.insert(c);
  shared.with([c](shared_state& s) { s.alive.insert(c); });
  ++summary.processes;
}

/// P's call in progress is gone (its thread ended, or an exec replaced it):
/// nothing of it may be applied to the next call that stops there.
void tracer::state::forget_calls_in_progress(pid_t p) {
  results.erase(p);
  timed.erase(p);
  faults.forget(p);
}

/// P exec'd: the program it runs now, by /proc/P/exe, once in the summary.
void tracer::state::note_program(pid_t p) {
  std::error_code ec;
  std::string exe =
      std::filesystem::read_symlink("/proc/" + std::to_string(p) + "/exe", ec).string();
  if (ec) return;
  auto& seen = summary.programs;
  if (seen.size() < trace_summary::max_programs &&
      std::find(seen.begin(), seen.end(), exe) == seen.end())
    seen.push_back(std::move(exe));
}

void tracer::state::on_exit(pid_t p, const wait_status& ended) {
  forget_calls_in_progress(p);
  look_up.forget(p);
  std::erase_if(cut.held, [p](const auto& h) { return h.first == p; });
  if (cut.in_flight.erase(p) != 0) send_cut_if_ready();
  const bool program_ended = shared.with([&](shared_state& s) {
    s.alive.erase(p);
    if (p != s.pid || s.status) return false;
    s.status = ended;
    return true;
  });
  if (program_ended) signal_exit_event();
}

/// The program has ended: exit_fd() polls readable.
void tracer::state::signal_exit_event() {
  std::uint64_t one = 1;  // the eventfd's counter cannot overflow at 1
  ssize_t ignored = ::write(exit_event.get(), &one, sizeof one);
  (void)ignored;
}

int tracer::state::destination(pid_t p, int fd) {
  if (fd < 0) return -1;
  auto it = fd_cache.find(key(p, fd));
  if (it != fd_cache.end()) return it->second;
  auto file = look_up(p, fd);
  if (!file) return -1;  // not open: the call will fail with EBADF
  auto [pos, fresh] = dest_index.emplace(std::pair{file->id, file->born},
                                         static_cast<int>(summary.destinations.size()));
  if (fresh) add_destination(*file);
  auto& fds = summary.destinations[static_cast<std::size_t>(pos->second)].fds;
  if (std::find(fds.begin(), fds.end(), fd) == fds.end()) fds.push_back(fd);
  fd_cache.emplace(key(p, fd), pos->second);
  return pos->second;
}

/// FILE's destination, new: last in the summary, its name moved out of FILE.
void tracer::state::add_destination(detail::fd_target& file) {
  destination_counters d;
  d.what = std::move(file.what);
  bool out = file.id == opt.stdout_id, err = file.id == opt.stderr_id;
  d.role = role_of(out, err);
  summary.destinations.push_back(std::move(d));
}

void tracer::state::forget_fd(int lo, int hi) {
  for (auto it = fd_cache.begin(); it != fd_cache.end();) {
    int fd = fd_of_key(it->first);
    it = fd >= lo && fd <= hi ? fd_cache.erase(it) : ++it;
  }
}

void tracer::state::on_syscall(pid_t p) {
  user_regs_struct regs{};
  if (!detail::get_regs(p, regs)) return;  // gone (SIGKILL)
  if (is_rewound_rerun(p, regs)) {
    count_rerun(p);
    return resume(p, stop_at_exit(p));
  }
  auto call = detail::decode_call(p, regs);
  if (!call) return resume(p, false);
  if (must_hold(p, *call)) {
    cut.held.emplace_back(p, *call);
    return;
  }
  let_run(p, *call, regs);
}

/// A call that goes ahead: faulted, counted, its fds mapped, its child kept
/// traced, then resumed.
void tracer::state::let_run(pid_t p, detail::decoded_call& c, user_regs_struct& regs) {
  inject(p, c, regs);
  bool observed = account(p, c);
  update_fd_map(c, regs);
  if (info(c.call).family == call_family::process) keep_child_traced(p, regs);
  if (observed && cutting()) return resume_observed(p, regs);
  resume(p, stop_at_exit(p));
}

/// --fault: the call may be rewritten (an errno, a short write) before it
/// is counted, so that the counts say what the kernel was asked to do.
void tracer::state::inject(pid_t p, detail::decoded_call& c, user_regs_struct& regs) {
  if (faults.empty() || !is_write_family(c.call)) return;
  int d = destination(p, c.fd);
  if (d < 0) return;
  const auto& dest = summary.destinations[static_cast<std::size_t>(d)];
  if (is_cut_call(dest)) return;  // it never happens: the cut's signal comes instead
  faults.at_entry(p, dest, dest.write_calls + 1, c, regs, now_us());
}

/// Whether the next observed write to destination D is the write:N cut's.
bool tracer::state::is_cut_call(const destination_counters& d) const {
  return opt.kill.when == kill_plan::when_kind::write && cut.at == cut_state::phase::before &&
         observes(d) && observed_writes + 1 == opt.kill.n;
}

/// An observed write after the N-th waits while the cut is under way, and
/// for good once the signal is on its way to end its process.
bool tracer::state::must_hold(pid_t p, const detail::decoded_call& c) {
  if (cut.at == cut_state::phase::before || !is_write_family(c.call)) return false;
  int d = destination(p, c.fd);
  if (d < 0 || !observes(summary.destinations[static_cast<std::size_t>(d)])) return false;
  return cut.at == cut_state::phase::waiting || signal_ends_process(p, opt.kill.signal);
}

/// The call rewound by a write:N cut, made again after a caught signal's
/// handler: it was logged at the cut (count_rerun counts it now).
bool tracer::state::is_rewound_rerun(pid_t p, const user_regs_struct& regs) {
  auto it = rewound.find(p);
  if (it == rewound.end()) return false;
  const bool same = it->second == detail::site_of(regs);
  if (same) rewound.erase(it);
  return same;
}

/// Counts the call (per destination, totals, event log); true if it is a
/// write to the observed sink (observes), the calls write:N counts. The
/// write:N cut's call is logged but not counted: it is stopped at its entry
/// and never runs, unless a caught signal's handler returns and it is made
/// then (count_rerun).
bool tracer::state::account(pid_t p, const detail::decoded_call& c) {
  const int d = destination(p, c.fd);
  std::size_t event = summary.events.size();
  if (event < k_max_events)
    summary.events.push_back({now_us(), p, c.call, c.fd, c.bytes, d});
  else
    event = SIZE_MAX, ++summary.events_dropped;
  if (d >= 0 && is_write_family(c.call) &&
      is_cut_call(summary.destinations[static_cast<std::size_t>(d)])) {
    stop_cut_call(p, c, d, event);
    return true;
  }
  return count(p, c, d, event);
}

/// The write:N cut's call C, to destination D: logged (EVENT) as stopped,
/// not counted.
void tracer::state::stop_cut_call(pid_t p, const detail::decoded_call& c, int d,
                                  std::size_t event) {
  cut.stopped = {c, d, event};
  if (event != SIZE_MAX) summary.events[event].stopped = true;
  summary.stopped = trace_event{now_us(), p, c.call, c.fd, c.bytes, d};
  summary.stopped->stopped = true;
}

/// Adds a call that runs to the counts; true if it is a write to the observed sink.
bool tracer::state::count(pid_t p, const detail::decoded_call& c, int d, std::size_t event) {
  const auto i = static_cast<std::size_t>(c.call);
  ++summary.totals[i];
  if (d < 0) return false;
  auto& dest = summary.destinations[static_cast<std::size_t>(d)];
  ++dest.calls[i];
  if (!is_write_family(c.call)) return false;
  ++dest.write_calls;
  count_bytes(p, c, d, event);
  const bool observed = observes(dest);
  if (observed && opt.time_writes && event != SIZE_MAX) timed[p] = event;
  return observed;
}

/// The bytes of write C to destination D: now, or at its exit for a
/// byte_count::result call (take_result).
void tracer::state::count_bytes(pid_t p, const detail::decoded_call& c, int d, std::size_t event) {
  if (info(c.call).bytes == byte_count::result)
    results[p] = {d, event};
  else
    count_write(summary.destinations[static_cast<std::size_t>(d)], c.bytes);
}

/// The call a write:N cut stopped, made again after a caught signal's
/// handler returned: it runs now, and is counted.
void tracer::state::count_rerun(pid_t p) {
  if (!cut.stopped) return;
  const auto s = *std::exchange(cut.stopped, std::nullopt);
  if (s.event < summary.events.size()) summary.events[s.event].stopped = false;
  summary.stopped.reset();
  count(p, s.call, s.dest, s.event);
}

void tracer::state::count_write(destination_counters& d, std::int64_t bytes) {
  d.bytes += bytes;
  int bucket = bytes <= 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(bytes)) - 1;
  ++d.size_histogram[static_cast<std::size_t>(std::min(bucket, 31))];
}

void tracer::state::update_fd_map(const detail::decoded_call& c, const user_regs_struct& regs) {
  using detail::syscall_arg;
  if (c.call == traced_call::close) forget_fd(c.fd, c.fd);
  if (c.call == traced_call::dup2 || c.call == traced_call::dup3)
    forget_fd(static_cast<int>(syscall_arg(regs, 1)), static_cast<int>(syscall_arg(regs, 1)));
  if (c.call == traced_call::close_range)
    forget_fd(static_cast<int>(syscall_arg(regs, 0)),
              static_cast<int>(std::min<unsigned long long>(syscall_arg(regs, 1), 1U << 30)));
}

void tracer::state::resume(pid_t p, bool stop_at_exit) {
  stop_at_exit ? detail::resume_to_exit(p) : detail::resume(p);
}

/// CLONE_UNTRACED would give the child the filter without the tracer: its
/// traced calls would fail with ENOSYS. Cleared, the child is followed as
/// any other (clone: the flags register; clone3: clone_args.flags, the first
/// word of its argument, written with POKEDATA whatever the page's protection).
void tracer::state::keep_child_traced(pid_t p, user_regs_struct& regs) {
  using detail::syscall_arg;
  const auto flags = syscall_arg(regs, 0);
  if (detail::syscall_nr(regs) == SYS_clone && (flags & CLONE_UNTRACED) != 0) {
    detail::set_syscall_arg(regs, 0, flags & ~static_cast<unsigned long long>(CLONE_UNTRACED));
    detail::set_regs(p, regs);
  } else if (detail::syscall_nr(regs) == SYS_clone3) {
    // A bad pointer is the program's: clone3 fails with EFAULT as without a tracer.
    const auto word = detail::peek_word(p, flags);
    if (word && (*word & CLONE_UNTRACED) != 0)
      detail::poke_word(p, flags, static_cast<unsigned long long>(*word & ~long{CLONE_UNTRACED}));
  }
}

/// An observed write under a write:N / after-write:N plan.
void tracer::state::resume_observed(pid_t p, const user_regs_struct& regs) {
  long k = ++observed_writes;
  if (k == opt.kill.n) return cut_reached(p, regs);
  // One thread alone: its write returns before its next.
  const bool others = shared.with([](const shared_state& s) { return s.alive.size() > 1; });
  if (k < opt.kill.n && others) cut.in_flight.insert(p);
  resume(p, stop_at_exit(p) || (k < opt.kill.n && others));
}

void tracer::state::on_syscall_exit(pid_t p) {
  take_result(p);
  take_return_time(p);
  faults.at_exit(p);
  bool was_in_flight = cut.in_flight.erase(p) != 0;
  if (p == cut.thread && cut.at == cut_state::phase::waiting) {
    cut.returned = true;  // after-write:N: stays stopped here until the signal goes
    return send_cut_if_ready();
  }
  detail::resume(p);
  if (was_in_flight) send_cut_if_ready();
}

/// The result of a byte_count::result call (sendfile, splice, ...).
void tracer::state::take_result(pid_t p) {
  auto it = results.find(p);
  if (it == results.end()) return;
  const std::int64_t n = std::max(detail::read_syscall_result(p).value_or(0), 0L);
  count_write(summary.destinations[static_cast<std::size_t>(it->second.dest)], n);
  if (it->second.event < summary.events.size()) summary.events[it->second.event].bytes = n;
  results.erase(it);
}

/// time_writes: when a write to the observed sink returned, and what.
void tracer::state::take_return_time(pid_t p) {
  auto it = timed.find(p);
  if (it == timed.end()) return;
  auto& e = summary.events[it->second];
  e.returned_us = now_us();
  e.result = detail::read_syscall_result(p).value_or(0);
  timed.erase(it);
}

void tracer::state::cut_reached(pid_t p, const user_regs_struct& regs) {
  cut.at = cut_state::phase::waiting;
  cut.thread = p;
  cut.regs = regs;
  if (opt.kill.when == kill_plan::when_kind::after_write)
    resume(p, true);  // one syscall-exit stop, then the signal
  else
    send_cut_if_ready();
}

void tracer::state::send_cut_if_ready() {
  if (cut.at != cut_state::phase::waiting || !cut.in_flight.empty()) return;
  bool at_entry = opt.kill.when == kill_plan::when_kind::write;
  if (!at_entry && !cut.returned) return;
  pid_t p = cut.thread;
  if (at_entry) rewind_cut_call(p);
  signal_program(p);
  cut.at = cut_state::phase::sent;
  detail::resume(p);
  release_held();
}

/// write:N: the cut's call, made by P, does not happen now.
void tracer::state::rewind_cut_call(pid_t p) {
  // Skip the call and rewind to its syscall instruction: a fatal signal
  // ends the process before the write; a caught one runs its handler, and
  // the write is then made as if restarted (SA_RESTART).
  rewound[p] = detail::site_of(cut.regs);  // as its re-run will stop
  forget_calls_in_progress(p);  // the call does not happen now; its re-run is not counted
  detail::rewind_syscall(cut.regs);
  detail::set_regs(p, cut.regs);
}

/// The cut's signal to the thread that made the N-th call, and once to each
/// other process of the program (its forks), as a kill of the process group.
void tracer::state::signal_program(pid_t p) {
  pid_t writer = detail::tgid_of(p);
  ::syscall(SYS_tgkill, writer, p, opt.kill.signal);
  std::unordered_set<pid_t> others;
  shared.with([&](shared_state& s) {
    for (pid_t a : s.alive) others.insert(detail::tgid_of(a));
    s.kill = kill_event{opt.kill.signal, opt.kill.when_text(), true, now_us()};
  });
  others.erase(writer);
  for (pid_t o : others) ::kill(o, opt.kill.signal);
}

/// Writes held past the N-th go on where the signal does not end their
/// process; the others stay stopped and die with it.
void tracer::state::release_held() {
  auto held = std::move(cut.held);
  cut.held.clear();
  for (auto& [p, c] : held) {
    if (signal_ends_process(p, opt.kill.signal)) {
      cut.held.emplace_back(p, c);
      continue;
    }
    account(p, c);
    ++observed_writes;
    resume(p, stop_at_exit(p));
  }
}

tracer::tracer(const spawn_request& request, const tracer_options& options)
    : s_(std::make_shared<state>()) {
  std::string why = tracing_unavailable_reason();
  if (!why.empty()) throw spawn_error(why);
  s_->set_up(options);
  std::promise<pid_t> started;
  auto pid_future = started.get_future();
  detail::run_on_tracer_thread([st = s_, request, &started] { st->main(request, started); });
  try {
    pid_future.get();
  } catch (...) {
    s_->done_future.wait();
    throw;
  }
}

tracer::~tracer() {
  if (s_->done_future.wait_for(std::chrono::seconds(0)) == std::future_status::ready) return;
  s_->shared.with([](const shared_state& s) { s.kill_all_alive(); });
  s_->done_future.wait();
}

pid_t tracer::pid() const noexcept {
  return s_->shared.with([](const shared_state& s) { return s.pid; });
}

int tracer::exit_fd() const noexcept { return s_->exit_event.get(); }

std::optional<wait_status> tracer::status() const {
  return s_->shared.with([](const shared_state& s) { return s.status; });
}

std::optional<kill_event> tracer::kill() const {
  return s_->shared.with([](const shared_state& s) { return s.kill; });
}

trace_summary tracer::finish() {
  // Everything in the group was killed by the caller; a process that left
  // the group (setsid) is killed here after a grace period.
  while (s_->done_future.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready)
    s_->shared.with([](const shared_state& s) { s.kill_all_alive(); });
  const auto error = s_->shared.with([](const shared_state& s) { return s.error; });
  if (error) std::rethrow_exception(error);
  s_->summary.faults = s_->faults.results();
  s_->summary.writes_timed = s_->opt.time_writes;
  return std::move(s_->summary);
}

}  // namespace flushcheck
