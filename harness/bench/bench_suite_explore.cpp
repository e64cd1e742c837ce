// The `explore` suite: what `explore` costs against one traced run of the
// same program, N bytes in 8 KiB writes of zeros (`dd bs=8k`): every write
// cut derived from the uncut run (issue 57's goal: within 3x of one traced
// run), and a few cuts each run (--derive=off --max-cuts=4, each real cut
// costing the writes it reaches). Timed from outside, as a user's shell
// times them, round by round, so that a drift of the machine reaches every
// variant alike.
#include <chrono>
#include <filesystem>
#include <string>

#include "bench_suites.hpp"
#include "repro.hpp"
#include "run.hpp"

namespace flushcheck::detail {
namespace {

constexpr long k_block = 8192;

struct variant {
  std::string name;
  run_options options;
  std::string must_say;  ///< what its text output must hold (explore: "derived: N"), or ""
};

/// `flushcheck ARGS -- dd` of N bytes in 8 KiB writes, its stdout on a pipe.
run_options flushcheck_on_dd(std::vector<std::string> args, long n) {
  run_options o;
  o.argv = {std::filesystem::read_symlink("/proc/self/exe").string()};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  for (std::string a :
       {"--stdout=pipe", "--timeout=600000", "--", "dd", "if=/dev/zero", "bs=8k", "status=none"})
    o.argv.push_back(a);
  o.argv.push_back("count=" + std::to_string(n / k_block));
  o.env = clean_environment();
  o.keep = keep_policy::parse("ends:64K");
  o.timeout = std::chrono::minutes(10);
  return o;
}

std::vector<variant> variants(long n) {
  const std::string cuts = std::to_string(n / k_block + 1);  // write:1..N, after-write:N
  return {{"one traced run (count --backend=ptrace)",
           flushcheck_on_dd({"count", "--backend=ptrace"}, n), ""},
          {"explore, every write cut derived", flushcheck_on_dd({"explore"}, n),
           "derived: " + cuts + " KILL cuts"},
          {"explore --derive=off --max-cuts=4",
           flushcheck_on_dd({"explore", "--derive=off", "--max-cuts=4"}, n), "each cut run"}};
}

/// One timed run of V into ROW; a run that fails or says not what it must fails the row.
void time_once(const variant& v, bench_row& row) {
  const auto t0 = std::chrono::steady_clock::now();
  const observation obs = run(v.options);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string& out = obs.out.data;
  if (obs.status != wait_status::exited(0) || out.find(v.must_say) == std::string::npos) {
    row.failed = true;
    row.skipped = "the run " + obs.status.describe() + ", not saying \"" + v.must_say +
                  "\": " + obs.err.data.substr(0, obs.err.data.find('\n'));
    return;
  }
  row.seconds.push_back(s);
}

bench_row row_of(const variant& v, long n) {
  bench_row r;
  r.name = v.name;
  r.series = "explore";
  r.sink = "pipe";
  r.bytes = n;
  r.ops = n / k_block;
  r.repro = repro_command(v.options);
  return r;
}

std::vector<bench_row> measure_variants(const bench_context& ctx, long n) {
  const auto vs = variants(n);
  std::vector<bench_row> rows;
  for (const auto& v : vs) rows.push_back(row_of(v, n));
  for (int round = 0; round < ctx.options.repeat; ++round)
    for (std::size_t i = 0; i < vs.size(); ++i)
      if (!rows[i].failed) time_once(vs[i], rows[i]);
  return rows;
}

}  // namespace

bench_suite explore_suite(const bench_context& ctx) {
  bench_suite s;
  s.name = "explore";
  s.title = "explore's cost against one traced run: every write cut derived, and cuts each run";
  s.seed = "issue 57: every write cut of 1 GiB in 131,072 writes within 3x one traced run";
  s.baseline = "one traced run (count --backend=ptrace)";
  s.placement = "as the scheduler places them";
  const long n = ctx.sizes.scale(1L << 30, 64L << 20);
  if (ctx.options.progress) ctx.options.progress("explore " + std::to_string(n >> 20) + " MiB");
  s.rows = measure_variants(ctx, n);
  const bench_row* traced = measured_row(s, s.baseline);
  for (auto& r : s.rows) r.ratio = time_ratio(&r, traced);
  const double x = time_ratio(measured_row(s, "explore, every write cut derived"), traced);
  s.claims.push_back(claim("explore has every write cut of " + std::to_string(n >> 20) +
                               " MiB in " + std::to_string(n / k_block) +
                               " writes within 3x one traced run (issue 57)",
                           "ordering", x > 0 && x <= 3, significant(x) + "x one traced run"));
  return s;
}

}  // namespace flushcheck::detail
