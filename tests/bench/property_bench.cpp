// Cases per second of the property runner (model + traced run + check) on
// each sink, side by side in one run with a bare fork/exec/read loop that
// runs the same target with the same script (goal: the runner at least
// 0.75 of the bare loop's rate on pipe, pty and file). The runner's parts
// are measured too, so the report says where the rest goes: the model, the
// harness's run without the tracer, and the ptrace tracer; the bare loop
// with the marker's round trip, which the runner makes (the script has a
// marker) and the bare loop does not; and that loop as the floor of any
// ptrace tracer runs it (bench_bare_loop.hpp: a stop at each write, which
// is all the runner needs counted), on one thread and split as the harness
// splits it (the stops on a tracer thread, the streams and the marker on
// this one), which says what the goal leaves the harness on this machine.
//
//   property_bench [--benchmark_min_time=...]      (Google Benchmark flags)
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench_bare_loop.hpp"
#include "cpu_pin.hpp"
#include "model_check.hpp"
#include "rate_reporter.hpp"
#include "temporary.hpp"
#include "tracer_threads.hpp"

namespace {

using namespace flushcheck;

constexpr double k_goal = 0.75;  // runner / bare loop, on every sink

const char* k_script = "line 20; write 100 err; marker m1; putc 30; line 5; flush; write 3";

const target_set& targets() {
  static const target_set t = probe_target_set("default", FLUSHCHECK_TARGET_STDIO_SCRIPT, "");
  return t;
}

model_case the_case(sink_kind sink) {
  model_case c;
  c.setup.profile = targets().profile;
  c.setup.stdout_sink = sink;
  c.ops = script::parse(k_script);
  return c;
}

sink_kind sink_arg(const benchmark::State& st) {
  return st.range(0) == 0 ? sink_kind::pipe : st.range(0) == 1 ? sink_kind::pty : sink_kind::file;
}

/// The environment of a target that speaks the marker protocol on fd 3
/// (docs/markers.md): this process's, and the two variables.
char* const* marker_environment() {
  static std::vector<char*> env = [] {
    std::vector<char*> e;
    for (char** v = environ; *v != nullptr; ++v) e.push_back(*v);
    static char marker[] = "FLUSHCHECK_MARKER_FD=3", release[] = "FLUSHCHECK_RELEASE_FD=3";
    e.push_back(marker);
    e.push_back(release);
    e.push_back(nullptr);
    return e;
  }();
  return env.data();
}

/// vfork (as the harness spawns: no page tables copied) and exec the
/// target; with MARKER_FD (not -1), that end of the marker channel as its
/// fd 3, named in its environment.
pid_t start_target(int out_w, int err_w, int marker_fd = -1) {
  // Before the vfork: targets() is a lazy static, and a child that
  // initialised it would probe the target (a whole extra spawn) every time.
  const char* path = targets().stdio_script.c_str();
  char* const* env = marker_fd >= 0 ? marker_environment() : environ;
  char* const argv[] = {const_cast<char*>("stdio_script"), const_cast<char*>(k_script), nullptr};
  const pid_t pid = vfork();
  if (pid == 0) {
    dup2(out_w, 1);
    dup2(err_w, 2);
    if (marker_fd >= 0) dup2(marker_fd, 3);
    execve(path, argv, env);
    _exit(127);
  }
  return pid;
}

/// The target's stdout on SINK: the end it writes, the end read.
struct bare_stdout {
  int r = -1, w = -1;
};

bare_stdout open_stdout(sink_kind sink) {
  bare_stdout out;
  // Where the runner's file sink goes too ($TMPDIR, else /tmp): the file
  // rows compare the same file system (ext4 with discard, or tmpfs).
  std::string name = temp_dir() + "/flushcheck-bench-XXXXXX";
  if (sink == sink_kind::pipe) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) std::abort();
    out = {p[0], p[1]};
  } else if (sink == sink_kind::pty) {
    out.r = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (out.r < 0 || grantpt(out.r) != 0 || unlockpt(out.r) != 0) std::abort();
    out.w = open(ptsname(out.r), O_RDWR | O_NOCTTY | O_CLOEXEC);
    termios t{};
    tcgetattr(out.w, &t);
    cfmakeraw(&t);
    tcsetattr(out.w, TCSANOW, &t);
  } else {
    out.w = mkostemp(name.data(), O_CLOEXEC);
    out.r = open(name.c_str(), O_RDONLY | O_CLOEXEC);
    unlink(name.c_str());
  }
  return out;
}

/// Reads FD to its end (a pty master reads EIO there).
void drain(int fd) {
  char buf[4096];
  while (read(fd, buf, sizeof buf) > 0) {
  }
}

/// Waits for PID, then reads a file sink's OUT (the others were read as
/// they came) and closes it.
void reap(pid_t pid, sink_kind sink, const bare_stdout& out) {
  int status = 0;
  waitpid(pid, &status, 0);
  if (sink == sink_kind::file) {
    close(out.w);
    drain(out.r);
  }
  close(out.r);
}

/// Exec the target with stdout on SINK and stderr on a pipe, read both
/// to the end, reap. No tracer, no markers, no deadline: the floor.
void bare_once(sink_kind sink) {
  int err[2];
  if (pipe2(err, O_CLOEXEC) != 0) std::abort();
  const bare_stdout out = open_stdout(sink);
  const pid_t pid = start_target(out.w, err[1]);
  close(err[1]);
  if (sink != sink_kind::file) close(out.w);
  drain(err[0]);
  if (sink != sink_kind::file) drain(out.r);
  reap(pid, sink, out);
  close(err[0]);
}

/// bare_once with the marker's round trip: fd 3 is one end of a socket
/// pair, and each marker line is answered with the byte that releases the
/// target, as the harness answers it (which also records what had arrived).
/// The streams are read as they come, for a target at a marker still writes.
/// The markers answered.
int bare_marker_once(sink_kind sink) {
  int err[2], channel[2];
  if (pipe2(err, O_CLOEXEC) != 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel))
    std::abort();
  const bare_stdout out = open_stdout(sink);
  const pid_t pid = start_target(out.w, err[1], channel[1]);
  close(err[1]);
  close(channel[1]);
  if (sink != sink_kind::file) close(out.w);
  pollfd p[3] = {{err[0], POLLIN, 0},
                 {channel[0], POLLIN, 0},
                 {sink != sink_kind::file ? out.r : -1, POLLIN, 0}};
  char buf[4096];
  int markers = 0;
  while (p[0].fd >= 0 || p[2].fd >= 0) {
    if (poll(p, 3, -1) < 0) std::abort();
    for (pollfd& f : p) {
      if (f.fd < 0 || f.revents == 0) continue;
      const ssize_t n = read(f.fd, buf, sizeof buf);
      if (n <= 0) {
        f.fd = -1;
        continue;
      }
      if (&f != &p[1]) continue;
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] != '\n') continue;
        ++markers;
        if (write(channel[0], "\n", 1) != 1) std::abort();
      }
    }
  }
  reap(pid, sink, out);
  close(err[0]);
  close(channel[0]);
  return markers;
}

void bare_loop(benchmark::State& st) {
  for (auto _ : st) bare_once(sink_arg(st));
  st.SetItemsProcessed(st.iterations());
}

void bare_loop_with_marker(benchmark::State& st) {
  for (auto _ : st)
    if (bare_marker_once(sink_arg(st)) != 1) st.SkipWithError("the target's marker never came");
  st.SetItemsProcessed(st.iterations());
}

/// A floor's run's fds: stdout on its sink, stderr on a pipe, and the
/// marker channel (fd 3's end, channel[1], and the answering end).
struct floor_fds {
  int err[2], channel[2];
  bare_stdout out;
};

floor_fds open_floor_fds(sink_kind sink) {
  floor_fds f{};
  if (pipe2(f.err, O_CLOEXEC) != 0 ||
      socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, f.channel) != 0)
    std::abort();
  f.out = open_stdout(sink);
  return f;
}

/// The program has ended: the program's ends closed, the streams read to
/// their end (a file sink from its start), every fd closed.
void close_floor_fds(const floor_fds& f) {
  close(f.err[1]);
  close(f.channel[1]);
  close(f.out.w);
  drain(f.err[0]);
  drain(f.out.r);
  for (int fd : {f.out.r, f.err[0], f.channel[0]}) close(fd);
}

/// The bare ptrace loop's program: the script, stdout and stderr on F's
/// ends, fd 3 on its channel.
detail::bare_child floor_child(const floor_fds& f) {
  return {.argv = {targets().stdio_script, k_script},
          .envp = marker_environment(),
          .out = f.out.w,
          .err = f.err[1],
          .marker = f.channel[1]};
}

/// bare_marker_once under the bare ptrace loop: the stops, or -1 when the
/// program did not run to its end. The loop reads no sink while the
/// program runs: this script's output fits in every sink's buffer.
long bare_traced_once(sink_kind sink) {
  const floor_fds f = open_floor_fds(sink);
  detail::bare_child child = floor_child(f);
  child.answer = f.channel[0];
  const long stops = detail::bare_ptrace_loop(child);
  close_floor_fds(f);
  return stops;
}

/// Runs ONCE (a floor's run on a sink) for ST's iterations: each must stop
/// at each write the model predicts to stdout and stderr, and at the marker
/// line's.
void floor_loop(benchmark::State& st, long (*once)(sink_kind)) {
  const auto c = the_case(sink_arg(st));
  const prediction p = predict(with_st_blksize(c.setup), c.ops, c.cut);
  const long least = p.writes[0].first + p.writes[1].first + 1;
  const long most = p.writes[0].second + p.writes[1].second + 1;
  for (auto _ : st) {
    const long stops = once(sink_arg(st));
    if (stops < least || stops > most)
      st.SkipWithError("the bare ptrace loop's stops are not the script's writes");
  }
  st.SetItemsProcessed(st.iterations());
}

void bare_traced_loop(benchmark::State& st) { floor_loop(st, bare_traced_once); }

/// bare_traced_once as the harness divides it between two threads: the
/// bare ptrace loop on a tracer thread (tracer_threads.hpp), which only
/// continues the stops, while this thread reads the streams and answers the
/// marker, until the tracer thread says the program has ended (an eventfd,
/// as the tracer's exit_fd). All on one CPU, as a traced run pins them
/// (cpu_pin.hpp). The stops, or -1.
long two_thread_traced_once(sink_kind sink) {
  const floor_fds f = open_floor_fds(sink);
  const int ended = eventfd(0, EFD_CLOEXEC);
  if (ended < 0) std::abort();
  const int cpu = detail::preferred_cpu();  // as the tracer takes its caller's
  detail::cpu_pin pin(cpu);
  std::atomic<long> stops = -1;
  detail::bare_child child = floor_child(f);
  child.cpu = cpu;
  detail::run_on_tracer_thread([&] {
    stops = detail::bare_ptrace_loop(child);
    const std::uint64_t one = 1;
    if (write(ended, &one, sizeof one) != sizeof one) std::abort();
  });
  pollfd p[3] = {{ended, POLLIN, 0}, {f.channel[0], POLLIN, 0}, {f.out.r, POLLIN, 0}};
  char buf[4096];
  while (p[0].fd >= 0) {
    if (poll(p, sink == sink_kind::file ? 2 : 3, -1) < 0) std::abort();
    if (p[0].revents != 0) p[0].fd = -1;
    if (p[1].revents != 0 && read(f.channel[0], buf, sizeof buf) > 0 &&
        write(f.channel[0], "\n", 1) != 1)
      std::abort();
    if (p[2].revents != 0 && read(f.out.r, buf, sizeof buf) <= 0) p[2].fd = -1;
  }
  close_floor_fds(f);
  close(ended);
  return stops;
}

void two_thread_traced_loop(benchmark::State& st) { floor_loop(st, two_thread_traced_once); }

void runner(benchmark::State& st) {
  const auto c = the_case(sink_arg(st));
  for (auto _ : st) {
    auto o = run_against_model(targets(), c);
    if (!o.v.pass) st.SkipWithError(o.v.explanation.c_str());
  }
  st.SetItemsProcessed(st.iterations());
}

void model_only(benchmark::State& st) {
  const auto c = the_case(sink_arg(st));
  for (auto _ : st) benchmark::DoNotOptimize(predict(c.setup, c.ops, c.cut));
  st.SetItemsProcessed(st.iterations());
}

void run_untraced(benchmark::State& st) {
  auto o = model_run_options(targets(), the_case(sink_arg(st)));
  o.trace = false;
  for (auto _ : st) benchmark::DoNotOptimize(run(o));
  st.SetItemsProcessed(st.iterations());
}

void run_traced(benchmark::State& st) {
  auto o = model_run_options(targets(), the_case(sink_arg(st)));
  for (auto _ : st) benchmark::DoNotOptimize(run(o));
  st.SetItemsProcessed(st.iterations());
}

const char* sink_name(int sink) { return sink == 0 ? "pipe" : sink == 1 ? "pty" : "file"; }

void sinks(benchmark::internal::Benchmark* b) {
  // Wall time: the work is in child processes, not in this thread's CPU time.
  b->ArgName("sink")
      ->Arg(0)
      ->Arg(1)
      ->Arg(2)
      ->Unit(benchmark::kMillisecond)
      ->MinTime(3.0)
      ->UseRealTime();
}

BENCHMARK(bare_loop)->Apply(sinks);
BENCHMARK(bare_loop_with_marker)->Apply(sinks);
BENCHMARK(bare_traced_loop)->Apply(sinks);
BENCHMARK(two_thread_traced_loop)->Apply(sinks);
BENCHMARK(runner)->Apply(sinks);
BENCHMARK(model_only)->Apply(sinks);
BENCHMARK(run_untraced)->Apply(sinks);
BENCHMARK(run_traced)->Apply(sinks);

/// One sink's row of the table (0 pipe, 1 pty, 2 file); false when the
/// runner's rate is under the goal, or a rate is missing.
bool print_row(rate_reporter& reporter, int sink) {
  const std::string k = "/sink:" + std::to_string(sink);
  auto rate = [&](const char* name) { return reporter.rate[name + k]; };
  const double bare = rate("bare_loop"), full = rate("runner");
  const double marker = rate("bare_loop_with_marker"), floor = rate("bare_traced_loop");
  const double split = rate("two_thread_traced_loop");
  if (bare == 0 || full == 0 || marker == 0 || floor == 0 || split == 0) return false;
  std::printf("%-6s %8.0f %8.0f %6.2f %8.0f %10.0f %9.0f %12.0f %6.2f %13.0f %6.2f %12.0f %6.2f\n",
              sink_name(sink), bare, full, full / bare, rate("run_untraced"), rate("run_traced"),
              rate("model_only"), marker, full / marker, floor, floor / bare, split, split / bare);
  return full / bare >= k_goal;
}

/// What the goal leaves the harness a case beyond the split floor, and what
/// the runner spends there, in microseconds.
void print_budget(rate_reporter& reporter, int sink) {
  const std::string k = "/sink:" + std::to_string(sink);
  const double bare = reporter.rate["bare_loop" + k], full = reporter.rate["runner" + k];
  const double split = reporter.rate["two_thread_traced_loop" + k];
  if (bare == 0 || full == 0 || split == 0) return;
  std::printf("%-6s the goal leaves %.0f us a case over the split floor; the runner spends %.0f\n",
              sink_name(sink), 1e6 / (k_goal * bare) - 1e6 / split, 1e6 / full - 1e6 / split);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  rate_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\ncases per second (script: %s)\n", k_script);
  std::printf("%-6s %8s %8s %6s %8s %10s %9s %12s %6s %13s %6s %12s %6s\n", "sink", "bare",
              "runner", "ratio", "run", "run+trace", "model", "bare+marker", "ratio",
              "+ptrace floor", "/bare", "split floor", "/bare");
  bool ok = true;
  for (int sink = 0; sink < 3; ++sink) ok = print_row(reporter, sink) && ok;
  std::printf("goal: runner >= %.2f x bare on every sink: %s\n", k_goal, ok ? "met" : "NOT met");
  for (int sink = 0; sink < 3; ++sink) print_budget(reporter, sink);
  std::printf(
      "(bare+marker: the bare loop with the marker's round trip, which the runner makes\n"
      "and the bare loop does not; its ratio is the runner's to it. +ptrace floor: that\n"
      "loop under the least a ptrace tracer does to count its writes, a stop at each;\n"
      "its ratio to bare is the most any ptrace runner could reach here. split floor:\n"
      "the same with the stops on a tracer thread and the streams and the marker on\n"
      "this one, as the harness splits them; docs/bench.md says where the rest goes)\n");
  benchmark::Shutdown();
  return 0;
}
