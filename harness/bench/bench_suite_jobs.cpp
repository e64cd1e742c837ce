// The `jobs` suite: what `--jobs` gives a property search (issue 57's goal:
// at least 1.8x the throughput of --jobs 1 on a 2-core machine). `flushcheck
// gate` searches one property of C stdio (the set's stdio_driver) that holds
// at four ends on three sinks, so that every case runs: with --jobs 1, with
// the CPUs this process may use, and with twice that. Timed from outside
// (bench_timed_command.hpp).
#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "bench_suites.hpp"
#include "bench_timed_command.hpp"
#include "error.hpp"
#include "temporary.hpp"
#include "workers.hpp"

namespace flushcheck::detail {
namespace {

/// C stdio keeps every record at return and exit, and a prefix at a cut.
constexpr const char* k_gate = R"([[property]]
name = "stdio_keeps_a_prefix"
command = ["{driver}"]
stdout = ["pipe", "file", "pty"]
[property.promise]
return = "all"
exit = "all"
KILL = "prefix"
TERM = "prefix"
)";

/// The gate file, made new (O_EXCL) in DIR.
std::string write_gate(const temporary_directory& dir) {
  const std::string path = dir.path() + "/jobs.toml";
  unique_fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  const std::string text = k_gate;
  if (!fd || ::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size()))
    throw_errno("write " + path);
  return path;
}

std::string jobs_row(int jobs) { return "gate, " + std::to_string(jobs) + " job(s)"; }

std::vector<timed_command> commands(const std::string& gate, const std::string& driver, long cases,
                                    const std::vector<int>& jobs) {
  std::vector<timed_command> out;
  for (int j : jobs)
    out.push_back(
        {jobs_row(j),
         flushcheck_command({"gate", gate, "--var", "driver=" + driver, "--seed", "1", "--cases",
                             std::to_string(cases), "--jobs", std::to_string(j)}),
         "PASS  stdio_keeps_a_prefix: " + std::to_string(cases) + " cases"});
  return out;
}

}  // namespace

bench_suite jobs_suite(const bench_context& ctx) {
  bench_suite s;
  s.name = "jobs";
  s.title = "a property search on worker processes (--jobs) against one";
  s.seed = "issue 57: --jobs at least 1.8x the throughput of --jobs 1 on 2 cores";
  s.baseline = jobs_row(1);
  s.placement = "as the scheduler places them; each worker's traced runs on a CPU of its own";
  const long cases = ctx.sizes.scale(400, 100);
  const int cpus = usable_cpus();
  const std::string driver = bench_program(ctx.options.default_set, "stdio_driver");
  if (::access(driver.c_str(), X_OK) != 0) {
    s.claims.push_back(not_checked(
        s.seed, "ordering", "no stdio_driver beside " + ctx.options.default_set.stdio_script));
    return s;
  }
  if (ctx.options.progress) ctx.options.progress("jobs: " + std::to_string(cases) + " cases");
  const temporary_directory dir("flushcheck-bench-jobs-");
  bench_row shape;
  shape.series = "gate --jobs";
  shape.sink = "pipe,file,pty";
  shape.ops = cases;
  std::vector<int> jobs = {1};
  if (cpus > 1) jobs.push_back(cpus);
  jobs.push_back(2 * cpus);
  s.rows = time_commands(ctx, commands(write_gate(dir), driver, cases, jobs), shape);
  const bench_row* one = measured_row(s, s.baseline);
  for (auto& r : s.rows) {
    r.x = std::stod(r.name.substr(6));
    r.ratio = time_ratio(&r, one);
  }
  if (cpus < 2) {
    s.claims.push_back(not_checked(s.seed, "ordering", "this process may use 1 CPU"));
    return s;
  }
  const double x = time_ratio(one, measured_row(s, jobs_row(cpus)));
  s.claims.push_back(claim("--jobs " + std::to_string(cpus) + " (the CPUs) searches at least " +
                               "1.8x as many cases a second as --jobs 1 (issue 57)",
                           "ordering", x >= 1.8, significant(x) + "x --jobs 1"));
  return s;
}

}  // namespace flushcheck::detail
