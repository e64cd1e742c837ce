// The `pipe` suite (SEED_CLAIMS D): throughput through a pipe by block size
// and pipe size, and 1-byte ping-pong latency, with writer and reader on one
// CPU and on two (targets/bench/bench_pipe.c; its own pipe, not a sink).
#include <algorithm>

#include "bench_suites.hpp"

namespace flushcheck::detail {
namespace {

constexpr long k_kib = 1024;
constexpr long k_mib = 1024 * 1024;

std::string placement_name(const std::string& p) { return p == "same" ? "one CPU" : "two CPUs"; }

std::string series_name(const std::string& placement, long pipe_size) {
  return placement_name(placement) + ", " + size_name(pipe_size) + " pipe";
}

/// A split row is counted with its one-CPU twin: a traced program runs on
/// one CPU (bench_case::count_argv), and the calls are the same.
void count_on_one_cpu(bench_case& c) {
  if (c.argv.back() != "split") return;
  c.count_argv = c.argv;
  c.count_argv.back() = "same";
}

/// The bytes streamed in BLOCK-byte blocks: up to a cap, in whole blocks,
/// at least one.
long throughput_total(const bench_sizes& sizes, long block) {
  long cap = sizes.scale(64 * k_mib, 8 * k_mib);
  return std::max(block, std::min(cap, block * sizes.scale(50000, 10000)) / block * block);
}

/// TOTAL bytes in BLOCK-byte blocks through a PIPE_SIZE pipe, on PLACEMENT.
bench_case throughput_case(const bench_context& ctx, long block, long pipe_size,
                           const std::string& placement) {
  const long total = throughput_total(ctx.sizes, block);
  bench_case c;
  c.row.series = series_name(placement, pipe_size);
  c.row.name = size_name(block) + " blocks, " + c.row.series;
  c.row.sink = "-";
  c.row.x = static_cast<double>(block);
  c.row.bytes = total;
  c.row.ops = total / block;
  c.argv = {bench_program(ctx.options.default_set, "bench_pipe"),
            "throughput",
            std::to_string(block),
            std::to_string(total),
            std::to_string(pipe_size == 64 * k_kib ? 0 : pipe_size),
            placement};
  count_on_one_cpu(c);
  c.sink = sink_kind::null;
  return c;
}

bench_case pingpong_case(const bench_context& ctx, const std::string& placement) {
  long n = ctx.sizes.scale(10000, 2000);
  bench_case c;
  c.row.name = "1-byte ping-pong, " + placement_name(placement);
  c.row.series = "ping-pong";
  c.row.sink = "-";
  c.row.bytes = n;
  c.row.ops = n;
  c.argv = {bench_program(ctx.options.default_set, "bench_pipe"), "pingpong", std::to_string(n),
            placement};
  count_on_one_cpu(c);
  c.sink = sink_kind::null;
  return c;
}

std::vector<long> blocks(const bench_sizes& sizes) {
  if (sizes.quick) return {1, 256, 4 * k_kib, 64 * k_kib, k_mib};
  return {1, 16, 256, 4 * k_kib, 16 * k_kib, 64 * k_kib, 256 * k_kib, k_mib};
}

bench_claim counts_claim(const bench_suite& s) {
  std::string bad;
  int checked = 0;
  for (const auto& r : s.rows) {
    if (r.series == "ping-pong" || !r.measured()) continue;
    ++checked;
    if (r.write_calls != r.ops)
      bad +=
          r.name + ": " + std::to_string(r.write_calls) + " (not " + std::to_string(r.ops) + "); ";
  }
  return claim("one write() per block: 1 GB in 4 KiB blocks is 244,141 write() (D)", "mechanism",
               bad.empty() && checked > 0,
               bad.empty() ? std::to_string(checked) + " throughput rows, each exact" : bad);
}

/// The throughput curve of a 64 KiB pipe with PLACEMENT.
bench_series curve(const bench_suite& s, const std::string& placement) {
  return series_of(s, series_name(placement, 64 * k_kib),
                   [](const bench_row& r) { return r.throughput(); });
}

/// Where the curve peaks, in words, and whether a larger block comes after it.
std::pair<bool, std::string> peak_of(const bench_series& c, const std::string& where) {
  auto peak =
      std::max_element(c.points.begin(), c.points.end(),
                       [](const bench_point& a, const bench_point& b) { return a.y < b.y; });
  if (peak == c.points.end()) return {false, where + ": not measured"};
  return {peak + 1 != c.points.end(),
          where + ": peak at " + size_name(static_cast<long>(peak->x)) + " blocks"};
}

/// The seed ran writer and reader where the scheduler put them: on a machine
/// with more than one CPU, on two, mostly. Both placements are shown.
bench_claim monotonic_claim(const bench_suite& s) {
  auto [one, one_seen] = peak_of(curve(s, "same"), "one CPU");
  auto [two, two_seen] = peak_of(curve(s, "split"), "two CPUs");
  const char* seed =
      "throughput is not monotonic in block size: a block as large as the pipe runs "
      "writer and reader in lockstep (D)";
  if (curve(s, "same").points.empty()) return not_checked(seed, "ordering", one_seen);
  bool split_ran = !curve(s, "split").points.empty();  // two CPUs: not on a one-CPU machine
  return claim(seed, "ordering", one && (two || !split_ran),
               one_seen + "; " + two_seen + " (64 KiB pipe)");
}

/// 4 KiB against 64 KiB blocks on PLACEMENT: "4 KiB 0.8 GB/s, 64 KiB 3.1 GB/s (one CPU)".
std::pair<bool, std::string> four_against_sixty_four(const bench_suite& s, const std::string& p) {
  std::string where = ", " + series_name(p, 64 * k_kib);
  double t4 = throughput_of(s, "4 KiB blocks" + where),
         t64 = throughput_of(s, "64 KiB blocks" + where);
  return {t64 > 0 && t4 > t64, "4 KiB " + significant(t4 / 1e9) + " GB/s, 64 KiB " +
                                   significant(t64 / 1e9) + " GB/s (" + placement_name(p) + ")"};
}

/// R's median round trip in nanoseconds; 0 when not measured.
double p50(const bench_row* r) {
  return r && r->measured() && r->values.count("p50_ns") ? r->values.at("p50_ns") : 0.0;
}

/// What the latency claim saw: ONE_WAY against PER_BYTE (us), and the
/// median round trip of B, on two CPUs, where it ran.
std::string latency_seen(double one_way, double per_byte, const bench_row* b) {
  std::string two = p50(b) > 0 ? significant(p50(b) / 1e3) + " us" : "not run";
  return "one way " + significant(one_way) + " us (half the median round trip, one CPU) against " +
         significant(per_byte) +
         " us per byte streamed with no one asleep; median round trip on two CPUs " + two;
}

/// One way of a round trip (half the median) against a byte streamed with
/// no one asleep (the 1-byte blocks on one CPU: a write and a read).
bench_claim latency_claim(const bench_suite& s) {
  const bench_row* a = find_row(s, "1-byte ping-pong, one CPU");
  const bench_row* b = find_row(s, "1-byte ping-pong, two CPUs");
  const bench_row* streamed = find_row(s, "1 B blocks, " + series_name("same", 64 * k_kib));
  const char* seed =
      "1-byte ping-pong: 17.7 us round trip, ~8.9 us one way, dominated by waking a sleeping "
      "reader (D)";
  if (p50(a) <= 0 || !streamed || !streamed->measured() || streamed->ops <= 0)
    return not_checked(seed, "ordering", "its rows were not measured");
  double one_way = p50(a) / 2e3;
  double per_byte = streamed->median() / static_cast<double>(streamed->ops) * 1e6;
  return claim(seed, "ordering", one_way >= 2 * per_byte, latency_seen(one_way, per_byte, b));
}

void add_claims(bench_suite& s) {
  s.claims.push_back(counts_claim(s));
  auto [one, one_seen] = four_against_sixty_four(s, "same");
  auto [two, two_seen] = four_against_sixty_four(s, "split");
  bool split_ran = !curve(s, "split").points.empty();
  s.claims.push_back(claim("4 KiB blocks are faster than 64 KiB: 9.17 GB/s vs 3.01 GB/s (D)",
                           "ordering", one && (two || !split_ran), one_seen + "; " + two_seen));
  std::string same = ", " + series_name("same", 64 * k_kib);
  double t4 = throughput_of(s, "4 KiB blocks" + same), t1 = throughput_of(s, "1 B blocks" + same);
  s.claims.push_back(claim("1-byte blocks are ~1,500x slower than 4 KiB (D)", "ordering",
                           t1 > 0 && t4 / t1 >= 100,
                           significant(t1 > 0 ? t4 / t1 : 0) + "x (one CPU)"));
  s.claims.push_back(monotonic_claim(s));
  s.claims.push_back(latency_claim(s));
}

/// Throughput by block size, a line per placement and pipe size.
bench_plot throughput_plot(const bench_suite& s) {
  bench_plot thr =
      log_log_plot("pipe throughput by block size", "block size (bytes)", "throughput (MB/s)");
  for (const char* p : {"same", "split"})
    for (long size : {64 * k_kib, k_mib})
      thr.series.push_back(series_of(s, series_name(p, size),
                                     [](const bench_row& r) { return r.throughput() / 1e6; }));
  return thr;
}

/// Ping-pong row R's round trip (us) by percentile.
bench_series percentile_line(const bench_row& r) {
  // x: the nines of the percentile, -log10(1 - p/100), so that the tail
  // (p99, p99.9) has room: 0 is the minimum, 1 p90, 2 p99, 3 p99.9, 4 the maximum.
  const std::pair<double, const char*> pct[] = {{0, "min_ns"}, {0.046, "p10_ns"}, {0.301, "p50_ns"},
                                                {1, "p90_ns"}, {2, "p99_ns"},     {3, "p999_ns"},
                                                {4, "max_ns"}};
  bench_series line{r.name, {}};
  for (const auto& [x, key] : pct)
    if (r.values.count(key)) line.points.push_back({x, r.values.at(key) / 1e3});
  return line;
}

/// Round trip by percentile, a line per measured ping-pong row.
bench_plot latency_plot(const bench_suite& s) {
  bench_plot lat{"1-byte ping-pong: round trip by percentile",
                 "nines of the percentile (0 min, 0.3 p50, 1 p90, 2 p99, 3 p99.9, 4 max)",
                 "round trip (us)",
                 false,
                 true,
                 {}};
  for (const auto& r : s.rows) {
    if (r.series != "ping-pong" || !r.measured()) continue;
    lat.series.push_back(percentile_line(r));
  }
  return lat;
}

void add_plots(bench_suite& s) { s.plots = {throughput_plot(s), latency_plot(s)}; }

/// The pipe suite before its rows: its name and what it says of itself.
bench_suite described_pipe_suite() {
  bench_suite s;
  s.name = "pipe";
  s.title = "a pipe between two processes: throughput by block size, ping-pong latency";
  s.seed = "SEED_CLAIMS D (pipes)";
  s.baseline = "4 KiB blocks, " + series_name("same", 64 * k_kib);
  s.placement =
      "pinned: one CPU (writer and reader on the first CPU allowed) or two (the "
      "reader on the second)";
  return s;
}

}  // namespace

bench_suite pipe_suite(const bench_context& ctx) {
  bench_suite s = described_pipe_suite();
  for (const char* p : {"same", "split"})
    for (long size : {64 * k_kib, k_mib})
      for (long block : blocks(ctx.sizes))
        s.rows.push_back(ctx.measure(throughput_case(ctx, block, size, p)));
  for (const char* p : {"same", "split"}) s.rows.push_back(ctx.measure(pingpong_case(ctx, p)));
  set_ratios(s);
  add_claims(s);
  add_plots(s);
  return s;
}

}  // namespace flushcheck::detail
