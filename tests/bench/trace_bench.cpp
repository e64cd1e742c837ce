// Cost of counting write(2) calls, side by side in one run (issue 3 goals):
// plain, the flushcheck tracer, strace -f -c, and a bare ptrace + seccomp
// loop that stops once per write and does nothing else (the floor for any
// ptrace tracer). Wall time is the best of REPEAT runs; ratios are to plain
// and, per traced write, to the bare loop.
//
//   trace_bench [WRITES] [REPEAT]      (defaults 200000, 3)
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "flushcheck/conformance.hpp"
#include "flushcheck/perf_counter.hpp"
#include "flushcheck/run.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

constexpr double k_fixed_cost_goal = 1.15;  // traced / plain run of a program that writes nothing

double seconds(const std::function<void()>& f) {
  auto t0 = clock_type::now();
  f();
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

flushcheck::run_options options(std::vector<std::string> argv) {
  flushcheck::run_options o;
  o.argv = std::move(argv);
  o.env = flushcheck::clean_environment();
  o.stdout_sink = flushcheck::sink_kind::null;
  o.timeout = std::chrono::minutes(10);
  return o;
}

// The floor: vfork, TRACEME, a seccomp filter that traces write only, exec;
// then waitpid + PTRACE_CONT per stop. Same CPU for both, like the tracer.
long bare_loop(const std::vector<std::string>& argv) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), SCMP_SYS(write), 0);
  int p[2];
  if (pipe(p) != 0) std::abort();
  seccomp_export_bpf(ctx, p[1]);
  close(p[1]);
  std::vector<sock_filter> prog(4096);
  ssize_t n = read(p[0], prog.data(), prog.size() * sizeof(sock_filter));
  close(p[0]);
  seccomp_release(ctx);
  sock_fprog fprog{static_cast<unsigned short>(n / sizeof(sock_filter)), prog.data()};
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(sched_getcpu(), &set);
  sched_setaffinity(0, sizeof set, &set);
  pid_t pid = vfork();  // as the harness spawns: no page tables copied
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog);
    execv(args[0], args.data());
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);  // the exec stop
  ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL);
  ptrace(PTRACE_CONT, pid, nullptr, nullptr);
  long stops = 0;
  while (waitpid(pid, &status, 0) == pid && WIFSTOPPED(status)) {
    ++stops;
    ptrace(PTRACE_CONT, pid, nullptr, nullptr);
  }
  CPU_ZERO(&set);
  for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &set);
  sched_setaffinity(0, sizeof set, &set);
  return stops;
}

void row(const char* name, double t, double plain, double floor_per_write, long writes) {
  double per = writes > 0 ? (t - plain) / static_cast<double>(writes) * 1e6 : 0;
  std::printf("  %-34s %9.4f s %9.2fx plain", name, t, t / plain);
  if (writes > 0 && floor_per_write > 0)
    std::printf("  %7.2f us/write  %5.2fx bare loop", per, per / floor_per_write);
  std::printf("\n");
}

/// The best wall time of each variant over REPEAT rounds; each round runs
/// every variant once, in turn, so that a drift of the machine's speed during
/// the bench reaches all of them alike.
std::vector<double> best_interleaved(const std::vector<std::function<void()>>& variants,
                                     int repeat) {
  std::vector<double> best(variants.size(), 1e9);
  for (int r = 0; r < repeat; ++r)
    for (std::size_t v = 0; v < variants.size(); ++v)
      best[v] = std::min(best[v], seconds(variants[v]));
  return best;
}

struct counts {
  long tracer = 0, bare_stops = 0, perf = 0;
};

/// plain, bare loop, tracer, strace, and the perf backend where it can run.
std::vector<std::function<void()>> variants(const std::vector<std::string>& argv, counts& n,
                                            bool with_perf) {
  auto traced = options(argv);
  traced.trace = true;
  auto perf = traced;
  perf.backend = flushcheck::trace_backend::perf;
  std::vector<std::string> st = {"strace", "-f", "-c", "-o", "/dev/null", "-e", "trace=write"};
  st.insert(st.end(), argv.begin(), argv.end());
  auto write_calls = [](const flushcheck::observation& o) {
    return o.trace->totals[static_cast<int>(flushcheck::traced_call::write)];
  };
  std::vector<std::function<void()>> v = {
      [argv] { flushcheck::run(options(argv)); }, [argv, &n] { n.bare_stops = bare_loop(argv); },
      [traced, &n, write_calls] { n.tracer = write_calls(flushcheck::run(traced)); },
      [st] { flushcheck::run(options(st)); }};
  if (with_perf)
    v.push_back([perf, &n, write_calls] { n.perf = write_calls(flushcheck::run(perf)); });
  return v;
}

/// Prints the rows of one workload; returns tracer / plain.
double workload(const char* title, const std::vector<std::string>& argv, long writes, int repeat) {
  std::printf("%s\n", title);
  std::string why = flushcheck::perf_unavailable_reason();
  counts n;
  auto t = best_interleaved(variants(argv, n, why.empty()), repeat);
  double plain = t[0], bare = t[1], ours = t[2], strace_t = t[3];
  double floor_per = writes > 0 ? (bare - plain) / static_cast<double>(writes) * 1e6 : 0;
  row("plain (harness, no tracer)", plain, plain, 0, 0);
  row("bare ptrace+seccomp loop", bare, plain, floor_per, writes);
  row("flushcheck tracer", ours, plain, floor_per, writes);
  row("strace -f -c -e trace=write", strace_t, plain, floor_per, writes);
  if (why.empty()) {
    row("flushcheck perf backend", t[4], plain, 0, 0);
    std::printf("  writes counted by the perf backend: %ld\n", n.perf);
  } else {
    std::printf("  perf backend: not measured: %s\n", why.c_str());
  }
  std::printf("  writes counted: tracer %ld, bare loop %ld stops\n", n.tracer, n.bare_stops);
  if (writes > 0) {
    double ours_per = (ours - plain) / static_cast<double>(writes) * 1e6;
    double strace_per = (strace_t - plain) / static_cast<double>(writes) * 1e6;
    std::printf("  per traced write: strace / tracer = %.2fx, tracer / bare loop = %.2fx\n\n",
                strace_per / ours_per, ours_per / floor_per);
  } else {
    std::printf("  tracer / plain = %.3fx\n\n", ours / plain);
  }
  return ours / plain;
}

}  // namespace

int main(int argc, char** argv) {
  long writes = argc > 1 ? std::atol(argv[1]) : 200000;
  int repeat = argc > 2 ? std::atoi(argv[2]) : 3;
  std::string target = FLUSHCHECK_TARGET_STDIO_SCRIPT;
  std::printf("trace_bench: best of %d runs, stdout on /dev/null, %ld writes\n\n", repeat, writes);
  workload("(a) unbuffered: setvbuf none; putc N",
           {target, "setvbuf none; putc " + std::to_string(writes)}, writes, repeat);
  // SEED_CLAIMS A: 10,000,000 putc into a fully buffered stream (~2,442 writes).
  workload("(b) buffered: putc 10000000, default full buffer (few writes)",
           {target, "putc 10000000; exit 0"}, 0, repeat);
  double fixed = workload("(c) fixed cost: /bin/true", {"/bin/true"}, 0, repeat * 10);
  std::printf("goal: a traced run of a program that makes no writes <= %.2fx plain: %s\n",
              k_fixed_cost_goal, fixed <= k_fixed_cost_goal ? "met" : "NOT met");
  return 0;
}
