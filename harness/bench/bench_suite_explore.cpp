// The `explore` suite: what `explore` costs against one traced run of the
// same program, N bytes in 8 KiB writes of zeros (`dd bs=8k`): every write
// cut derived from the uncut run (issue 57's goal: within 3x of one traced
// run), and a few cuts each run (--derive=off --max-cuts=4, each real cut
// costing the writes it reaches). Timed from outside (bench_timed_command.hpp).
#include <string>
#include <vector>

#include "bench_suites.hpp"
#include "bench_timed_command.hpp"

namespace flushcheck::detail {
namespace {

constexpr long k_block = 8192;

/// `flushcheck ARGS -- dd` of N bytes in 8 KiB writes, its stdout on a pipe.
run_options flushcheck_on_dd(std::vector<std::string> args, long n) {
  for (std::string a :
       {"--stdout=pipe", "--timeout=600000", "--", "dd", "if=/dev/zero", "bs=8k", "status=none"})
    args.push_back(a);
  args.push_back("count=" + std::to_string(n / k_block));
  return flushcheck_command(args);
}

std::vector<timed_command> commands(long n) {
  const std::string cuts = std::to_string(n / k_block + 1);  // write:1..N, after-write:N
  return {{"one traced run (count --backend=ptrace)",
           flushcheck_on_dd({"count", "--backend=ptrace"}, n), ""},
          {"explore, every write cut derived", flushcheck_on_dd({"explore"}, n),
           "derived: " + cuts + " KILL cuts"},
          {"explore --derive=off --max-cuts=4",
           flushcheck_on_dd({"explore", "--derive=off", "--max-cuts=4"}, n), "each cut run"}};
}

std::vector<bench_row> measure_commands(const bench_context& ctx, long n) {
  bench_row shape;
  shape.series = "explore";
  shape.sink = "pipe";
  shape.bytes = n;
  shape.ops = n / k_block;
  return time_commands(ctx, commands(n), shape);
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
  s.rows = measure_commands(ctx, n);
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
