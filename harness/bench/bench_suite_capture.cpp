// The `capture` suite: what reading a program's output costs the harness.
// N bytes of zeros (`head -c N /dev/zero`) are read from a pipe by `cat`
// (the floor: a reader that keeps nothing) and by `flushcheck run` with
// --keep=ends:8M (the default), none and all, and from a file sink; round
// by round, so that a
// drift of the machine reaches every variant alike. Timed from outside, as a
// user's shell times them; each run's peak RSS is wait4's ru_maxrss of the
// reader's process tree (observation::peak_rss_kib), as /usr/bin/time -v
// reports it. Beside them, how late a time cut comes under a writer that
// never stops (`yes`): the run loop must not starve the cut's timer.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>

#include "bench_suites.hpp"
#include "repro.hpp"
#include "run.hpp"

namespace flushcheck::detail {
namespace {

constexpr double mb = 1e6;

struct variant {
  std::string name;
  run_options options;
  double kept_mb = 0;  ///< what its keep policy holds of N bytes
};

run_options reader(std::vector<std::string> argv) {
  run_options o;
  o.argv = std::move(argv);
  o.env = clean_environment();
  o.stdout_sink = sink_kind::null;
  o.keep = keep_policy::parse("none");
  o.timeout = std::chrono::minutes(5);
  return o;
}

std::vector<variant> variants(long n) {
  const std::string bytes = std::to_string(n);
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  auto cli = [&](const std::string& keep, const std::string& sink) {
    return reader({self, "run", "--stdout=" + sink, "--keep=" + keep, "--timeout=300000", "--",
                   "head", "-c", bytes, "/dev/zero"});
  };
  const double all = static_cast<double>(n) / mb;
  const double ends = std::min(all, 2.0 * static_cast<double>(8 << 20) / mb);
  return {{"| cat", reader({"sh", "-c", "head -c " + bytes + " /dev/zero | cat"}), 0},
          {"flushcheck --keep=ends:8M", cli("ends:8M", "pipe"), ends},
          {"flushcheck --keep=none", cli("none", "pipe"), 0},
          {"flushcheck --keep=all", cli("all", "pipe"), all},
          {"flushcheck --stdout=file", cli("ends:8M", "file"), ends}};
}

/// One timed run of V into ROW, its peak RSS into PEAKS.
void time_once(const variant& v, bench_row& row, std::vector<double>& peaks) {
  const auto t0 = std::chrono::steady_clock::now();
  const observation obs = run(v.options);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (obs.status != wait_status::exited(0)) {
    row.failed = true;
    row.skipped =
        "the run " + obs.status.describe() + ": " + obs.err.data.substr(0, obs.err.data.find('\n'));
    return;
  }
  row.seconds.push_back(s);
  if (obs.peak_rss_kib >= 0) peaks.push_back(static_cast<double>(obs.peak_rss_kib) * 1024 / mb);
}

bench_row row_of(const variant& v, long n) {
  bench_row r;
  r.name = v.name;
  r.series = "capture";
  r.sink = v.name.find("file") != std::string::npos ? "file" : "pipe";
  r.bytes = n;
  r.repro = repro_command(v.options);
  r.values["kept_mb"] = v.kept_mb;
  return r;
}

/// The median of V, or -1 when it is empty.
double median_of(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<bench_row> measure_variants(const bench_context& ctx, long n) {
  const auto vs = variants(n);
  std::vector<bench_row> rows;
  std::vector<std::vector<double>> peaks(vs.size());
  for (const auto& v : vs) rows.push_back(row_of(v, n));
  for (int round = 0; round < ctx.options.repeat; ++round)
    for (std::size_t i = 0; i < vs.size(); ++i)
      if (!rows[i].failed) time_once(vs[i], rows[i], peaks[i]);
  for (std::size_t i = 0; i < vs.size(); ++i) rows[i].values["peak_rss_mb"] = median_of(peaks[i]);
  return rows;
}

double peak_of(const bench_row* r) { return r ? r->values.at("peak_rss_mb") : -1; }

/// --keep=ends:8M's peak RSS against --keep=none's (BASE) and what it keeps.
bench_claim ends_memory_claim(const bench_suite& s, double base) {
  const bench_row* ends = measured_row(s, "flushcheck --keep=ends:8M");
  const double peak = peak_of(ends), kept = ends ? ends->values.at("kept_mb") : 0;
  return claim("--keep=ends:8M holds what it keeps plus at most 4 MB over --keep=none's (issue 38)",
               "memory", base > 0 && peak > 0 && peak <= base + kept + 4,
               significant(peak) + " MB at peak: --keep=none's " + significant(base) + " MB and " +
                   significant(peak - base) + " MB for the " + significant(kept) + " MB kept");
}

/// --keep=all's peak RSS against --keep=none's (BASE), for N bytes of output.
bench_claim all_memory_claim(const bench_suite& s, double base, long n) {
  const double out = static_cast<double>(n) / mb;
  const double peak_all = peak_of(measured_row(s, "flushcheck --keep=all"));
  return claim("--keep=all holds at most 1.2x the output over --keep=none's (issue 38)", "memory",
               base > 0 && peak_all > 0 && peak_all - base <= 1.2 * out,
               significant(peak_all) + " MB at peak: " + significant((peak_all - base) / out) +
                   "x the " + significant(out) + " MB over --keep=none's");
}

void add_claims(bench_suite& s, long n) {
  const bench_row* cat = measured_row(s, "| cat");
  const bench_row* ends = measured_row(s, "flushcheck --keep=ends:8M");
  const double x = time_ratio(ends, cat);
  s.claims.push_back(claim("flushcheck run reads a pipe within 1.3x the time of `| cat` (issue 38)",
                           "ordering", x > 0 && x <= 1.3, significant(x) + "x | cat"));
  const double base = peak_of(measured_row(s, "flushcheck --keep=none"));
  s.claims.push_back(ends_memory_claim(s, base));
  s.claims.push_back(all_memory_claim(s, base, n));
}

constexpr long cut_ms = 300;

/// One run of O, cut at cut_ms: its lateness into R's seconds, or R failed.
void time_cut(const run_options& o, bench_row& r) {
  const observation obs = run(o);
  if (obs.kill && obs.kill->delivered) {
    r.seconds.push_back(static_cast<double>(obs.kill->t_us - cut_ms * 1000) / 1e6);
  } else {
    r.failed = true;
    r.skipped = "the cut was not delivered: the run " + obs.status.describe();
  }
}

/// A SIGKILL cut at cut_ms under `yes` on SINK, REPEAT times: its lateness
/// (kill time - cut_ms) as the row's seconds.
bench_row cut_lateness(sink_kind sink, int repeat) {
  bench_row r;
  r.name = "time cut under yes, " + std::string(to_string(sink));
  r.series = "cut lateness";
  r.sink = to_string(sink);
  run_options o = reader({"/usr/bin/yes"});
  o.stdout_sink = sink;
  o.kill = kill_plan::at_time(cut_ms, SIGKILL);
  r.repro = repro_command(o);
  for (int i = 0; i < repeat && !r.failed; ++i) time_cut(o, r);
  return r;
}

/// Before the reader was bounded, a 500 ms cut came 207 ms late on a pipe
/// and 1,673 ms on a pty; the CLI measures about 0.1 ms on an idle machine.
void add_lateness_claim(bench_suite& s) {
  double worst = -1;
  for (const char* name : {"time cut under yes, pipe", "time cut under yes, pty"})
    if (const bench_row* r = measured_row(s, name)) worst = std::max(worst, r->median());
  s.claims.push_back(claim("a time cut under a writer that never stops comes at most 100 ms late",
                           "latency", worst >= 0 && worst <= 0.1,
                           significant(worst * 1000) + " ms late (median, the later sink)"));
}

/// The capture suite before its rows: its name and what it says of itself.
bench_suite described_capture_suite() {
  bench_suite s;
  s.name = "capture";
  s.title = "what reading the program's output costs: `| cat`, and flushcheck run's reader";
  s.seed = "the capture path's goals (issue 38): 1.3x cat; RSS what is kept plus a few MB";
  s.baseline = "| cat";
  s.placement = "as the scheduler places them";
  return s;
}

}  // namespace

bench_suite capture_suite(const bench_context& ctx) {
  bench_suite s = described_capture_suite();
  const long n = ctx.sizes.scale(1L << 30, 64L << 20);
  if (ctx.options.progress) ctx.options.progress("capture " + std::to_string(n >> 20) + " MiB");
  s.rows = measure_variants(ctx, n);
  const bench_row* cat = measured_row(s, "| cat");
  for (auto& r : s.rows) r.ratio = time_ratio(&r, cat);
  add_claims(s, n);
  for (sink_kind sink : {sink_kind::pipe, sink_kind::pty})
    s.rows.push_back(cut_lateness(sink, ctx.options.repeat));
  add_lateness_claim(s);
  return s;
}

}  // namespace flushcheck::detail
