// Cases per second of the property runner (model + traced run + check) on
// each sink, side by side in one run with a bare fork/exec/read loop that
// runs the same target with the same script (goal: the runner at least
// 0.75 of the bare loop's rate on pipe, pty and file). The runner's parts
// are measured too, so the report says where the rest goes: the model, the
// harness's run without the tracer, and the ptrace tracer.
//
//   property_bench [--benchmark_min_time=...]      (Google Benchmark flags)
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>

#include "model_check.hpp"
#include "rate_reporter.hpp"
#include "temporary.hpp"

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

/// vfork (as the harness spawns: no page tables copied) and exec the target.
pid_t start_target(int out_w, int err_w) {
  // Before the vfork: targets() is a lazy static, and a child that
  // initialised it would probe the target (a whole extra spawn) every time.
  const char* path = targets().stdio_script.c_str();
  const pid_t pid = vfork();
  if (pid == 0) {
    dup2(out_w, 1);
    dup2(err_w, 2);
    execl(path, "stdio_script", k_script, static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

/// Exec the target with stdout on SINK and stderr on a pipe, read both
/// to the end, reap. No tracer, no markers, no deadline: the floor.
void bare_once(sink_kind sink) {
  int out_r = -1, out_w = -1, err[2];
  if (pipe2(err, O_CLOEXEC) != 0) std::abort();
  // Where the runner's file sink goes too ($TMPDIR, else /tmp): the file
  // rows compare the same file system (ext4 with discard, or tmpfs).
  std::string name = temp_dir() + "/flushcheck-bench-XXXXXX";
  char* file_name = name.data();
  if (sink == sink_kind::pipe) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) std::abort();
    out_r = p[0];
    out_w = p[1];
  } else if (sink == sink_kind::pty) {
    out_r = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (out_r < 0 || grantpt(out_r) != 0 || unlockpt(out_r) != 0) std::abort();
    out_w = open(ptsname(out_r), O_RDWR | O_NOCTTY | O_CLOEXEC);
    termios t{};
    tcgetattr(out_w, &t);
    cfmakeraw(&t);
    tcsetattr(out_w, TCSANOW, &t);
  } else {
    out_w = mkostemp(file_name, O_CLOEXEC);
    out_r = open(file_name, O_RDONLY | O_CLOEXEC);
    unlink(file_name);
  }
  const pid_t pid = start_target(out_w, err[1]);
  close(err[1]);
  if (sink != sink_kind::file) close(out_w);
  char buf[4096];
  while (read(err[0], buf, sizeof buf) > 0) {
  }
  int status = 0;
  if (sink != sink_kind::file) {
    while (read(out_r, buf, sizeof buf) > 0) {  // a pty master reads EIO at the end
    }
  }
  waitpid(pid, &status, 0);
  if (sink == sink_kind::file) {
    close(out_w);
    while (read(out_r, buf, sizeof buf) > 0) {
    }
  }
  close(out_r);
  close(err[0]);
}

void bare_loop(benchmark::State& st) {
  for (auto _ : st) bare_once(sink_arg(st));
  st.SetItemsProcessed(st.iterations());
}

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
BENCHMARK(runner)->Apply(sinks);
BENCHMARK(model_only)->Apply(sinks);
BENCHMARK(run_untraced)->Apply(sinks);
BENCHMARK(run_traced)->Apply(sinks);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  rate_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\ncases per second (script: %s)\n", k_script);
  std::printf("%-6s %10s %10s %8s %12s %12s %12s\n", "sink", "bare", "runner", "ratio", "run",
              "run+trace", "model");
  bool ok = true;
  for (int s = 0; s < 3; ++s) {
    const std::string k = "/sink:" + std::to_string(s);
    const double bare = reporter.rate["bare_loop" + k], full = reporter.rate["runner" + k];
    if (bare == 0 || full == 0) {
      ok = false;
      continue;
    }
    std::printf("%-6s %10.0f %10.0f %8.2f %12.0f %12.0f %12.0f\n",
                s == 0   ? "pipe"
                : s == 1 ? "pty"
                         : "file",
                bare, full, full / bare, reporter.rate["run_untraced" + k],
                reporter.rate["run_traced" + k], reporter.rate["model_only" + k]);
    ok = ok && full / bare >= k_goal;
  }
  std::printf("goal: runner >= %.2f x bare on every sink: %s\n", k_goal, ok ? "met" : "NOT met");
  benchmark::Shutdown();
  return 0;
}
