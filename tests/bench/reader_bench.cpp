// The reader's cost and memory with a large output, side by side in one run
// (issue 11's goal: 1 GiB through a pipe at most ~2x `head -c 1G /dev/zero |
// cat >/dev/null`, with a flat RSS). Each round runs every row once, in turn;
// a row is its best round. RSS is this process's peak growth over the run
// (getrusage), measured in a fresh child process per row so that rows do not
// share a peak.
//
//   reader_bench [MIB] [ROUNDS]      (defaults 1024, 3)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "run.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

struct cost {
  double seconds = 1e9;
  long rss_growth_kib = 0;
};

/// Runs F in a fork of this process: its wall time, and how far it raised
/// the fork's peak RSS.
cost measure(const std::function<void()>& f) {
  int p[2];
  if (pipe(p) != 0) std::abort();
  pid_t pid = fork();
  if (pid == 0) {
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    auto t0 = clock_type::now();
    f();
    cost c{std::chrono::duration<double>(clock_type::now() - t0).count(), 0};
    getrusage(RUSAGE_SELF, &after);
    c.rss_growth_kib = after.ru_maxrss - before.ru_maxrss;
    if (write(p[1], &c, sizeof c) != sizeof c) _exit(1);
    _exit(0);
  }
  close(p[1]);
  cost c;
  if (read(p[0], &c, sizeof c) != sizeof c) std::abort();
  close(p[0]);
  waitpid(pid, nullptr, 0);
  return c;
}

flushcheck::run_options harness_run(long mib, flushcheck::sink_kind sink) {
  flushcheck::run_options o;
  o.argv = {"/usr/bin/head", "-c", std::to_string(mib) + "M", "/dev/zero"};
  o.env = flushcheck::clean_environment();
  o.stdout_sink = sink;
  o.timeout = std::chrono::minutes(10);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  long mib = argc > 1 ? std::atol(argv[1]) : 1024;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  std::string shell = "head -c " + std::to_string(mib) + "M /dev/zero | cat >/dev/null";
  std::vector<std::pair<std::string, std::function<void()>>> rows = {
      {shell, [&] { std::system(shell.c_str()); }},
      {"flushcheck run (pipe)",
       [&] { flushcheck::run(harness_run(mib, flushcheck::sink_kind::pipe)); }},
      {"flushcheck run (file)",
       [&] { flushcheck::run(harness_run(mib, flushcheck::sink_kind::file)); }},
  };
  std::vector<cost> best(rows.size());
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < rows.size(); ++i) {
      cost c = measure(rows[i].second);
      if (c.seconds < best[i].seconds) best[i] = c;
    }
  std::printf("reader_bench: %ld MiB of output, best of %d rounds\n\n", mib, rounds);
  for (std::size_t i = 0; i < rows.size(); ++i)
    std::printf("  %-44s %8.3f s %6.2fx  peak RSS +%ld MiB\n", rows[i].first.c_str(),
                best[i].seconds, best[i].seconds / best[0].seconds, best[i].rss_growth_kib / 1024);
  double ratio = best[1].seconds / best[0].seconds;
  bool flat = best[1].rss_growth_kib / 1024 < 64;
  std::printf(
      "\ngoal: the pipe row <= 2x the shell pipeline (%.2fx) with a flat RSS (+%ld MiB): %s\n",
      ratio, best[1].rss_growth_kib / 1024, ratio <= 2.0 && flat ? "met" : "NOT met");
  return 0;
}
