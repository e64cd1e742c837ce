// Cases per second of a property gate (docs/gate.md, "Property gates"):
// flushcheck's search, case by case (generate, run traced, check the
// promise), on a C++ driver, docs/gate-example's minilog with its promise
// from docs/gate-example/gate.toml; side by side in the same run with a
// bare loop that forks and execs the same driver with the same workloads
// and waits, no tracer, no checks: the floor. The workloads' own sleeps
// (1 to 20 ms, one op in 14) are in both. Goal: at least 10 cases per
// second on this machine (2 cores), traced.
//
//   property_gate_bench [--benchmark_min_time=...]      (Google Benchmark flags)
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gate_file.hpp"
#include "property_gen.hpp"
#include "property_search.hpp"
#include "rate_reporter.hpp"

namespace {

using namespace flushcheck;

constexpr double k_goal = 10;  // cases per second, traced
constexpr long k_cases = 50;   // per search

const property_spec& spec() {
  static const property_spec s = [] {
    const auto f = parse_gate_file(FLUSHCHECK_GATE_EXAMPLE "/gate.toml",
                                   {"driver=" FLUSHCHECK_TARGET_MINILOG_DRIVER, "app=/bin/true"});
    return f.properties.at(0);
  }();
  return s;
}

/// One search of k_cases cases (a kept promise: no shrinking), a new seed each time.
void property_search(benchmark::State& st) {
  search_options o;
  o.cases = k_cases;
  for (auto _ : st) {
    const property_result r = search_property(spec(), o);
    if (!r.pass()) st.SkipWithError(("the promise broke: " + r.found->promise.text()).c_str());
    ++o.seed;
  }
  st.SetItemsProcessed(st.iterations() * k_cases);
}

/// The workloads the search runs, as the driver's arguments.
const std::vector<std::vector<std::string>>& workloads() {
  static const std::vector<std::vector<std::string>> all = [] {
    std::vector<std::vector<std::string>> out;
    const auto gen = gen_workload_case(spec());
    rc::Random random(0);
    for (long i = 0; i < k_cases; ++i) {
      auto argv = spec().argv;
      const auto plan = plan_of(spec(), gen(random.split(), static_cast<int>(i % 81)).value());
      argv.insert(argv.end(), plan.workload.begin(), plan.workload.end());
      out.push_back(argv);
    }
    return out;
  }();
  return all;
}

/// fork, exec the driver with its log directory and output to /dev/null, wait.
void bare_once(const std::vector<std::string>& argv, const std::string& dir) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    setenv("FLUSHCHECK_LOG_DIR", dir.c_str(), 1);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
}

void bare_loop(benchmark::State& st) {
  char dir[] = "/tmp/flushcheck-bench-XXXXXX";
  if (mkdtemp(dir) == nullptr) std::abort();
  const auto& w = workloads();
  for (auto _ : st)
    for (const auto& argv : w) bare_once(argv, dir);
  st.SetItemsProcessed(st.iterations() * k_cases);
  std::filesystem::remove_all(dir);
}

// Wall time: the work is in child processes, not in this thread's CPU time.
BENCHMARK(bare_loop)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();
BENCHMARK(property_search)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  rate_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double bare = reporter.rate["bare_loop"], search = reporter.rate["property_search"];
  std::printf(
      "\nproperty gate, minilog's driver (docs/gate-example), cases per second (the\n"
      "same %ld workloads in both, their sleep ops included):\n",
      k_cases);
  std::printf("%12s %12s %8s\n", "bare", "search", "ratio");
  std::printf("%12.0f %12.0f %8.2f\n", bare, search, bare > 0 ? search / bare : 0);
  std::printf("goal: >= %.0f cases per second, traced: %s\n", k_goal,
              search >= k_goal ? "HOLDS" : "DOES NOT HOLD");
  benchmark::Shutdown();
  return 0;
}
