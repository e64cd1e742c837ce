// The ptrace loop. One thread owns every traced process: it forked the child
// (so it is the tracer ptrace knows), and it alone calls waitpid for them.
// That thread is one of the tracer threads (tracer_threads.hpp), kept from
// run to run.
#include "tracer.hpp"

#include <signal.h>
#include <sys/eventfd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <future>
#include <mutex>
#include <unordered_set>

#include "call_decoder.hpp"
#include "call_ledger.hpp"
#include "cpu_pin.hpp"
#include "error.hpp"
#include "fault_injector.hpp"
#include "fd_table.hpp"
#include "file_target.hpp"
#include "guarded.hpp"
#include "proc_status.hpp"
#include "ptrace_stop.hpp"
#include "retry_eintr.hpp"
#include "run_clock.hpp"
#include "tracee.hpp"
#include "tracer_threads.hpp"
#include "write_cut.hpp"

namespace flushcheck {

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

/// The tracer thread's loop and what it keeps: the fd table, the ledger of
/// calls, the cut and the faults, each a type of its own; this is where
/// they meet the stops.
struct tracer::state {
  explicit state(const tracer_options& options);

  tracer_options opt;
  int cpu = -1;  // where the caller runs: the tracer thread and the program go there too
  unique_fd exit_event;
  std::promise<void> done;
  std::future<void> done_future = done.get_future();

  guarded<shared_state> shared;

  // Tracer thread only, until done: finish() reads them after done_future
  // is ready, which orders the thread's writes before it (no lock needed).
  trace_summary summary;
  detail::fd_table fds;
  detail::call_ledger ledger;
  detail::write_cut cut;
  detail::fault_injector faults;
  std::unordered_set<pid_t> expect_sigstop;  // new tracees: their first SIGSTOP is ours
  std::unordered_set<pid_t> early;           // stopped before their parent's fork event

  std::int64_t now_us() const { return detail::micros_since(opt.start); }
  /// A destination whose writes write:N counts and time_writes times:
  /// stdout's sink, stderr's for a plan on stderr (kill_plan::on_stderr), the
  /// files its glob matches for a plan on a file (kill_plan::file).
  bool observes(const destination_counters& d) const {
    if (!opt.kill.file.empty()) return file_target_matches(opt.kill.file, d.what);
    return has(d.role, opt.kill.on_stderr ? stream_role::err : stream_role::out);
  }

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
  void forget_call_in_progress(pid_t p);
  void note_program(pid_t p);

  // A call's entry (seccomp stop) and exit (syscall-exit stop).
  void on_syscall(pid_t p);
  void let_run(pid_t p, detail::decoded_call& c, user_regs_struct& regs);
  bool is_observed_write(pid_t p, const detail::decoded_call& c);
  void inject(pid_t p, detail::decoded_call& c, user_regs_struct& regs);
  bool account(pid_t p, const detail::decoded_call& c);
  bool stop_at_exit(pid_t p) const { return ledger.needs_exit(p) || faults.needs_exit(p); }
  void resume_observed(pid_t p, const user_regs_struct& regs);
  void resume(pid_t p, bool stop_at_exit);
  void on_syscall_exit(pid_t p);

  // The cut, as write_cut says.
  void send_cut_if_ready();
  void signal_program(pid_t p);
  void release_held();
};

tracer::state::state(const tracer_options& options)
    : opt(options),
      exit_event(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      fds(options.stdout_id, options.stderr_id),
      ledger(fds, options.time_writes
                      ? std::function([this](const destination_counters& d) { return observes(d); })
                      : nullptr),
      cut(options.kill),
      faults(options.faults) {
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

/// Spawns the child stopped at its exec, traced.
pid_t tracer::state::start(spawn_request& req) {
  const pid_t p = detail::spawn_traced(req);
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
  fds.on_exec(p);
  forget_call_in_progress(p);
  note_program(p);
  // A thread that exec'd took the leader's id: its former id has no exit reported.
  if (auto former = detail::event_message(p)) forget_call_in_progress(static_cast<pid_t>(*former));
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
void tracer::state::forget_call_in_progress(pid_t p) {
  ledger.forget(p);
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
  forget_call_in_progress(p);
  fds.on_exit(p);
  cut.on_exit(p);
  send_cut_if_ready();
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

void tracer::state::on_syscall(pid_t p) {
  user_regs_struct regs{};
  if (!detail::get_regs(p, regs)) return;  // gone (SIGKILL)
  if (cut.is_rerun(p, regs)) {
    ledger.rerun(p);  // logged at the cut, counted now
    return resume(p, stop_at_exit(p));
  }
  auto call = detail::decode_call(p, regs);
  if (!call) return resume(p, false);
  if (is_observed_write(p, *call) && cut.holds(p, detail::signal_ends_process))
    return cut.hold(p, *call);
  let_run(p, *call, regs);
}

/// A call that goes ahead: faulted, counted, its fds mapped, its child kept
/// traced, then resumed.
void tracer::state::let_run(pid_t p, detail::decoded_call& c, user_regs_struct& regs) {
  inject(p, c, regs);
  const bool observed = account(p, c);
  fds.on_call(c, regs);
  if (info(c.call).family == call_family::process) detail::keep_child_traced(p, regs);
  if (observed && cut.armed()) return resume_observed(p, regs);
  resume(p, stop_at_exit(p));
}

/// Whether C is a write to a destination the plan observes (observes).
bool tracer::state::is_observed_write(pid_t p, const detail::decoded_call& c) {
  if (!is_write_family(c.call)) return false;
  const int d = fds.destination(p, c.fd);
  return d >= 0 && observes(fds[d]);
}

/// --fault: the call may be rewritten (an errno, a short write) before it
/// is counted, so that the counts say what the kernel was asked to do.
void tracer::state::inject(pid_t p, detail::decoded_call& c, user_regs_struct& regs) {
  if (faults.empty() || !is_write_family(c.call)) return;
  const int d = fds.destination(p, c.fd);
  if (d < 0) return;
  if (observes(fds[d]) && cut.next_is_cut_call()) return;  // the cut's signal comes instead
  faults.at_entry(p, fds[d], fds[d].write_calls + 1, c, regs, now_us());
}

/// Logs and counts the call; true if it is an observed write (observes),
/// the calls write:N counts. The write:N cut's call is logged but not
/// counted: it is stopped at its entry and never runs, unless a caught
/// signal's handler returns and it is made then (ledger.rerun).
bool tracer::state::account(pid_t p, const detail::decoded_call& c) {
  const int d = fds.destination(p, c.fd);
  const std::size_t event = ledger.log(now_us(), p, c, d);
  const bool observed = d >= 0 && is_write_family(c.call) && observes(fds[d]);
  if (observed && cut.next_is_cut_call())
    ledger.stop(now_us(), p, c, d, event);
  else
    ledger.count(p, c, d, event);
  return observed;
}

void tracer::state::resume(pid_t p, bool stop_at_exit) {
  stop_at_exit ? detail::resume_to_exit(p) : detail::resume(p);
}

/// An observed write under a write:N / after-write:N plan.
void tracer::state::resume_observed(pid_t p, const user_regs_struct& regs) {
  const bool others = shared.with([](const shared_state& s) { return s.alive.size() > 1; });
  switch (cut.on_write(p, regs, others)) {
    case detail::write_cut::step::run: return resume(p, stop_at_exit(p));
    case detail::write_cut::step::run_to_exit: return resume(p, true);
    case detail::write_cut::step::reached:
      // after-write:N: one syscall-exit stop, then the signal.
      if (opt.kill.when == kill_plan::when_kind::after_write) return resume(p, true);
      return send_cut_if_ready();
  }
}

void tracer::state::on_syscall_exit(pid_t p) {
  if (ledger.needs_exit(p)) ledger.at_exit(p, now_us(), detail::read_syscall_result(p).value_or(0));
  faults.at_exit(p);
  const bool stays = cut.on_return(p);  // after-write:N: stopped here until the signal goes
  if (!stays) detail::resume(p);
  send_cut_if_ready();
}

/// The cut's signal, once write_cut says it is ready: write:N's call is
/// stepped back first (it does not happen now; its re-run is not counted).
void tracer::state::send_cut_if_ready() {
  if (!cut.ready()) return;
  const pid_t p = cut.thread();
  if (auto regs = cut.rewind()) {
    forget_call_in_progress(p);
    detail::set_regs(p, *regs);
  }
  signal_program(p);
  cut.sent();
  detail::resume(p);
  release_held();
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
  for (auto& [p, c] : cut.take_held()) {
    if (detail::signal_ends_process(p, opt.kill.signal)) {
      cut.hold(p, c);
      continue;
    }
    account(p, c);
    cut.released();
    resume(p, stop_at_exit(p));
  }
}

tracer::tracer(const spawn_request& request, const tracer_options& options) : s_(nullptr) {
  std::string why = tracing_unavailable_reason();
  if (!why.empty()) throw spawn_error(why);
  s_ = std::make_shared<state>(options);
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
  s_->summary.destinations = s_->fds.take();
  s_->ledger.fill(s_->summary);
  s_->summary.faults = s_->faults.results();
  s_->summary.writes_timed = s_->opt.time_writes;
  return std::move(s_->summary);
}

}  // namespace flushcheck
