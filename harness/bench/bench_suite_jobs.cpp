// The `jobs` suite: what `--jobs` gives a property search and the matrix
// (issue 57's goal: at least 1.8x the throughput of --jobs 1 on a 2-core
// machine). `flushcheck gate` searches one property of C stdio (the set's
// stdio_driver) that holds at four ends on three sinks, so that every case
// runs: with --jobs 1, with the CPUs this process may use, and with twice
// that. `flushcheck matrix --all` (the default set alone under --quick)
// runs every toolchain set's cases with --jobs 1 and with the CPUs. Timed
// from outside (bench_timed_command.hpp).
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

/// MATRIX: "matrix --all" or "matrix".
std::string matrix_row(const std::string& matrix, int jobs) {
  return matrix + ", " + std::to_string(jobs) + " job(s)";
}

/// The jobs a row's name says ("gate, 4 job(s)").
double jobs_of(const bench_row& r) { return std::stod(r.name.substr(r.name.rfind(", ") + 2)); }

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

/// MATRIX ("matrix --all" or "matrix") of the targets in DIR on each of JOBS.
std::vector<timed_command> matrix_commands(const std::string& matrix, const std::string& dir,
                                           const std::vector<int>& jobs) {
  std::vector<timed_command> out;
  for (int j : jobs) {
    std::vector<std::string> args = {"matrix", "--targets", dir, "--jobs", std::to_string(j)};
    if (matrix.ends_with("--all")) args.insert(args.begin() + 1, "--all");
    out.push_back({matrix_row(matrix, j), flushcheck_command(args), "flushcheck " + matrix});
  }
  return out;
}

/// The directory of SET's targets (where its stdio_script is).
std::string targets_of(const target_set& set) {
  const auto slash = set.stdio_script.rfind('/');
  return slash == std::string::npos ? std::string(".") : set.stdio_script.substr(0, slash);
}

/// The claim that the row of CPUS jobs in S does at least 1.8x the work a
/// second of ONE's: WHAT ("searches ... cases", "runs the matrix").
bench_claim jobs_claim(const bench_suite& s, const std::string& what, const bench_row* one,
                       const std::string& cpus_row, int cpus) {
  const double x = time_ratio(one, measured_row(s, cpus_row));
  return claim("--jobs " + std::to_string(cpus) + " (the CPUs) " + what +
                   " at least 1.8x as fast as --jobs 1 (issue 57)",
               "ordering", x >= 1.8, significant(x) + "x --jobs 1");
}

}  // namespace

bench_suite jobs_suite(const bench_context& ctx) {
  bench_suite s;
  s.name = "jobs";
  s.title = "a property search and the matrix on worker processes (--jobs) against one";
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
  const std::string matrix = ctx.sizes.quick ? "matrix" : "matrix --all";
  if (ctx.options.progress) ctx.options.progress("jobs: " + matrix);
  shape.series = matrix + " --jobs";
  shape.sink = "pty,pipe,file,full";
  shape.ops = 0;  // its cases: as many for each row
  const auto matrix_rows = time_commands(
      ctx, matrix_commands(matrix, targets_of(ctx.options.default_set), {1, cpus}), shape);
  s.rows.insert(s.rows.end(), matrix_rows.begin(), matrix_rows.end());
  for (auto& r : s.rows) {
    r.x = jobs_of(r);
    const bool gate = r.name.starts_with("gate");
    r.ratio = time_ratio(&r, measured_row(s, gate ? jobs_row(1) : matrix_row(matrix, 1)));
  }
  if (cpus < 2) {
    s.claims.push_back(not_checked(s.seed, "ordering", "this process may use 1 CPU"));
    return s;
  }
  s.claims.push_back(
      jobs_claim(s, "searches cases", measured_row(s, s.baseline), jobs_row(cpus), cpus));
  s.claims.push_back(jobs_claim(s, "runs `" + matrix + "`", measured_row(s, matrix_row(matrix, 1)),
                                matrix_row(matrix, cpus), cpus));
  return s;
}

}  // namespace flushcheck::detail
