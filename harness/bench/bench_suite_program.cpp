// The `program` suite: a program of the user's (a logging library's own
// bench, say) that follows the bench protocol (bench_line.h: it times its
// measured part and says `bench ns=T ops=N` on stderr), on a file and a
// pipe, beside a reference: N 10-byte lines by fwrite through the default
// set's stdio, the same sinks. Its ratio to the reference travels between
// machines; its write calls per record are exact. `--compare` gates both.
#include "bench_suites.hpp"

#include <cstdint>

namespace flushcheck::detail {
namespace {

const sink_kind k_sinks[] = {sink_kind::file, sink_kind::pipe};

bench_case program_case(const std::vector<std::string>& argv, sink_kind sink) {
  bench_case c;
  c.row.name = "program " + std::string(to_string(sink));
  c.row.series = "program";
  c.row.sink = to_string(sink);
  c.argv = argv;
  c.sink = sink;
  return c;
}

bench_case reference_case(const bench_context& ctx, long ops, sink_kind sink) {
  bench_case c;
  c.row.name =
      "reference: " + std::to_string(ops) + " fwrite lines " + std::string(to_string(sink));
  c.row.series = "reference";
  c.row.sink = to_string(sink);
  c.row.ops = ops;
  c.row.bytes = 10 * ops;
  c.argv = {bench_program(ctx.options.default_set, "bench_stdio"), "default", "0", "line",
            std::to_string(ops)};
  c.sink = sink;
  return c;
}

/// The program's own count of records (its `ops=`); without one the row
/// cannot be per record, nor its reference sized: FAILED.
void take_ops(bench_row& r) {
  auto it = r.values.find("ops");
  if (it != r.values.end() && it->second >= 1) {
    r.ops = static_cast<std::int64_t>(it->second);
  } else if (r.measured()) {
    r.failed = true;
    r.skipped = "the program's bench line has no ops=N (N records, at least 1)";
  }
}

/// Per record: nanoseconds, and write calls where they were counted.
void per_record(bench_row& r) {
  if (!r.measured()) return;
  r.values["ns_per_op"] = r.median() * 1e9 / static_cast<double>(r.ops);
  if (r.write_calls >= 0)
    r.values["writes_per_op"] = static_cast<double>(r.write_calls) / static_cast<double>(r.ops);
}

/// The program's rows, one per sink, into S; the most records one of them
/// made (at least 1), to size the reference by.
long add_program_rows(const bench_context& ctx, bench_suite& s) {
  long ops = 1;
  for (sink_kind sink : k_sinks) {
    bench_row r = ctx.measure(program_case(ctx.options.program, sink));
    take_ops(r);
    ops = std::max<long>(ops, r.ops);
    s.rows.push_back(std::move(r));
  }
  return ops;
}

}  // namespace

bench_suite program_suite(const bench_context& ctx) {
  bench_suite s;
  s.name = "program";
  s.title = "a program of yours that says `bench ns=T ops=N`, against N lines of plain stdio";
  s.seed = "none: your program (docs/bench.md, \"Your own program\")";
  s.placement = "unpinned";
  long ops = add_program_rows(ctx, s);
  for (sink_kind sink : k_sinks) s.rows.push_back(ctx.measure(reference_case(ctx, ops, sink)));
  s.baseline = s.rows[2].name;
  set_ratios(s);
  for (auto& r : s.rows) per_record(r);
  return s;
}

}  // namespace flushcheck::detail
