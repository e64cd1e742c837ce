// Measuring one bench row: R untraced runs, each timed by the program
// itself, then one traced run for the write-family calls (bench_run.hpp).
#include "bench_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "escape.hpp"
#include "number_format.hpp"
#include "repro.hpp"
#include "run.hpp"

namespace flushcheck::detail {
namespace {

run_options options_for(const bench_case& c, std::chrono::milliseconds timeout) {
  run_options o;
  o.argv = c.argv;
  o.env = clean_environment();
  o.stdout_sink = c.sink;
  o.stderr_sink = sink_kind::pipe;
  if (!c.input.empty()) {
    o.input = stdin_kind::pipe;
    o.input_data = c.input;
  }
  o.timeout = timeout;
  return o;
}

/// The last line of S that is not empty, printable: where a program says
/// why it failed (a Python traceback ends with the exception).
std::string last_line(const std::string& s) {
  auto end = s.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  auto start = s.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return printable(s.substr(start, end + 1 - start), 200);
}

/// Write-family calls to every destination but stderr (where the program
/// says its time): stdout's sink, or the program's own pipe.
std::int64_t writes_not_to_stderr(const trace_summary& t) {
  std::int64_t n = 0;
  for (const auto& d : t.destinations)
    if (d.role != stream_role::err) n += d.write_calls;
  return n;
}

/// "" when O is a run whose program said its time; otherwise why not.
std::string failure(const observation& o) {
  if (o.status == wait_status::exited(0)) return "";
  const std::string said = last_line(o.err.data);
  return "the program " + o.status.describe() + (said.empty() ? "" : ": " + said);
}

/// "" when every value of a bench line is in range, else which is not:
/// finite everywhere, ns above 0 and under a day, ops and bytes whole
/// numbers that a double holds exactly (at most 2^53).
std::string out_of_range(const std::map<std::string, double>& values) {
  constexpr double exact = 9007199254740992.0;  // 2^53
  for (const auto& [key, v] : values) {
    const std::string shown = key + "=" + significant(v);
    if (!std::isfinite(v)) return shown + ": not a finite number";
    if (std::fabs(v) > exact) return shown + ": beyond 2^53, where a double stops counting";
    if (key == "ns" && !(v > 0 && v <= 86400e9))
      return shown + ": not a time in nanoseconds above 0 and at most a day";
    if ((key == "ops" || key == "bytes") && (v < 0 || v != std::floor(v)))
      return shown + ": not a whole number from 0 to 2^53";
  }
  return "";
}

/// ROW failed, WHY; no values.
std::map<std::string, double> mark_failed(bench_row& row, const std::string& why) {
  row.failed = true;
  row.skipped = why;
  return {};
}

/// One run: its values (ns=...), or SKIP / FAILED set.
std::map<std::string, double> once(const run_options& o, bench_row& row) {
  observation obs = run(o);
  if (std::string why = failure(obs); !why.empty()) return mark_failed(row, why);
  auto values = parse_bench_line(obs.err.data, row.skipped);
  if (!values || (row.skipped.empty() && !(values->count("ns") && values->at("ns") > 0)))
    return mark_failed(
        row, "the program said no 'bench ns=T' line (T: nanoseconds, above 0) on stderr: " +
                 last_line(obs.err.data));
  if (std::string why = out_of_range(*values); !why.empty())
    return mark_failed(row, "the program's bench line says " + why);
  if (o.trace && obs.trace) row.write_calls = writes_not_to_stderr(*obs.trace);
  return *values;
}

/// The key=value pairs of a `bench ns=...` LINE whose values are numbers.
std::map<std::string, double> bench_values(const std::string& line) {
  std::map<std::string, double> values;
  std::istringstream words(line.substr(6));
  for (std::string w; words >> w;) {
    auto eq = w.find('=');
    if (eq == std::string::npos) continue;
    char* end = nullptr;
    double v = std::strtod(w.c_str() + eq + 1, &end);
    if (end != w.c_str() + eq + 1 && *end == '\0')
      values[w.substr(0, eq)] = v;  // "12ms": not a number
  }
  return values;
}

/// ROW's times and values from RUNS (each value, per repetition): the
/// median of each, and its extremes where the repetitions differ.
void summarize(std::map<std::string, std::vector<double>> runs, bench_row& row) {
  for (double ns : runs["ns"]) row.seconds.push_back(ns / 1e9);
  runs.erase("ns");
  runs.erase("bytes");
  for (auto& [key, values] : runs) {
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    if (*lo != *hi) {  // the repetitions differ: exact claims look at every one
      row.values[key + ".min"] = *lo;
      row.values[key + ".max"] = *hi;
    }
    row.values[key] = median_of(std::move(values));
  }
}

/// The traced run of O that counts C's write-family calls into ROW (with
/// C's count_argv where it has one).
void count_write_calls(const bench_case& c, run_options o, bench_row& row) {
  o.trace = true;
  if (!c.count_argv.empty()) o.argv = c.count_argv;
  once(o, row);
}

}  // namespace

std::optional<std::map<std::string, double>> parse_bench_line(const std::string& err,
                                                              std::string& skip) {
  std::istringstream lines(err);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("bench skip: ", 0) == 0) {
      skip = line.substr(12);
      return std::map<std::string, double>{};
    }
    if (line.rfind("bench ns=", 0) != 0) continue;
    return bench_values(line);
  }
  return std::nullopt;
}

bench_row measure(const bench_case& c, int repeat, std::chrono::milliseconds timeout) {
  bench_row row = c.row;
  run_options o = options_for(c, timeout);
  row.repro = repro_command(o);
  std::map<std::string, std::vector<double>> runs;  // each value, per repetition
  for (int r = 0; r < repeat && row.skipped.empty(); ++r)
    for (const auto& [key, value] : once(o, row)) runs[key].push_back(value);
  if (!row.skipped.empty()) return row;
  summarize(std::move(runs), row);
  if (c.count_writes) count_write_calls(c, o, row);
  return row;
}

/// R's cost over BASE's, per unit of work: per byte when both moved bytes,
/// else per op when both made ops, else per run.
double relative_cost(const bench_row& r, const bench_row& base) {
  auto per = [](const bench_row& x, std::int64_t units) {
    return x.median() / static_cast<double>(units);
  };
  if (r.bytes > 0 && base.bytes > 0) return per(r, r.bytes) / per(base, base.bytes);
  if (r.ops > 0 && base.ops > 0) return per(r, r.ops) / per(base, base.ops);
  return r.median() / base.median();
}

void set_ratios(bench_suite& s) {
  const bench_row* found = find_row(s, s.baseline);
  if (!found || !found->measured() || found->median() <= 0) return;
  const bench_row base = *found;
  for (auto& r : s.rows) r.ratio = r.measured() ? relative_cost(r, base) : 0;
}

std::string size_name(long bytes) {
  if (bytes >= (1L << 20) && bytes % (1L << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

}  // namespace flushcheck::detail

namespace flushcheck {
namespace {

std::vector<double> sorted(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

std::string bench_program(const target_set& set, const std::string& program) {
  auto slash = set.stdio_script.rfind('/');
  return (slash == std::string::npos ? std::string(".") : set.stdio_script.substr(0, slash)) + "/" +
         program;
}

const bench_row* find_row(const bench_suite& s, const std::string& name) {
  for (const auto& r : s.rows)
    if (r.name == name) return &r;
  return nullptr;
}

double bench_row::min() const { return seconds.empty() ? 0 : sorted(seconds).front(); }
double bench_row::max() const { return seconds.empty() ? 0 : sorted(seconds).back(); }

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double bench_row::median() const { return median_of(seconds); }

double bench_row::throughput() const {
  double m = median();
  return bytes > 0 && m > 0 ? static_cast<double>(bytes) / m : 0;
}

}  // namespace flushcheck
