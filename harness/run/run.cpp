// The run loop: one thread polls the stream readers, the control channel and
// the child's pidfd until the child has ended and every reader has seen end
// of data, or the deadline passes.
#include <poll.h>
#include <pthread.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <memory>
#include <optional>
#include <string_view>
#include <variant>

#include "bpf_counter.hpp"
#include "cpu_pin.hpp"
#include "error.hpp"
#include "marker_lines.hpp"
#include "perf_counter.hpp"
#include "pty.hpp"
#include "retry_eintr.hpp"
#include "run.hpp"
#include "run_clock.hpp"
#include "signals.hpp"
#include "spawn.hpp"
#include "temporary.hpp"
#include "tracer.hpp"

extern char** environ;

namespace flushcheck {
namespace {

using clock = std::chrono::steady_clock;

/// Writes to a pipe without letting a closed read end raise SIGPIPE in the
/// harness: SIGPIPE is blocked for the call and a pending one is consumed.
ssize_t write_nosigpipe(int fd, const char* data, std::size_t n) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  ssize_t r = ::write(fd, data, n);
  int saved = errno;
  if (r < 0 && saved == EPIPE) {
    timespec zero{};
    sigtimedwait(&pipe_set, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return r;
}

/// Where the child's stdin comes from, and what is still to be written to it.
struct input_source {
  unique_fd child;  // the child's fd 0
  unique_fd owned;  // our writer (pipe write end, or a pty master of our own)
  int writer = -1;  // owned.get(), or the stdout pty's master
  bool close_after = false;
  std::string pending;

  void write_some() {
    while (!pending.empty() && writer >= 0) {
      ssize_t n =
          retry_eintr([&] { return write_nosigpipe(writer, pending.data(), pending.size()); });
      if (n < 0 && errno == EAGAIN) return;
      if (n <= 0) {  // reader gone: the child will not read the rest
        pending.clear();
        break;
      }
      pending.erase(0, static_cast<std::size_t>(n));
    }
    end_input_when_written();
  }

  /// With close_after, the child's end of input once all is written.
  void end_input_when_written() {
    if (pending.empty() && close_after) {
      owned.reset();
      writer = -1;
    }
  }
};

/// Stdin on a pipe of our own.
void input_from_pipe(input_source& in) {
  auto p = pipe_pair::make();
  in.child = std::move(p.read_end);
  in.owned = std::move(p.write_end);
  in.writer = in.owned.get();
  in.close_after = true;  // end of input after the given bytes
}

/// Stdin on stdout's pty if it is one, else on a pty of our own.
void input_from_pty(input_source& in, const sink& out) {
  if (out.is_pty()) {  // one terminal for both, as in a shell
    in.child.reset(::fcntl(out.child_fd(), F_DUPFD_CLOEXEC, 3));
    in.writer = out.reader_fd();
  } else {
    auto p = pty_pair::open(true);
    in.child = std::move(p.slave);
    in.owned = std::move(p.master);
    in.writer = in.owned.get();
  }
}

input_source make_input(const run_options& o, sink& out) {
  input_source in;
  in.pending = o.input_data;
  switch (o.input) {
    case stdin_kind::null: in.child = open_fd("/dev/null", O_RDONLY); break;
    case stdin_kind::pipe: input_from_pipe(in); break;
    case stdin_kind::pty: input_from_pty(in, out); break;
  }
  if (!in.child) throw_errno("stdin set-up");
  if (in.writer >= 0) set_nonblocking(in.writer, true);
  return in;
}

std::vector<std::string> with_control_env(std::vector<std::string> env) {
  std::erase_if(env, [](const std::string& kv) {
    return kv.starts_with("FLUSHCHECK_MARKER_FD=") || kv.starts_with("FLUSHCHECK_RELEASE_FD=") ||
           kv.starts_with("FLUSHCHECK_GATE_FD=");
  });
  env.push_back("FLUSHCHECK_MARKER_FD=" + std::to_string(control_fd_number));
  env.push_back("FLUSHCHECK_RELEASE_FD=" + std::to_string(control_fd_number));
  // The release fd's old name, for programs built with an older marker.h.
  env.push_back("FLUSHCHECK_GATE_FD=" + std::to_string(control_fd_number));
  return env;
}

/// The child started plainly: we wait for it through its pidfd. Counted by
/// perf or eBPF, it also has their counters, opened at its exec.
struct plain_child {
  child_process process;
  std::variant<std::monostate, std::unique_ptr<perf_counters>, std::unique_ptr<bpf_counters>>
      counters;

  pid_t pid() const { return process.pid(); }
  long peak_rss_kib() const { return process.peak_rss_kib(); }
  bool running() {
    process.try_reap();
    return process.running();
  }
  int wake_fd() const { return process.pidfd(); }
  wait_status wait() { return process.reap(); }
  std::optional<trace_summary> finish_trace() {
    if (auto* perf = std::get_if<std::unique_ptr<perf_counters>>(&counters)) return (*perf)->read();
    if (auto* bpf = std::get_if<std::unique_ptr<bpf_counters>>(&counters)) return (*bpf)->read();
    return std::nullopt;
  }
  std::optional<kill_event> tracer_kill() const { return std::nullopt; }
};

/// The child under the tracer, which alone waits for it, from its own thread.
struct traced_child {
  std::unique_ptr<tracer> t;

  pid_t pid() const { return t->pid(); }
  long peak_rss_kib() const { return -1; }
  bool running() { return !t->status(); }
  int wake_fd() const { return t->exit_fd(); }
  wait_status wait() {
    while (!t->status()) {
      pollfd p{t->exit_fd(), POLLIN, 0};
      ::poll(&p, 1, 100);
    }
    return *t->status();
  }
  std::optional<trace_summary> finish_trace() { return t->finish(); }
  std::optional<kill_event> tracer_kill() const { return t->kill(); }
};

/// The run's child, plain (before it starts too) or traced; each question
/// is asked of the one it is.
class watched_child {
 public:
  void start(const spawn_request& req, const tracer_options* trace) {
    if (trace != nullptr)
      how_ = traced_child{std::make_unique<tracer>(req, *trace)};
    else
      how_ = plain_child{spawn(req), {}};
  }
  /// Started stopped at its exec, counters opened on it, then let go.
  void start_counted(spawn_request req, trace_backend backend, file_id out, file_id err) {
    req.trace_me = true;
    plain_child c{spawn(req), {}};
    const pid_t pid = c.pid();
    how_ = std::move(c);  // owned from here: an exception below kills and reaps it
    wait_exec_stop(pid, req.argv.front());
    auto& counters = std::get<plain_child>(how_).counters;
    if (backend == trace_backend::bpf)
      counters = std::make_unique<bpf_counters>(pid, out, err);
    else
      counters = std::make_unique<perf_counters>(pid);
    // Fails only if the child is gone (ESRCH): the run then reports its end.
    ::ptrace(PTRACE_DETACH, pid, nullptr, nullptr);
  }
  pid_t pid() const {
    return std::visit([](const auto& c) { return c.pid(); }, how_);
  }
  long peak_rss_kib() const {
    return std::visit([](const auto& c) { return c.peak_rss_kib(); }, how_);
  }
  bool running() {
    return std::visit([](auto& c) { return c.running(); }, how_);
  }
  /// Polls readable when the child ends (-1: poll on a short timeout instead).
  int wake_fd() const {
    return std::visit([](const auto& c) { return c.wake_fd(); }, how_);
  }
  bool signal(int sig) { return running() && ::kill(pid(), sig) == 0; }
  void signal_group(int sig) {
    if (pid() > 0) ::kill(-pid(), sig);
  }
  wait_status wait() {
    return std::visit([](auto& c) { return c.wait(); }, how_);
  }
  /// Kills what is left of the process group (true if anything was) and
  /// ends the trace.
  bool kill_leftovers() { return pid() > 0 && ::kill(-pid(), SIGKILL) == 0; }
  std::optional<trace_summary> finish_trace() {
    return std::visit([](auto& c) { return c.finish_trace(); }, how_);
  }
  std::optional<kill_event> tracer_kill() const {
    return std::visit([](const auto& c) { return c.tracer_kill(); }, how_);
  }

 private:
  std::variant<plain_child, traced_child> how_;
};

file_id id_of(int fd) {
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) return {0, 0};
  return {st.st_dev, st.st_ino};
}

/// Sinks a reader reads while the program runs (a file is read after it).
bool streaming_kind(sink_kind k) { return k == sink_kind::pipe || is_tty(k); }

/// The reader policies that cannot go with O's stdin or stdout sink (OUT).
void check_reader(const run_options& o, const sink& out) {
  const bool closes = o.reader.what == reader_policy::kind::close_after ||
                      o.reader.what == reader_policy::kind::paused_then_close;
  if (closes && o.input == stdin_kind::pty && out.is_pty())
    throw usage_error("the reader " + o.reader.text() +
                      " with stdin on the pty: closing the stdout pty would close the terminal "
                      "the input is typed into");
  if (o.reader.what != reader_policy::kind::prompt && !streaming_kind(o.stdout_sink))
    throw usage_error("the reader " + o.reader.text() + " with stdout to " +
                      std::string(to_string(o.stdout_sink)) +
                      ": only a pipe or a pty is read while the program runs");
}

/// The fds one round of the run loop polls.
struct poll_set {
  pollfd fds[5]{};
  nfds_t n = 0;
  void add(int fd, short events) {
    if (fd >= 0) fds[n++] = {fd, events, 0};
  }
};

class run_loop {
 public:
  explicit run_loop(const run_options& o) : o_(o), out_(sink::open(o.stdout_sink, o.keep)) {
    if (o.stderr_sink) err_.emplace(sink::open(*o.stderr_sink, o.keep));
    check_reader(o, out_);
    out_.set_reader(o.reader);
    if (o.on_output) forward_output();
    set_up_child_ends();
  }

  observation operator()() {
    input_source in = make_input(o_, out_);
    socket_pair control = socket_pair::make();
    spawn_request req = spawn_request_for(in, control);
    start_ = clock::now();
    deadline_ = start_ + o_.timeout;
    start_child(req);
    if (o_.on_spawn) o_.on_spawn(child_.pid());
    close_child_ends(in, control);
    if (o_.kill.when != kill_plan::when_kind::never)
      kill_ = kill_event{o_.kill.signal, o_.kill.when_text(), false, 0};
    in.write_some();
    loop(in);
    return finish();
  }

 private:
  /// o_.on_output gets every byte a reader gets, with the fd it came from.
  void forward_output() {
    out_.observe([this](std::string_view b) { o_.on_output(1, b); });
    if (err_) err_->observe([this](std::string_view b) { o_.on_output(2, b); });
  }

  /// The pipe size and O_NONBLOCK the program's stdout and stderr get.
  void set_up_child_ends() {
    for (sink* s : {&out_, err_ ? &*err_ : nullptr}) {
      if (s != nullptr && o_.pipe_size != 0) s->set_pipe_size(o_.pipe_size);
      if (s != nullptr && o_.nonblock) s->set_child_nonblocking();
    }
  }

  spawn_request spawn_request_for(const input_source& in, const socket_pair& control) const {
    return {o_.argv,
            with_control_env(o_.env),
            in.child.get(),
            out_.child_fd(),
            err_ ? err_->child_fd() : out_.child_fd(),
            control.second.get()};
  }

  /// Plainly, under the tracer, or counted by perf or bpf (which only count).
  void start_child(const spawn_request& req) {
    if (o_.trace && o_.backend != trace_backend::ptrace) {
      check_counting_only();
      child_.start_counted(req, o_.backend, id_of(out_.child_fd()),
                           id_of(err_ ? err_->child_fd() : out_.child_fd()));
    } else if (o_.trace || o_.timeline || o_.kill.needs_tracer() || !o_.faults.empty()) {
      start_traced(req);
    } else {
      child_.start(req, nullptr);
    }
  }

  /// What needs a stop per call needs the ptrace backend.
  void check_counting_only() const {
    const std::string only =
        o_.backend == trace_backend::perf ? " (perf only counts)" : " (bpf only counts)";
    if (o_.kill.needs_tracer())
      throw usage_error("the cut " + o_.kill.text() + " needs the ptrace backend" + only);
    if (!o_.faults.empty())
      throw usage_error("the fault " + o_.faults.front().text() + " needs the ptrace backend" +
                        only);
    if (o_.timeline) throw usage_error("a timeline needs the ptrace backend" + only);
  }

  /// Under the tracer, which then shares one CPU with the program and this loop.
  void start_traced(const spawn_request& req) {
    tracer_options t;
    t.kill = o_.kill;
    t.faults = o_.faults;
    t.time_writes = o_.timeline;
    t.stdout_id = id_of(out_.child_fd());
    t.stderr_id = id_of(err_ ? err_->child_fd() : out_.child_fd());
    t.start = start_;
    pin_.emplace();  // the tracer thread, the program and this loop share one CPU
    child_.start(req, &t);
  }

  /// Once the child has started, only it holds its ends (a pty sink keeps
  /// its slave until the program ends); ours of the control channel is kept.
  void close_child_ends(input_source& in, socket_pair& control) {
    out_.close_child_end();
    if (err_) err_->close_child_end();
    in.child.reset();
    control.second.reset();
    control_ = std::move(control.first);
    set_nonblocking(control_.get(), true);
  }

  std::int64_t now_us() const { return detail::micros_since(start_); }

  static bool streaming(const sink& s) {
    return (s.kind() == sink_kind::pipe || s.is_pty()) && s.reader_fd() >= 0;
  }
  bool readers_open() const { return streaming(out_) || (err_ && streaming(*err_)); }

  /// Reads the streams until they are empty or the next timed event is due.
  void drain_all() { drain_all_until(next_event()); }
  void drain_all_until(clock::time_point stop_at) {
    drain_one(out_, stop_at);
    if (err_) drain_one(*err_, stop_at);
  }
  /// A pty's end of data before the program's end cannot come while the
  /// harness holds a slave fd: said in the notes if it ever does.
  void drain_one(sink& s, clock::time_point stop_at) {
    bool open = s.ended_us() < 0;
    s.drain(start_, stop_at);
    if (!open || s.ended_us() < 0 || !s.is_pty() || program_ended_) return;
    notes_.push_back("the " + std::string(&s == &out_ ? "stdout" : "stderr") +
                     " pty's master read EIO at " + std::to_string(s.ended_us()) +
                     " us, before the program ended: what it wrote later was not read");
  }

  /// The deadline, or the time cut if it comes first and is still to be sent.
  clock::time_point next_event() const {
    if (o_.kill.when == kill_plan::when_kind::time && kill_ && !kill_->delivered)
      return std::min(deadline_, start_ + std::chrono::milliseconds(o_.kill.n));
    return deadline_;
  }

  void deliver_kill() {
    if (!child_.signal(o_.kill.signal)) return;
    kill_->delivered = true;
    kill_->t_us = now_us();
  }

  /// Once the program has ended: a paused reader reads now, not at the cut
  /// (a writer that SIGKILL woke in a blocked write(2) still fills the pipe
  /// again if the reader empties it first: it checks for the signal only
  /// when the pipe is full again, so reading at the cut would add up to a
  /// pipe's worth of bytes the program never got to write before its
  /// death). Then, once read, a pty's slave fd held by the harness is let go
  /// (sink::program_ended).
  void on_program_end() {
    if (program_ended_) return;
    program_ended_ = true;
    out_.release();
    drain_all();
    out_.program_ended();
    if (err_) err_->program_ended();
  }

  void on_marker(const std::string& label) {
    ++marker_count_;
    if (o_.reader.what == reader_policy::kind::paused_until &&
        static_cast<std::uint64_t>(marker_count_) >= o_.reader.n)
      out_.release();
    // The child blocks on its release fd: what it wrote before the marker is in
    // the pipe or pty now. A pty master read flushes the tty layer's pending
    // work before it reports "no data", so the drain sees all of it.
    drain_all();
    markers_.push_back({label, now_us(), out_.visible(), err_ ? err_->visible() : 0});
    if (o_.kill.when == kill_plan::when_kind::marker && marker_count_ == o_.kill.n) deliver_kill();
    // Released even after a kill: a caught signal lets the program go on.
    release_program();
  }

  /// Lets the program, blocked on its release fd, go on past its marker.
  void release_program() {
    // A newline, so that a shell's `read x <&3` returns too.
    char release = '\n';
    ::send(control_.get(), &release, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
  }

  void read_control() {
    char buf[4096];
    for (;;) {
      ssize_t n = retry_eintr([&] { return ::read(control_.get(), buf, sizeof buf); });
      if (n < 0 && errno == EAGAIN) return;
      if (n <= 0) {
        control_.reset();
        return;
      }
      take_control_bytes(std::string_view(buf, static_cast<std::size_t>(n)));
    }
  }

  /// A line over 64 KiB is not a marker (said once in the notes); the
  /// channel stays open, so the program's writes to fd 3 go on succeeding.
  void take_control_bytes(std::string_view bytes) {
    bool dropped_before = control_lines_.dropped_a_line();
    for (const auto& label : control_lines_.feed(bytes)) on_marker(label);
    if (control_lines_.dropped_a_line() && !dropped_before)
      notes_.push_back("fd 3 received a line over 64 KiB: not a marker; ignored");
  }

  int poll_timeout_ms(clock::time_point now, bool running) {
    auto next = running ? next_event() : deadline_;
    if (auto r = out_.next_read_at()) next = std::min(next, *r);  // a reader's next batch or close
    auto ms = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
    if (running && child_.wake_fd() < 0) ms = std::min<long>(ms, 5);
    return static_cast<int>(std::clamp<long>(ms, 0, 1000));
  }

  void loop(input_source& in) {
    for (;;) {
      // Read once per round: the child may end at any point of it, and a
      // round that saw it running polls its wake fd (readable once it ends).
      const bool running = child_.running();
      if (!running && ended_and_read()) return;
      auto now = clock::now();
      if (now >= deadline_) return on_deadline();
      deliver_time_cut_if_due(now, running);
      poll_round(in, now, running);
    }
  }

  /// The program has ended: true once every reader has seen end of data.
  bool ended_and_read() {
    on_program_end();
    if (readers_open()) return false;
    // The control channel may still hold markers of a child that just ended.
    if (control_) read_control();
    return true;
  }

  void deliver_time_cut_if_due(clock::time_point now, bool running) {
    if (o_.kill.when == kill_plan::when_kind::time && !kill_->delivered &&
        now >= start_ + std::chrono::milliseconds(o_.kill.n) && running)
      deliver_kill();
  }

  /// Waits for data, the child's end, room for input or the next timed
  /// event, then reads the control channel and the streams and writes input.
  void poll_round(input_source& in, clock::time_point now, bool running) {
    poll_set set = poll_fds(in, running);
    int r = ::poll(set.fds, set.n, poll_timeout_ms(now, running));
    if (r < 0 && errno != EINTR) throw_errno("poll");
    if (control_) read_control();
    drain_all();
    if (!in.pending.empty()) in.write_some();
  }

  poll_set poll_fds(const input_source& in, bool running) const {
    poll_set set;
    // A pty shared with stdin is also where pending input goes.
    bool input_via_out = !in.pending.empty() && in.writer == out_.reader_fd();
    short out_events = (out_.reading() ? POLLIN : 0) | (input_via_out ? POLLOUT : 0);
    if (streaming(out_) && out_events != 0) set.add(out_.reader_fd(), out_events);
    if (err_ && streaming(*err_)) set.add(err_->reader_fd(), POLLIN);
    set.add(control_.get(), POLLIN);
    if (running) set.add(child_.wake_fd(), POLLIN);
    if (!in.pending.empty() && in.writer != out_.reader_fd()) set.add(in.writer, POLLOUT);
    return set;
  }

  void on_deadline() {
    group_killed_ = true;
    out_.release();
    kill_group_at_deadline();
    // Whatever was written before the kill is still in the pipes: take it
    // (100 ms at most: a process outside the group may still be writing).
    auto stop_at = clock::now() + std::chrono::milliseconds(100);
    for (int i = 0; i < 20 && readers_open(); ++i) {
      drain_all_until(stop_at);
      if (readers_open()) ::usleep(5000);
    }
  }

  /// The child, if it still runs (a time-out), or what held its output open.
  void kill_group_at_deadline() {
    if (child_.running()) {
      child_.signal_group(SIGKILL);
      child_.wait();
      timed_out_ = true;
      on_program_end();
    } else {
      notes_.push_back(
          "a process other than the child (a grandchild?) still held the output open when the "
          "child had ended; its process group was killed at the deadline");
      child_.signal_group(SIGKILL);
    }
  }

  observation finish() {
    observation obs;
    obs.argv = o_.argv;
    obs.duration_us = now_us();
    if (control_) read_control();
    end_program(obs);
    finish_streams(obs);
    obs.markers = std::move(markers_);
    obs.notes = std::move(notes_);
    if (obs.out.fs_full || obs.err.fs_full) say_sink_full(obs);
    return obs;
  }

  /// Waits for the child, then ends what is left of its group, its trace
  /// and its orphans.
  void end_program(observation& obs) {
    obs.status = timed_out_ ? wait_status::timed_out(SIGKILL) : child_.wait();
    obs.peak_rss_kib = child_.peak_rss_kib();
    end_group();
    obs.trace = child_.finish_trace();  // the tracer reaps what it traced
    end_orphans();
    if (auto k = child_.tracer_kill()) kill_ = k;
    obs.kill = kill_;
  }

  void finish_streams(observation& obs) {
    obs.out = out_.finish(obs.duration_us);
    if (err_)
      obs.err = err_->finish(obs.duration_us);
    else
      obs.err.sink = destination::merged_into_stdout();
  }

  /// A file sink whose file system was full when the run ended (a statvfs
  /// then): the program's writes there may have failed with ENOSPC, a
  /// failure of the harness's set-up (TMPDIR), said as such.
  static void say_sink_full(observation& obs) {
    obs.harness_failure = "the file sink's file system (TMPDIR=" + temp_dir() +
                          ") was full when the run ended: the program's writes to it may have "
                          "failed with ENOSPC, a failure of the harness's set-up, not of the "
                          "program";
    obs.notes.push_back(obs.harness_failure);
  }

  /// Nothing outlives the run: what is left of the process group, and the
  /// descendants that left it (when this process is a subreaper), said in
  /// the notes.
  void end_group() {
    if (child_.kill_leftovers() && !group_killed_)
      notes_.push_back("processes of the program's group still ran when it ended: killed");
  }
  void end_orphans() {
    auto orphans = kill_adopted_orphans(true);
    if (orphans.empty()) return;
    std::string list;
    for (const auto& o : orphans) list += (list.empty() ? "" : ", ") + o;
    notes_.push_back("killed " + std::to_string(orphans.size()) +
                     " process(es) that had left the program's process group (setsid) and "
                     "outlived their parent: " +
                     list);
  }

  const run_options& o_;
  std::optional<detail::cpu_pin> pin_;  // a traced run only; undone when the run ends
  sink out_;
  std::optional<sink> err_;
  watched_child child_;
  unique_fd control_;
  detail::marker_lines control_lines_;
  clock::time_point start_;
  clock::time_point deadline_;
  long marker_count_ = 0;
  std::vector<marker_event> markers_;
  std::optional<kill_event> kill_;
  std::vector<std::string> notes_;
  bool timed_out_ = false;
  bool group_killed_ = false;   // at the deadline, and said so
  bool program_ended_ = false;  // on_program_end() has run
};

}  // namespace

observation run(const run_options& options) { return run_loop(options)(); }

std::vector<std::string> current_environment() {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) env.emplace_back(*e);
  return env;
}

}  // namespace flushcheck
